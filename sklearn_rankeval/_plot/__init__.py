"""Displays: matplotlib figures of ranking curves and of model comparisons
(matplotlib imported lazily)."""

from .calibration import CalibrationCurveDisplay
from .comparison import RankingComparisonDisplay
from .eleven_point import ElevenPointDisplay
from .exposure import ItemExposureDisplay
from .interpolated_pr import InterpolatedPrecisionRecallDisplay
from .metric_at_k import MetricAtKDisplay
from .pairwise import PairwiseComparisonDisplay
from .per_group_histogram import PerGroupHistogramDisplay
from .position_bias import PositionBiasDisplay
from .roc import GroupedRocCurveDisplay

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
    "RankingComparisonDisplay",
]
