"""trec_eval-compatible evaluation: the engine behind ``rankeval trec``.

One module per concern:

* ``_read.py``: TREC qrels and run files as dicts (and C's ``atof`` /
  ``atol`` for the measure parameters);
* ``_arrays.py``: a run against the qrels as the long layout of the metric
  functions, ranked as trec_eval ranks it (``form_res_rels.c``);
* ``_table.py``: trec_eval's measures, their parameters and the ``-m``
  selection;
* ``_library.py``: the measures the library has, computed by the registry's
  metrics (``average=None``);
* ``_specific.py`` and ``_gains.py``: trec_eval's own measures (its gain
  table for the latter), vectorised over the queries;
* ``_output.py``: each measure per query and its ``all`` value (the
  library's ``aggregate``), printed as trec_eval prints them.
"""

from ._arrays import TrecArrays, TrecError, align_runs, build_arrays
from ._library import rbp_resid as _rbp_resid  # noqa: F401 (tests' reference)
from ._output import Row, evaluate, format_lines, results_dict
from ._read import read_qrels, read_run
from ._table import ALL_TREC, MEASURES, OFFICIAL, TrecMeasure, parse_measures

__all__ = [
    "ALL_TREC",
    "MEASURES",
    "OFFICIAL",
    "Row",
    "TrecArrays",
    "TrecError",
    "TrecMeasure",
    "align_runs",
    "build_arrays",
    "evaluate",
    "format_lines",
    "parse_measures",
    "read_qrels",
    "read_run",
    "results_dict",
]
