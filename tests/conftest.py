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


# ---------------------------------------------------------------------------
# skipped tests: one line per missing peer instead of one per test
# ---------------------------------------------------------------------------
#: distribution names of the [test] extra whose module is named otherwise
_MODULE_OF = {"pytrec-eval-terrier": "pytrec_eval", "xgboost-cpu": "xgboost",
              "scikit-learn": "sklearn"}


def _test_extra_requirements(pyproject):
    """The ``[test]`` extra's requirement strings: from pyproject.toml
    (Python >= 3.11), else from the installed package's metadata."""
    try:
        import tomllib
    except ImportError:  # Python < 3.11
        from importlib import metadata

        try:
            requires = metadata.requires("sklearn-rankeval") or []
        except metadata.PackageNotFoundError:
            return []
        return [r for r in requires if 'extra == "test"' in r]
    with open(pyproject, "rb") as f:
        return tomllib.load(f)["project"]["optional-dependencies"]["test"]


def test_extra_modules(pyproject=REPO_ROOT / "pyproject.toml"):
    """The top-level modules of the ``[test]`` extra's requirements that
    apply on this platform (environment markers evaluated)."""
    from packaging.requirements import Requirement

    modules = set()
    for text in _test_extra_requirements(pyproject):
        req = Requirement(text)
        if req.marker is not None and not req.marker.evaluate({"extra": "test"}):
            continue
        name = req.name.lower()
        modules.add(_MODULE_OF.get(name, name.replace("-", "_")))
    return modules


test_extra_modules.__test__ = False  # a helper, not a test


def skip_summary(skips, extra_modules):
    """The lines of the skip summary.

    ``skips``: ``(reason, location)`` of each skipped test.  A reason
    ``could not import 'pkg.sub'`` (``pytest.importorskip``) or ``pkg is not
    installed`` counts for the peer ``pkg``: those the ``[test]`` extra does not install (expected
    here) and those it does (missing: a broken install) get one line each;
    any other reason gets one line with its count and first location.
    """
    import re

    missing, other = {}, {}
    for reason, location in skips:
        reason = reason.removeprefix("Skipped: ")
        found = (re.search(r"could not import '([\w.]+)'", reason)
                 or re.match(r"([\w.]+) is not installed", reason))
        if found:
            peer = found.group(1).split(".")[0]
            missing[peer] = missing.get(peer, 0) + 1
        else:
            count, first = other.get(reason, (0, location))
            other[reason] = (count + 1, first)

    def tests(n, verb=""):
        if verb:
            verb = f" {verb}" if n != 1 else f" {verb}s"
        return f"{n} test{'s' if n != 1 else ''}{verb}"

    lines = []
    expected = {p: n for p, n in missing.items() if p not in extra_modules}
    broken = {p: n for p, n in missing.items() if p in extra_modules}
    if expected:
        lines.append(f"{tests(sum(expected.values()), 'need')} optional peers that "
                     'the [test] extra does not install (expected; install the '
                     "peer to run them):")
        lines += [f"  {peer}: {tests(n)}" for peer, n in sorted(expected.items())]
    if broken:
        lines.append(f"{tests(sum(broken.values()), 'need')} peers of the [test] "
                     'extra that do not import here (pip install ".[test]"):')
        lines += [f"  {peer}: {tests(n)}" for peer, n in sorted(broken.items())]
    if other:
        lines.append("other reasons:")
        lines += [f"  {tests(n)}: {reason} ({first})"
                  for reason, (n, first) in sorted(other.items())]
    return lines


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """One line per missing peer (``-rs`` still lists every skip)."""
    if "s" in (config.getoption("reportchars") or "").replace("a", "s"):
        return  # the user asked for the skip lines themselves
    skips = []
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = report.longrepr
        if isinstance(longrepr, tuple) and len(longrepr) == 3:
            path, line, reason = longrepr
            skips.append((reason, f"{path}:{line}"))
    if skips:
        terminalreporter.write_sep("=", "skipped tests, by reason")
        for line in skip_summary(skips, test_extra_modules()):
            terminalreporter.write_line(line)
