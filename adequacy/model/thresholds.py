"""The one default threshold of Harness@t, in a module that imports nothing: the command line
shows it in its help without loading the metrics (or pydantic) first."""

from __future__ import annotations

HARNESS_T = 0.75
"""The default threshold t of Harness@t and PostHarness@t, wherever one is printed or used
(``score``, ``report``, ``agent``, ``optimize``'s ``post`` option and its table): a spec whose
four (two post) metrics are all at least 0.75. At t = 1 Harness@t says nothing Pass@1 does not (every
case of every bucket passed) and one failed case out of a hundred counts as a miss; 0.75 is the
threshold of the Spec-Harness comparison of VR with PostHarness@t. ``--harness-t`` chooses
another; every label says which t it used (``Harness@0.75``)."""
