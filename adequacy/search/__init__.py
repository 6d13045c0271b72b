"""Beyond a task's cases: counterexample search and shrinking between two oracles
(``explore``, ``diff``), where to look (``space``), and the audit of every case of a task
against its gold specs, reference, checker and validator."""
