"""Grouped ranking metrics for scikit-learn: GAUC, MRR, MAP, NDCG@k, HR@k, P@k,
R@k, interpolated AP and F-alpha, on one vectorised ranking engine; top-k
recommendation lists of a score matrix."""

from ._core import config_context, get_config, set_config
from ._counterfactual import PositionBiasEstimator, counterfactual_report
from ._metrics import (
    bpref_score,
    calibration_ratio,
    dcg_score,
    expected_calibration_error,
    expected_reciprocal_rank_score,
    f_alpha_score,
    gauc_score,
    get_scorer,
    get_scorer_names,
    hit_rate_score,
    interpolated_average_precision_score,
    interpolated_precision_recall_curve,
    log_loss,
    make_ranking_scorer,
    mean_average_precision_score,
    mean_reciprocal_rank_score,
    ndcg_score,
    normalized_entropy,
    precision_at_k_score,
    r_precision_score,
    rank_biased_precision_residual,
    rank_biased_precision_score,
    recall_at_k_score,
    success_at_k_score,
    xauc_score,
)
from ._plot import (
    CalibrationCurveDisplay,
    ElevenPointDisplay,
    GroupedRocCurveDisplay,
    InterpolatedPrecisionRecallDisplay,
    ItemExposureDisplay,
    MetricAtKDisplay,
    PairwiseComparisonDisplay,
    PerGroupHistogramDisplay,
    PositionBiasDisplay,
    RankingComparisonDisplay,
)
from ._recommend import recommendation_report, top_k_items
from ._reports import (
    RankingAccumulator,
    achieved_power,
    compare_rankings,
    per_group_scores,
    ranking_report,
    risk_report,
    topic_set_size,
)
from ._retrieval import retrieval_report

try:  # written by setuptools_scm at install time
    from importlib.metadata import PackageNotFoundError, version

    __version__ = version("sklearn-rankeval")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0+unknown"

__all__ = [
    "CalibrationCurveDisplay",
    "ElevenPointDisplay",
    "GroupedRocCurveDisplay",
    "InterpolatedPrecisionRecallDisplay",
    "ItemExposureDisplay",
    "MetricAtKDisplay",
    "PairwiseComparisonDisplay",
    "PerGroupHistogramDisplay",
    "PositionBiasDisplay",
    "PositionBiasEstimator",
    "RankingAccumulator",
    "RankingComparisonDisplay",
    "achieved_power",
    "bpref_score",
    "calibration_ratio",
    "compare_rankings",
    "config_context",
    "counterfactual_report",
    "dcg_score",
    "expected_calibration_error",
    "expected_reciprocal_rank_score",
    "f_alpha_score",
    "gauc_score",
    "get_config",
    "get_scorer",
    "get_scorer_names",
    "hit_rate_score",
    "interpolated_average_precision_score",
    "interpolated_precision_recall_curve",
    "log_loss",
    "make_ranking_scorer",
    "mean_average_precision_score",
    "mean_reciprocal_rank_score",
    "ndcg_score",
    "normalized_entropy",
    "per_group_scores",
    "precision_at_k_score",
    "r_precision_score",
    "rank_biased_precision_residual",
    "rank_biased_precision_score",
    "ranking_report",
    "recall_at_k_score",
    "recommendation_report",
    "retrieval_report",
    "risk_report",
    "set_config",
    "success_at_k_score",
    "top_k_items",
    "topic_set_size",
    "xauc_score",
]
