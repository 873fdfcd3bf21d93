"""Top-N recommendation lists: ``top_k_items`` and ``recommendation_report``.

* :mod:`._top_k` -- the top-k lists of a users x items score matrix;
* :mod:`._plan` -- the arguments of a report checked, each metric with its
  rule (this library's, or a peer's record of :mod:`._peers`);
* :mod:`._inputs` -- the readers of the lists, held-out and training
  interactions (every input form), read and encoded once;
* :mod:`._lists` -- the order of each user's list: membership at the cut,
  tie blocks, the scores of the long layout;
* :mod:`._evaluate` -- inputs -> partials (the ``_metrics`` pipeline and the
  registry's beyond-accuracy statistics) -> values;
* :mod:`._report` -- ``recommendation_report``, its outputs, and
  ``exposure_counts`` (the exposure display).

The beyond-accuracy metrics are declared in the registry
(``_metrics.LIST_METRICS``) with their statistics; nothing here computes a
metric of its own.
"""

# the subpackage's face: what other subpackages import
from .._metrics import LIST_METRICS, gini_index, lorenz_curve  # noqa: F401
from ._evaluate import (  # noqa: F401
    ReportPartials,
    UserTable,
    chunk_partials,
    finalize,
    merge,
)
from ._inputs import read_inputs  # noqa: F401
from ._peers import NAMES  # noqa: F401
from ._plan import DEFAULT, USERS, make_plan  # noqa: F401
from ._report import (  # noqa: F401
    BEYOND,
    RecommendationReport,
    exposure_counts,
    format_report,
    recommendation_report,
)
from ._top_k import top_k_items  # noqa: F401
