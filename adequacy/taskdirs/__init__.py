"""Task folders on disk: read and check one (every error with file, line and field), find the
ones command-line paths name, write cases back."""
