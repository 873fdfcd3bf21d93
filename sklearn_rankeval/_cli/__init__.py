"""The ``rankeval`` command: demo, trec, evaluate, compare.

``_main.py`` holds the parser and the subcommands, which call the library's
public functions (and the registry's metric names); ``_trec/`` reads TREC
qrels and run files and computes trec_eval's measures; ``_io.py`` reads the
CSV, TSV and Parquet files of ``rankeval evaluate`` and ``compare``, chunk by
chunk.
"""

from ._main import main

__all__ = ["main"]
