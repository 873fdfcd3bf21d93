"""The ``rankeval`` command: demo, trec, evaluate, evaluate-recommendations,
compare.

``_main.py`` holds the parser and the entry point; each command is a module
of its own (``_demo``, ``_evaluate``, ``_recommendations``, ``_compare``, and
``_trec/`` for trec_eval's measures and ``rankeval trec``); ``_io.py`` reads
the CSV, TSV and Parquet files chunk by chunk (pandas' C parser, pyarrow),
``_progress.py`` shows the progress, ``_messages.py`` the errors and warnings.
Nothing but the console script's entry point and ``python -m
sklearn_rankeval`` imports this package.
"""

from ._main import main

__all__ = ["main"]
