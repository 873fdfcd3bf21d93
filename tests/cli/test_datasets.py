"""The minimal ``rankeval demo`` command, the click-log generator, and README.rst."""

import re
import subprocess
import sys
from contextlib import redirect_stdout
from io import StringIO

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from sklearn_rankeval import gauc_score
from sklearn_rankeval._cli import main
from sklearn_rankeval.datasets import make_click_log, make_interactions
from tests.conftest import REPO_ROOT

ROOT = REPO_ROOT


def test_make_click_log_is_seeded_and_shaped():
    X, y, groups = make_click_log(n_users=30, n_items=(3, 7), n_features=4,
                                  random_state=1)
    X2, y2, groups2 = make_click_log(n_users=30, n_items=(3, 7), n_features=4,
                                     random_state=1)
    assert np.array_equal(X, X2) and np.array_equal(y, y2)
    assert X.shape == (len(y), 5)
    sizes = np.unique(groups, return_counts=True)[1]
    assert len(sizes) == 30 and sizes.min() >= 3 and sizes.max() <= 7
    assert set(np.unique(y)) <= {0, 1}


def test_user_activity_feature_has_global_auc_but_no_group_auc():
    # the reason GAUC exists (seed 001): a user-level feature orders users,
    # not one user's items
    X, y, groups = make_click_log(n_users=3000, random_state=0)
    activity = X[:, 0]
    assert roc_auc_score(y, activity) > 0.65
    # constant within each user: every pair of one user is tied -> AUC 1/2
    assert gauc_score(y, activity, groups=groups) == pytest.approx(0.5, abs=1e-12)
    assert gauc_score(y, X[:, 1:] @ np.ones(X.shape[1] - 1), groups=groups) != 0.5


def test_make_click_log_rejects_bad_sizes():
    with pytest.raises(ValueError, match="n_items"):
        make_click_log(n_users=3, n_items=(5, 2))


def test_make_interactions_is_seeded_and_shaped():
    user, item = make_interactions(n_users=40, n_items=30, n_per_user=(2, 9),
                                   random_state=3)
    again = make_interactions(n_users=40, n_items=30, n_per_user=(2, 9),
                              random_state=3)
    assert np.array_equal(user, again[0]) and np.array_equal(item, again[1])
    sizes = np.bincount(user)
    assert len(sizes) == 40 and sizes.min() >= 2 and sizes.max() <= 9
    assert np.all(np.diff(user) >= 0) and 0 <= item.min() and item.max() < 30
    for u in range(40):  # no user meets an item twice
        assert len(set(item[user == u].tolist())) == sizes[u]


@pytest.mark.parametrize("popularity", [0.0, 1.0])
def test_make_interactions_first_draw_follows_the_zipf_law(popularity):
    # one item per user and no taste: the item of rank r is drawn with
    # probability r**-popularity / sum_j j**-popularity
    n_users, n_items = 20_000, 50
    _, item = make_interactions(n_users=n_users, n_items=n_items,
                                n_per_user=(1, 1), popularity=popularity,
                                taste=0.0, random_state=0)
    share = np.arange(1, n_items + 1, dtype=float) ** -popularity
    share /= share.sum()
    counts = np.sort(np.bincount(item, minlength=n_items))[::-1]
    expected = n_users * share
    if popularity == 0:  # uniform: no order to compare with
        counts, expected = np.bincount(item, minlength=n_items), expected
    sd = np.sqrt(n_users * share * (1 - share))
    top = slice(0, 3) if popularity else slice(None)
    assert np.all(np.abs(counts[top] - expected[top]) < 5 * sd[top])


def test_make_interactions_rejects_bad_arguments():
    with pytest.raises(ValueError, match="n_per_user"):
        make_interactions(n_users=3, n_items=5, n_per_user=(2, 6))
    with pytest.raises(ValueError, match="popularity and taste"):
        make_interactions(n_users=3, n_items=5, n_per_user=(1, 2), taste=-1)


def test_demo_prints_every_metric_for_both_models():
    out = StringIO()
    with redirect_stdout(out):
        assert main(["demo", "--n-users", "200"]) == 0
    text = out.getvalue()
    for row in ("AUC (global)", "GAUC", "MRR", "MAP@10", "NDCG@10", "HR@10 (pooled)",
                "success@10", "P@10", "R@10", "11-point AP", "F1",
                "F-alpha (alpha=0.25)"):
        assert re.search(rf"^{re.escape(row)}\s+\d\.\d{{4}}\s+\d\.\d{{4}}$", text, re.M), row
    gauc_row = re.search(r"^GAUC\s+(\S+)\s+(\S+)$", text, re.M)
    assert float(gauc_row.group(1)) == 0.5  # the activity-only model


def test_module_entry_point_runs():
    proc = subprocess.run([sys.executable, "-m", "sklearn_rankeval", "--help"],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0 and "demo" in proc.stdout


def test_readme_example_prints_what_it_says():
    readme = (ROOT / "README.rst").read_text()
    blocks = re.findall(r".. code-block:: python\n\n((?:    .*\n|\n)+)", readme)
    code = "\n".join(line[4:] for line in blocks[0].splitlines())
    expected = re.findall(r"^# (\S+)$", code, re.M)
    out = StringIO()
    with redirect_stdout(out):
        exec(compile(code, "README.rst", "exec"), {})
    assert out.getvalue().split() == expected
    assert len(expected) == 4


def _readme_block(containing):
    readme = (ROOT / "README.rst").read_text()
    blocks = re.findall(r".. code-block:: python\n\n((?:    .*\n|\n)+)", readme)
    found = [b for b in blocks if containing in b]
    assert found, f"no README code block with {containing!r}"
    return "\n".join(line[4:] for line in found[0].splitlines())


def test_readme_dataframe_example_prints_what_it_says():
    code = _readme_block("per_group_scores(")
    out = StringIO()
    with redirect_stdout(out):
        exec(compile(code, "README.rst", "exec"), {})
    printed = out.getvalue().splitlines()
    # the commented output lines, in order: the GAUC, then the frame
    expected = [line[2:] for line in code.splitlines()
                if line.startswith("# ") and not line.endswith(":")]
    assert [line.rstrip() for line in printed[: len(expected)]] == [
        e.rstrip() for e in expected]
    assert printed[len(expected)].split() == ["segment", "metric", "value", "groups"]


def test_readme_grid_search_snippet_runs():
    code = _readme_block("GridSearchCV(")
    out = StringIO()
    import sklearn

    try:
        with redirect_stdout(out):
            exec(compile(code, "README.rst", "exec"), {})
    finally:
        sklearn.set_config(enable_metadata_routing=False)
    assert out.getvalue().startswith("{'C': ")


@pytest.mark.parametrize("script", sorted((ROOT / "examples").glob("*.py")),
                         ids=lambda p: p.name)
def test_examples_run(script, monkeypatch):
    pytest.importorskip("matplotlib")
    import runpy

    import sklearn

    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.chdir(script.parent)
    try:
        with redirect_stdout(StringIO()):
            runpy.run_path(str(script), run_name="__main__")
    finally:
        sklearn.set_config(enable_metadata_routing=False)


def test_readme_gpu_example_prints_what_it_says():
    # torch on the CPU where there is no GPU; SCIPY_ARRAY_API is set by
    # conftest.py before SciPy is imported (the block sets it again)
    pytest.importorskip("torch")
    pytest.importorskip("array_api_compat")
    code = _readme_block("array_api_dispatch=True")
    expected = re.findall(r"^# (\d\S*)$", code, re.M)
    out = StringIO()
    with redirect_stdout(out):
        exec(compile(code, "README.rst", "exec"), {})
    assert out.getvalue().split() == expected == ["0.8571"]


def test_readme_ctr_example_prints_what_it_says():
    code = _readme_block("segments=device")
    expected = [line[2:] for line in code.splitlines() if line.startswith("# ")
                and not line.startswith("# every")]
    out = StringIO()
    with redirect_stdout(out):
        exec(compile(code, "README.rst", "exec"), {})
    assert out.getvalue().splitlines() == expected
    assert len(expected) == 3


def test_readme_recommendation_example_prints_what_it_says():
    code = _readme_block("top_k_items(")
    expected = [line[2:] for line in code.splitlines() if line.startswith("# {")]
    out = StringIO()
    with redirect_stdout(out):
        exec(compile(code, "README.rst", "exec"), {})
    assert out.getvalue().splitlines() == expected
    assert len(expected) == 1
