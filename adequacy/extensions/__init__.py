"""How plugins plug in: the hook specifications, the registry of every installed extension,
and the contracts a backend, an engine, a verifier and an importer fulfil. A plugin author
reads ``adequacy.plugin``, which re-exports what is public here."""
