"""_reports"""

# the subpackage's face: what other subpackages import
from ._accumulate import RankingAccumulator  # noqa: F401
from ._compare import compare_rankings  # noqa: F401
from ._per_group import per_group_scores  # noqa: F401
from ._report import ranking_report  # noqa: F401
