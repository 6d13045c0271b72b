"""Code that runs inside the sandboxed worker (standard library only) and is shared with the
front end, so that both read a spec the same way."""
