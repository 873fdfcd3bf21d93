"""_metrics"""

# the subpackage's face: what other subpackages import
from ._beyond_kernels import (  # noqa: F401
    USER_STATS,
    BeyondPartials,
    Popularity,
    check_head_share,
    distinct_pairs,
    gini_index,
    lorenz_curve,
    short_head,
)
from ._beyond_kernels import merge as merge_list_partials  # noqa: F401
from ._beyond_kernels import partials as list_partials  # noqa: F401
from ._beyond_kernels import popularity as train_popularity  # noqa: F401
from ._calibration import reliability_curves  # noqa: F401
from ._classification import f_alpha_score  # noqa: F401
from ._conventions import (  # noqa: F401
    check_convention,
    needs_input_order,
    resolved_metrics,
    tie_free_scores,
)
from ._ctr import (  # noqa: F401
    calibration_ratio,
    expected_calibration_error,
    log_loss,
    normalized_entropy,
    xauc_score,
)
from ._curves import (  # noqa: F401
    RECALL_LEVELS,
    averaged_roc,
    check_band,
    check_curve_n_points,
    check_fpr_grid,
    interpolated_pr_curve,
    interpolated_precision_recall_curve,
    pr_curve_points,
    rank_for_curves,
    single_roc,
)
from ._docs import fill_doc, substitute_doc  # noqa: F401
from ._kernels import interpolated_precision, recall_level_cutoffs, safe_divide  # noqa: F401
from ._names import (  # noqa: F401
    did_you_mean,
    parse_metric_name,
    parse_metrics,
    valid_names_text,
)
from ._pipeline import drop_unjudged, evaluate_chunked, evaluate_convention  # noqa: F401
from ._ranking import (  # noqa: F401
    bpref_score,
    dcg_score,
    expected_reciprocal_rank_score,
    gauc_score,
    hit_rate_score,
    interpolated_average_precision_score,
    mean_average_precision_score,
    mean_reciprocal_rank_score,
    ndcg_score,
    precision_at_k_score,
    r_precision_score,
    rank_biased_precision_residual,
    rank_biased_precision_score,
    recall_at_k_score,
    success_at_k_score,
)
from ._registry import DEFAULT_METRICS, LIST_METRICS, METRICS, group_info  # noqa: F401
from ._scorer import get_scorer, get_scorer_names, make_ranking_scorer  # noqa: F401
