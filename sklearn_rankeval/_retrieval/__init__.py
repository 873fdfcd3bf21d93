"""Retrieval for RAG: a run and its qrels as frames, by any harness's rules.

* :mod:`._frames` -- the run and qrels frames read and checked once (ids of
  one type, finite labels, one label per judged pair), ids encoded once;
* :mod:`._hygiene` -- chunks to documents, identical ids, repeated and
  unjudged documents, then the long layout the engine ranks (and the tie
  orders of the harnesses);
* :mod:`._presets` -- ``convention=``: each harness's rules, read from its
  source;
* :mod:`._judges` -- several judge samples per document: the expected
  value over the labels and its interval;
* :mod:`._report` -- ``retrieval_report``;
* :mod:`._files` -- BEIR folders and TREC files as frames.

The metrics are the registry's, computed by the one pipeline
(``_metrics.evaluate``); nothing here ranks or computes a metric itself.
"""

from ._files import read_qrels_file, read_run_file
from ._presets import CONVENTIONS
from ._report import retrieval_report

__all__ = ["CONVENTIONS", "read_qrels_file", "read_run_file", "retrieval_report"]
