"""Several judge samples per document (judges=): the expected value over the
labels' uncertainty, checked against its exact value (every combination of
the samples enumerated), and the judge-noise interval against the exact
distribution of a simulation whose truth is known."""

import itertools
import math
import warnings

import numpy as np
import pandas as pd
import pytest

from sklearn_rankeval import retrieval_report
from sklearn_rankeval._core import InvalidArgumentError
from tests import _reference as ref


def test_expected_ndcg_is_the_mean_over_every_combination_of_labels():
    run_rows = [("q1", "a", 3.0), ("q1", "b", 2.0), ("q1", "c", 2.0),
                ("q2", "a", 1.0), ("q2", "d", 0.5), ("q2", "e", 0.2)]
    samples = {("q1", "b"): (1.0, 0.0, 2.0), ("q1", "e"): (0.0, 1.0, 1.0),
               ("q2", "d"): (1.0, 1.0, 2.0), ("q2", "a"): (0.0, 0.0, 0.5)}
    run = pd.DataFrame(run_rows, columns=["query_id", "doc_id", "score"])
    qrels = pd.DataFrame([(q, d, *ys) for (q, d), ys in samples.items()],
                         columns=["query_id", "doc_id", "j1", "j2", "j3"])
    # exact: every combination of one sample per pair, equally likely; the
    # report's mean over the queries where nDCG is defined
    values = []
    for combo in itertools.product(*samples.values()):
        labels = [(q, d, y) for (q, d), y in zip(samples, combo)]
        per_q = []
        for y_true, y_score, _ in ref.query_lists(run_rows, labels).values():
            if ref.n_relevant(y_true):
                per_q.append(float(ref.ndcg_tie_averaged(y_true, y_score, 3)))
        values.append(sum(per_q) / len(per_q))
    exact, sd = np.mean(values), np.std(values)
    n_draws = 1500
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = retrieval_report(run, qrels, metrics="ndcg@3",
                               judges=["j1", "j2", "j3"], n_draws=n_draws,
                               random_state=0)["ndcg@3"]
    assert abs(got["value"] - exact) < 4 * sd / math.sqrt(n_draws)
    # the judge interval lies within the range of the exact distribution
    assert min(values) - 1e-12 <= got["judge_low"] <= got["judge_high"] \
        <= max(values) + 1e-12


def _poisson_binomial(p):
    """The exact distribution of a sum of independent Bernoulli(p_i)."""
    dist = np.array([1.0])
    for pi in p:
        dist = np.convolve(dist, [1 - pi, pi])
    return dist


def test_the_judge_interval_covers_a_fresh_judgment_as_stated():
    # known truth: each document is relevant with probability p (its share
    # of positive samples among 4 judges); precision@5 of the mean over 40
    # queries is then (sum of 200 independent Bernoulli) / 200, exactly
    rng = np.random.default_rng(7)
    n_q, n_d, k, n_judges = 40, 8, 5, 4
    run_rows, qrels_rows, p_top = [], [], []
    for q in range(n_q):
        for d in range(n_d):
            run_rows.append((f"q{q}", f"d{d}", float(n_d - d)))
            positives = int(rng.integers(0, n_judges + 1))
            samples = [1.0] * positives + [0.0] * (n_judges - positives)
            qrels_rows.append((f"q{q}", f"d{d}", *samples))
            if d < k:
                p_top.append(positives / n_judges)
    run = pd.DataFrame(run_rows, columns=["query_id", "doc_id", "score"])
    judges = [f"j{i}" for i in range(n_judges)]
    qrels = pd.DataFrame(qrels_rows, columns=["query_id", "doc_id", *judges])
    got = retrieval_report(run, qrels, metrics="precision@5", judges=judges,
                           n_draws=800, confidence=0.9, random_state=1,
                           )["precision@5"]
    dist = _poisson_binomial(p_top)
    support = np.arange(len(dist)) / (n_q * k)
    mean = float(support @ dist)
    sd = math.sqrt(float(((support - mean) ** 2) @ dist))
    assert abs(got["value"] - mean) < 4 * sd / math.sqrt(800)
    coverage = dist[(support >= got["judge_low"] - 1e-12)
                    & (support <= got["judge_high"] + 1e-12)].sum()
    assert 0.86 <= coverage <= 0.97
    # the query bootstrap interval is given beside it, around the value
    assert got["ci_low"] < got["value"] < got["ci_high"]


def test_one_judge_repeated_is_the_plain_report():
    run = pd.DataFrame({"query_id": ["a", "a", "b", "b"],
                        "doc_id": ["x", "y", "x", "z"],
                        "score": [2.0, 1.0, 2.0, 1.0]})
    qrels = pd.DataFrame({"query_id": ["a", "b", "b"], "doc_id": ["y", "x", "z"],
                          "relevance": [1.0, 2.0, 0.5]})
    plain = retrieval_report(run, qrels, metrics=["ndcg@2", "mrr"])
    same = qrels.assign(other=qrels["relevance"])
    got = retrieval_report(run, same, metrics=["ndcg@2", "mrr"],
                           judges=["relevance", "other"], n_draws=20)
    for name, value in plain.items():
        assert got[name] == {"value": pytest.approx(value, abs=1e-12),
                             "judge_low": pytest.approx(value, abs=1e-12),
                             "judge_high": pytest.approx(value, abs=1e-12)}


def test_a_bad_judge_column_is_refused():
    run = pd.DataFrame({"query_id": ["a"], "doc_id": ["x"], "score": [1.0]})
    qrels = pd.DataFrame({"query_id": ["a"], "doc_id": ["x"], "j1": [1.0],
                          "j2": [np.nan]})
    with pytest.raises(InvalidArgumentError, match="judges column 'j2' holds nan"):
        retrieval_report(run, qrels, metrics="mrr", judges=["j1", "j2"])
    with pytest.raises(InvalidArgumentError, match="judges has no column 'j3'"):
        retrieval_report(run, qrels, metrics="mrr", judges=["j1", "j3"])
