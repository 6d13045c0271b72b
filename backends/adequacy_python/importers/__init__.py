"""Dataset importers of the Python backend (``adequacy import humaneval``)."""
