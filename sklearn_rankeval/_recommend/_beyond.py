"""The exposure display's former import path (``_plot.exposure`` reads
``_beyond.gini_index`` and ``_beyond.lorenz_curve``): the statistics of the
beyond-accuracy metrics are in ``_metrics._beyond_kernels``, through the
``_recommend`` face as ``gini_index`` and ``lorenz_curve``."""

from .._metrics import gini_index, lorenz_curve

__all__ = ["gini_index", "lorenz_curve"]
