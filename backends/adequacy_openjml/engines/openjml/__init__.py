"""The ``openjml`` engine: real OpenJML ESC on the stubs, all stubs of a spec in one run."""
