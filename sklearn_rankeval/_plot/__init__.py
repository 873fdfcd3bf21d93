"""Displays: matplotlib figures of ranking curves (matplotlib imported lazily)."""

from .eleven_point import ElevenPointDisplay
from .interpolated_pr import InterpolatedPrecisionRecallDisplay
from .roc import GroupedRocCurveDisplay

__all__ = [
    "ElevenPointDisplay",
    "GroupedRocCurveDisplay",
    "InterpolatedPrecisionRecallDisplay",
]
