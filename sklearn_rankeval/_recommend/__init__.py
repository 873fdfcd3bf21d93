"""_recommend"""

# the subpackage's face: what other subpackages import
from ._beyond import gini_index, lorenz_curve  # noqa: F401
from ._peers import NAMES  # noqa: F401
from ._report import (  # noqa: F401
    BEYOND,
    DEFAULT,
    USERS,
    _format,
    _split_metrics,
    exposure_counts,
    recommendation_report,
)
from ._top_k import top_k_items  # noqa: F401
