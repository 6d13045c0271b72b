"""What scoring leaves behind and what people read: the versioned results log, one writer per
file, tables, and the HTML/markdown reports and comparisons (``html``)."""
