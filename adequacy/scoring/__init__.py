"""Score one spec on one task: the options, the engine chain through the verdict cache, the
report with its metrics, content keys, and proving a spec against the method body."""
