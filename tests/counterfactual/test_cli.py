"""``rankeval counterfactual``: every option against the function."""

import json
import re

import numpy as np
import pandas as pd
import pytest

from sklearn_rankeval import PositionBiasEstimator, counterfactual_report
from sklearn_rankeval._cli import main
from tests.counterfactual._simulate import simulate

THETA = 1.0 / np.arange(1, 9) ** 0.8


@pytest.fixture(scope="module")
def log_file(tmp_path_factory):
    rng = np.random.default_rng(0)
    gamma = rng.beta(1, 2, (40, 8))
    log = simulate(rng, theta=THETA, gamma=gamma, n_impressions=600)
    new = np.round(gamma + 0.2 * rng.standard_normal(gamma.shape), 6)
    frame = pd.DataFrame({
        "page": log["groups"], "clicked": log["clicks"], "rank": log["positions"],
        "score": new[log["query"], log["doc"]],
        "item": [f"q{q}|d{d}" for q, d in zip(log["query"], log["doc"])]})
    path = tmp_path_factory.mktemp("cf") / "log.csv"
    frame.to_csv(path, index=False)
    return path, frame


COLUMNS = ["--impression", "page", "--click", "clicked", "--position", "rank",
           "--score", "score"]


def _run(capsys, *args):
    status = main(["counterfactual", *map(str, args)])
    out, err = capsys.readouterr()
    return status, out, err


def _function(frame, propensities, **kw):
    return counterfactual_report(frame["clicked"], frame["score"], frame["rank"],
                                 groups=frame["page"], propensities=propensities,
                                 **kw)


@pytest.mark.parametrize("method", ["em", "harvest"])
def test_table_is_the_functions_text(capsys, log_file, method):
    path, frame = log_file
    status, out, err = _run(capsys, path, *COLUMNS, "--item", "item", "--method",
                            method, "--confidence", "0.9", "--n-resamples", "200",
                            "--seed", "3")
    assert status == 0, err
    est = PositionBiasEstimator(method=method).fit(
        frame["clicked"], frame["rank"], items=frame["item"], groups=frame["page"])
    expected = _function(frame, est, estimator=("naive", "ips", "snips"),
                         confidence=0.9, n_resamples=200, random_state=3,
                         output="text")
    first, rest = out.split("\n", 1)
    assert first == ("propensities (fitted, method=" + method + "): "
                     + " ".join(f"{t:.4f}" for t in est.propensities_))
    assert rest == expected + "\n"


def test_json_given_propensities_estimators_metrics_clip(capsys, log_file):
    path, frame = log_file
    given = ",".join(map(repr, THETA.tolist()))
    status, out, err = _run(capsys, path, *COLUMNS, "--propensities", given,
                            "--estimator", "ips", "--estimator", "snips",
                            "-m", "dcg@5", "-m", "recall@3", "--clip", "4",
                            "--format", "json")
    assert status == 0, err
    doc = json.loads(out)
    expected = _function(frame, THETA, estimator=("ips", "snips"),
                         metrics=["dcg@5", "recall@3"], clip=4.0)
    assert doc["report"] == expected
    assert doc["propensities"] == THETA.tolist() and doc["method"] is None


def test_randomized_needs_no_items_and_refit(capsys, log_file):
    path, frame = log_file
    status, out, err = _run(capsys, path, *COLUMNS, "--method", "randomized",
                            "--confidence", "0.95", "--n-resamples", "50",
                            "--refit", "--format", "json")
    assert status == 0, err
    est = PositionBiasEstimator(method="randomized").fit(frame["clicked"],
                                                         frame["rank"])
    expected = _function(frame, est, estimator=("naive", "ips", "snips"),
                         confidence=0.95, n_resamples=50, random_state=0,
                         refit=True)
    assert json.loads(out)["report"] == expected


@pytest.mark.parametrize("args, message", [
    (["--method", "em"], "give --item COL"),
    (["--propensities", "1,0.5", "--refit"], "--refit refits the propensities"),
    (["--propensities", "1,0.5"], "positions: .* beyond the 2 propensities"),
    (["--propensities", "1,x"], "expected comma-separated numbers"),
    (["--item", "item", "--clip", "0.5"], "clip must be None or a finite number >= 1"),
])
def test_bad_arguments_are_one_line(capsys, log_file, args, message):
    path, _ = log_file
    status, out, err = _run(capsys, path, *COLUMNS, *args)
    assert status == 2 and out == ""
    lines = err.strip().splitlines()
    if "comma-separated" not in message:  # argparse's own errors add the usage
        assert len(lines) == 1
    assert re.search(message, lines[-1]), err


def test_a_query_id_as_impression_is_refused(capsys, log_file, tmp_path):
    _, frame = log_file
    bad = frame.assign(page=frame["item"].str.split("|").str[0])  # the query
    path = tmp_path / "by_query.csv"
    bad.to_csv(path, index=False)
    status, out, err = _run(capsys, path, *COLUMNS, "--item", "item")
    assert status == 2
    assert "impression(s) (groups) show a position on several rows" in err
