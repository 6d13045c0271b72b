"""What a person sees on a terminal: tables that never cut a cell, progress on stderr."""
