import os

# scikit-learn (>= 1.6) accepts array_api_dispatch=True only when SciPy's own
# Array API support is on, which is read when SciPy is first imported
# (tests/test_array_api.py)
os.environ.setdefault("SCIPY_ARRAY_API", "1")

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

#: the repository root and the test data (tests/data)
REPO_ROOT = Path(__file__).resolve().parents[1]
DATA_DIR = Path(__file__).resolve().parent / "data"

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.load_profile("default")


def make_grouped_data(seed=0, n_groups=12, max_size=9, n_grades=3, n_levels=4):
    """A shuffled long-layout sample with ties, graded relevance and one-class groups.

    Group sizes are 1..max_size, relevance grades 0..n_grades-1, scores take
    ``n_levels`` values (so ties are frequent).  Group ids are ints in
    arbitrary (non-contiguous) order.
    """
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, max_size + 1, n_groups)
    ids = rng.choice(1000, n_groups, replace=False)
    groups = np.repeat(ids, sizes)
    n = groups.shape[0]
    y_true = rng.integers(0, n_grades, n)
    y_score = rng.integers(0, n_levels, n) / 4.0
    perm = rng.permutation(n)
    return y_true[perm], y_score[perm], groups[perm]


def as_read(spec, y, s):
    """The data as ``spec`` reads it: clicks (0/1) for two-class metrics,
    scores scaled into [0, 1] for metrics of probabilities."""
    if spec.labels_kind == "binary":
        y = (y > 0).astype(int)
    if spec.scores == "probability" and np.nanmax(s) > 1:
        s = s / np.nanmax(s)
    return y, s


@pytest.fixture
def pyplot():
    """matplotlib's pyplot on the Agg backend, every figure closed after."""
    pytest.importorskip("matplotlib")
    import matplotlib
    import matplotlib.pyplot as plt

    plt.close("all")
    if matplotlib.get_backend().lower() != "agg":
        plt.switch_backend("Agg")
    yield plt
    plt.close("all")


@pytest.fixture
def grouped_data():
    return make_grouped_data()


@pytest.fixture(params=["compiled", "generic"])
def engine_path(request, monkeypatch):
    """Run a test on each ranker of NumPy input (see _engine._dispatch): the
    compiled grouped pass (its statistics where it computes them, else the
    kernels on its blocks) and the generic (Array API) ranker, whose blocks
    the kernels read."""
    from sklearn_rankeval._engine import _dispatch

    monkeypatch.setattr(_dispatch, "ENGINE_PATH", request.param)
    return request.param
