"""What a metric is, and the one pipeline that computes it.

* :mod:`._registry` -- the one declaration of every metric (name, options
  and their defaults, statistics, finalize, capabilities); the public
  functions register into it (``metric_function``), it never imports them;
* :mod:`._names` -- metric names (``"ndcg@10"``) -> registry entries;
* :mod:`._kernels`, :mod:`._ctr_kernels`, :mod:`._ips_kernels`,
  :mod:`._concordance`, :mod:`._calibration` -- the per-group kernels, with
  their derivations; :mod:`._beyond_kernels` -- the statistics of the
  beyond-accuracy metrics of top-N lists;
* :mod:`._conventions` -- other libraries' rules as switches and presets;
* :mod:`._pipeline` -- inputs -> convention -> engine -> kernels ->
  per-group partials: every entry point goes through it;
* the public functions by family: :mod:`._ranking` (scikit-learn's ranking
  metrics, grouped), :mod:`._retrieval` (trec_eval's measures),
  :mod:`._user_models` (ERR, RBP), :mod:`._ctr` (CTR and calibration),
  :mod:`._diversity` (grades per intent; kernels :mod:`._diversity_kernels`),
  :mod:`._classification` (F-alpha); :mod:`._curves`, :mod:`._scorer`.

Never imports ``_reports``, ``_recommend``, ``_counterfactual``,
``_distributed``, ``_plot`` or ``_cli``.
"""

from ._beyond_kernels import (
    BeyondPartials,
    Popularity,
    check_head_share,
    distinct_pairs,
    gini_index,
    lorenz_curve,
    short_head,
)
from ._beyond_kernels import partials as list_partials
from ._beyond_kernels import popularity as train_popularity
from ._calibration import (
    reliability_curves,
)
from ._classification import (
    f_alpha_score,
)
from ._conventions import (
    check_convention,
    needs_input_order,
    resolve,
    resolved_metrics,
    tie_free_scores,
)
from ._ctr import (
    calibration_ratio,
    expected_calibration_error,
    log_loss,
    normalized_entropy,
    xauc_score,
)
from ._curves import (
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
from ._diversity import (
    alpha_ndcg_score,
    d_sharp_ndcg_score,
    err_ia_score,
    intent_aware_score,
    nrbp_score,
    subtopic_recall_score,
)
from ._docs import (
    fill_doc,
    substitute_doc,
)
from ._exposure import awrf_score, expected_exposure_score, exposure_frame
from ._kernels import (
    interpolated_precision,
    recall_level_cutoffs,
    safe_divide,
)
from ._names import (
    MetricTable,
    parse_metric_name,
    parse_metrics,
    valid_names_text,
)
from ._pipeline import (
    drop_unjudged,
    evaluate,
    evaluate_chunked,
)
from ._ranking import (
    dcg_score,
    gauc_score,
    interpolated_average_precision_score,
    mean_average_precision_score,
    ndcg_score,
)
from ._registry import (
    DEFAULT_METRICS,
    GAIN_METRICS,
    LIST_METRICS,
    METRICS,
    TREC_EVAL,
)
from ._retrieval import (
    bpref_score,
    hit_rate_score,
    mean_reciprocal_rank_score,
    precision_at_k_score,
    r_precision_score,
    recall_at_k_score,
    success_at_k_score,
)
from ._scorer import (
    get_scorer,
    get_scorer_names,
    make_ranking_scorer,
)
from ._spec import group_info
from ._user_models import (
    expected_reciprocal_rank_score,
    rank_biased_precision_residual,
    rank_biased_precision_score,
)

__all__ = [
    "BeyondPartials",
    "DEFAULT_METRICS",
    "GAIN_METRICS",
    "LIST_METRICS",
    "METRICS",
    "MetricTable",
    "Popularity",
    "RECALL_LEVELS",
    "TREC_EVAL",
    "alpha_ndcg_score",
    "averaged_roc",
    "awrf_score",
    "bpref_score",
    "calibration_ratio",
    "check_band",
    "check_convention",
    "check_curve_n_points",
    "check_fpr_grid",
    "check_head_share",
    "d_sharp_ndcg_score",
    "dcg_score",
    "distinct_pairs",
    "drop_unjudged",
    "err_ia_score",
    "evaluate",
    "evaluate_chunked",
    "expected_calibration_error",
    "expected_exposure_score",
    "expected_reciprocal_rank_score",
    "exposure_frame",
    "f_alpha_score",
    "fill_doc",
    "gauc_score",
    "get_scorer",
    "get_scorer_names",
    "gini_index",
    "group_info",
    "hit_rate_score",
    "intent_aware_score",
    "interpolated_average_precision_score",
    "interpolated_pr_curve",
    "interpolated_precision",
    "interpolated_precision_recall_curve",
    "list_partials",
    "log_loss",
    "lorenz_curve",
    "make_ranking_scorer",
    "mean_average_precision_score",
    "mean_reciprocal_rank_score",
    "ndcg_score",
    "needs_input_order",
    "normalized_entropy",
    "nrbp_score",
    "parse_metric_name",
    "parse_metrics",
    "pr_curve_points",
    "precision_at_k_score",
    "r_precision_score",
    "rank_biased_precision_residual",
    "rank_biased_precision_score",
    "rank_for_curves",
    "recall_at_k_score",
    "recall_level_cutoffs",
    "reliability_curves",
    "resolve",
    "resolved_metrics",
    "safe_divide",
    "short_head",
    "single_roc",
    "substitute_doc",
    "subtopic_recall_score",
    "success_at_k_score",
    "tie_free_scores",
    "train_popularity",
    "valid_names_text",
    "xauc_score",
]
