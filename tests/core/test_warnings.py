"""Every UndefinedMetricWarning points at the caller's line, whatever the path."""

import warnings

import numpy as np
import pytest
from sklearn.exceptions import UndefinedMetricWarning

import sklearn_rankeval as rk
from sklearn_rankeval._metrics._registry import METRICS

Y = np.zeros(6)  # nothing relevant: every metric but DCG is undefined
S = np.arange(6.0) / 10  # probabilities too (the CTR metrics)
G = np.repeat([0, 1], 3)


def _accumulated(name):
    acc = rk.RankingAccumulator(metrics=[name]).update(Y, S, groups=G)
    return acc.result()


ENTRY_POINTS = {
    "score function": lambda name: METRICS[name].func(Y, S, groups=G),
    "per-group values": lambda name: METRICS[name].func(Y, S, groups=G, average=None),
    "ranking_report": lambda name: rk.ranking_report(Y, S, groups=G, metrics=[name]),
    "report with intervals": lambda name: rk.ranking_report(
        Y, S, groups=G, metrics=[name], confidence=0.9, n_resamples=5,
        random_state=0),
    "accumulator": _accumulated,
}


def _names():
    """The metrics undefined without relevant items (not DCG, not bpref's judged)."""
    return [name for name, spec in METRICS.items()
            if not spec.always_defined
            and (not spec.accepts_judged or spec.judged_rule == "keep")]


@pytest.mark.parametrize("entry", ENTRY_POINTS)
@pytest.mark.parametrize("name", _names())
def test_undefined_warning_names_this_file(name, entry):
    # function calls take the metric's default k; reports need a name with one
    spec = METRICS[name]
    metric = (f"{name}@2" if spec.has_k and spec.k_default is not None
              and entry not in ("score function", "per-group values") else name)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        ENTRY_POINTS[entry](metric)
    undefined = [w for w in record if issubclass(w.category, UndefinedMetricWarning)]
    assert undefined, f"{entry} of {metric} gave no UndefinedMetricWarning"
    assert {w.filename for w in undefined} == {__file__}


def test_curve_warning_names_this_file():
    with pytest.warns(UndefinedMetricWarning) as record:
        rk.interpolated_precision_recall_curve(Y, S, groups=G)
    assert {w.filename for w in record} == {__file__}


def test_warn_skips_every_frame_of_the_package():
    # a warning raised inside a comprehension inside the package (its own
    # frame before Python 3.12) still points here
    with pytest.warns(UndefinedMetricWarning) as record:
        rk.compare_rankings(Y, {"A": S, "B": -S, "C": S}, groups=G,
                            metrics=["mrr"], n_resamples=10, random_state=0)
    assert record and {w.filename for w in record} == {__file__}
