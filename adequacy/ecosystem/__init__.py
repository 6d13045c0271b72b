"""The project in other ecosystems: Harbor, inspect_ai, the Hugging Face Hub, data frames.

One module per job. Export writes what the other tool reads (Harbor task folders, a folder
``datasets.load_dataset`` reads); import reads what it writes (Harbor job folders,
Verus-SpecGym's per-bucket result files, that folder again) into our own task folders and
results log; ``inspect_task`` is an inspect_ai task over our tasks; ``tables`` turns results
into one row per spec. None of these needs the other tool's package at run time unless it
calls into that tool (inspect, datasets): ``harbor`` needs Python 3.12 and the project runs on
3.11, so Harbor's formats are written and read here from their documented shapes, and tests
check them against Harbor's own models.
"""
