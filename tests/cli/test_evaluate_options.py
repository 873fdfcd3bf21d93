"""``rankeval evaluate``'s ``--confidence``, ``--segment``, ``--weight`` and
svmlight / LETOR files: each option against :func:`ranking_report` (and the
metric functions) called on the file's arrays."""

import bz2
import csv
import gzip
import io
import json
import math

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose
from sklearn.datasets import dump_svmlight_file

from sklearn_rankeval import (
    mean_reciprocal_rank_score,
    ndcg_score,
    per_group_scores,
    ranking_report,
)
from sklearn_rankeval._cli import main

METRICS = ["gauc", "mrr", "ndcg@5", "map", "precision@3"]


def _data(seed=0, n_groups=30):
    """Graded labels, tied scores, one segment and one weight per group (the
    segments in an order that is not alphabetical)."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(2, 12, n_groups)
    ids = np.array([f"u{i:02d}" for i in range(n_groups)])
    groups = np.repeat(ids, sizes)
    y = rng.choice(3, size=groups.size, p=[0.6, 0.3, 0.1]).astype(float)
    score = np.round(rng.normal(size=groups.size), 1)
    segment = np.repeat(rng.choice(["medium", "light", "heavy"], n_groups), sizes)
    weight = np.repeat(rng.integers(1, 4, n_groups).astype(float), sizes)
    perm = rng.permutation(groups.size)
    return {"group": groups[perm], "label": y[perm], "score": score[perm],
            "segment": segment[perm], "weight": weight[perm]}


def _write(path, data):
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["q", "rel", "s", "seg", "w"])
        writer.writerows(zip(data["group"], [f"{v:g}" for v in data["label"]],
                             [repr(float(v)) for v in data["score"]],
                             data["segment"], [f"{v:g}" for v in data["weight"]]))
    return path


def _run(capsys, *args):
    status = main(["evaluate", *map(str, args)])
    out, err = capsys.readouterr()
    return status, out, err


def _table_args(path, *extra):
    return [path, "--group", "q", "--label", "rel", "--score", "s",
            *(a for m in METRICS for a in ("-m", m)), *extra]


def _json(capsys, *args):
    status, out, err = _run(capsys, *args, "--format", "json")
    assert status == 0, err
    return json.loads(out)


def _nan_as_none(doc):
    if isinstance(doc, dict):
        return {k: _nan_as_none(v) for k, v in doc.items()}
    return None if isinstance(doc, float) and math.isnan(doc) else doc


def _report(data, **kwargs):
    return ranking_report(data["label"], data["score"], groups=data["group"],
                          metrics=METRICS, **kwargs)


# ---------------------------------------------------------------------------
# --confidence, --n-resamples, --random-state
# ---------------------------------------------------------------------------
def test_confidence_json_table_and_csv_equal_ranking_report(tmp_path, capsys):
    data = _data()
    path = _write(tmp_path / "p.csv", data)
    options = ["--confidence", "0.9", "--n-resamples", "200",
               "--random-state", "7"]
    kwargs = dict(confidence=0.9, n_resamples=200, random_state=7)
    doc = _json(capsys, *_table_args(path, *options))
    assert doc["metrics"] == _nan_as_none(_report(data, output="dict", **kwargs))
    assert doc["n_rows"] == data["label"].size and doc["n_groups"] == 30
    # the intervals are intervals: they move with the seed and the level
    other = _json(capsys, *_table_args(path, "--confidence", "0.9",
                                       "--n-resamples", "200", "--seed", "8"))
    assert other["metrics"] != doc["metrics"]
    assert other["metrics"] == _nan_as_none(
        _report(data, output="dict", confidence=0.9, n_resamples=200,
                random_state=8))
    status, out, _ = _run(capsys, *_table_args(path, *options, "--digits", "3"))
    assert status == 0
    expected = _report(data, output="text", digits=3, **kwargs)
    assert out.splitlines()[1:] == expected.splitlines()
    status, out, _ = _run(capsys, *_table_args(path, *options, "--format", "csv"))
    got = pd.read_csv(io.StringIO(out))
    pd.testing.assert_frame_equal(got, _report(data, output="frame", **kwargs),
                                  check_dtype=False)


def test_confidence_default_seed_is_reproducible(tmp_path, capsys):
    data = _data(1)
    path = _write(tmp_path / "p.csv", data)
    first = _json(capsys, *_table_args(path, "--confidence", "0.95"))
    assert first == _json(capsys, *_table_args(path, "--confidence", "0.95"))
    assert first["metrics"] == _nan_as_none(_report(
        data, output="dict", confidence=0.95, n_resamples=1000, random_state=0))


# ---------------------------------------------------------------------------
# --segment
# ---------------------------------------------------------------------------
def test_segment_equals_ranking_report_segments(tmp_path, capsys):
    data = _data(2)
    path = _write(tmp_path / "p.csv", data)
    doc = _json(capsys, *_table_args(path, "--segment", "seg"))
    expected = _report(data, output="dict", segments=data["segment"])
    assert doc["metrics"] == _nan_as_none(expected)
    # each segment's values: the metric of that segment's rows alone
    rows = data["segment"] == "light"
    assert doc["metrics"]["light"]["mrr"] == mean_reciprocal_rank_score(
        data["label"][rows], data["score"][rows], groups=data["group"][rows])
    status, out, _ = _run(capsys, *_table_args(path, "--segment", "seg",
                                               "--confidence", "0.8"))
    expected = _report(data, output="text", segments=data["segment"],
                       confidence=0.8, n_resamples=1000, random_state=0)
    assert status == 0 and out.splitlines()[1:] == expected.splitlines()


def test_segment_not_constant_in_a_group_names_the_column(tmp_path, capsys):
    data = _data(3)
    data["segment"][np.flatnonzero(data["group"] == "u05")[0]] = "other"
    path = _write(tmp_path / "p.csv", data)
    status, out, err = _run(capsys, *_table_args(path, "--segment", "seg"))
    assert status == 2 and out == ""
    assert f"{path}" in err and "'seg' (--segment)" in err
    assert "Traceback" not in err


# ---------------------------------------------------------------------------
# --weight
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("group_rows", ["any", "sorted"])
def test_weight_equals_sample_weight(tmp_path, capsys, group_rows):
    data = _data(4)
    if group_rows == "sorted":
        order = np.argsort(data["group"], kind="stable")
        data = {k: v[order] for k, v in data.items()}
    path = _write(tmp_path / "p.csv", data)
    doc = _json(capsys, *_table_args(path, "--weight", "w", "--group-rows",
                                     group_rows, "--chunk-rows", "17"))
    expected = _report(data, output="dict", sample_weight=data["weight"])
    for name in METRICS:
        assert doc["metrics"][name] == pytest.approx(expected[name], rel=1e-12)
    # integer query weights = the query repeated (the definition, not the code)
    reps = data["weight"].astype(int)
    copies = np.concatenate([np.arange(r) for r in reps])
    rows = np.repeat(np.arange(reps.size), reps)
    repeated_groups = np.char.add(data["group"][rows], copies.astype(str))
    assert doc["metrics"]["ndcg@5"] == pytest.approx(ndcg_score(
        data["label"][rows], data["score"][rows], groups=repeated_groups, k=5),
        rel=1e-12)


def test_weight_per_group_and_with_confidence(tmp_path, capsys):
    data = _data(5)
    path = _write(tmp_path / "p.csv", data)
    doc = _json(capsys, *_table_args(path, "--weight", "w", "--per-group"))
    expected = per_group_scores(data["label"], data["score"], groups=data["group"],
                                metrics=METRICS, sample_weight=data["weight"],
                                output="dict")
    assert [r["group"] for r in doc["per_group"]] == list(expected["group"])
    for name in METRICS:
        got = np.array([np.nan if r[name] is None else r[name]
                        for r in doc["per_group"]], dtype=float)
        assert_allclose(got, expected[name], rtol=1e-12, equal_nan=True)
    doc = _json(capsys, *_table_args(path, "--weight", "w", "--confidence",
                                     "0.9", "--segment", "seg"))
    assert doc["metrics"] == _nan_as_none(_report(
        data, output="dict", sample_weight=data["weight"], confidence=0.9,
        n_resamples=1000, random_state=0, segments=data["segment"]))


def test_bad_weight_names_the_column_and_line(tmp_path, capsys):
    data = _data(6)
    data["weight"][4] = -1.0
    path = _write(tmp_path / "p.csv", data)
    status, out, err = _run(capsys, *_table_args(path, "--weight", "w"))
    assert status == 2 and out == ""
    assert f"{path}: column 'w' (--weight): sample_weight must be " \
        "non-negative" in err


# ---------------------------------------------------------------------------
# svmlight / LETOR files
# ---------------------------------------------------------------------------
def _svmlight(tmp_path, data, name="train.svm"):
    """The data as a LETOR file (sorted by qid, as such files are) written by
    scikit-learn's writer, and the scores as one number per line."""
    qid = np.array([int(g[1:]) + 1 for g in data["group"]])
    order = np.argsort(qid, kind="stable")
    rng = np.random.default_rng(0)
    X = rng.random((qid.size, 5))
    path = tmp_path / name
    opener = gzip.open if name.endswith(".gz") else bz2.open if \
        name.endswith(".bz2") else open
    with opener(path, "wb") as f:
        dump_svmlight_file(X[order], data["label"][order], f, query_id=qid[order],
                           zero_based=False)
    return path, qid[order], data["label"][order], data["score"][order]


@pytest.mark.parametrize("name", ["train.svm", "fold1.txt", "a.svm.gz",
                                  "a.txt.bz2"])
def test_svmlight_equals_the_functions(tmp_path, capsys, name):
    data = _data(7)
    path, qid, y, score = _svmlight(tmp_path, data, name)
    scores = tmp_path / "scores.txt"
    np.savetxt(scores, score, fmt="%.17g")
    fmt = [] if name == "train.svm" else ["--input-format", "svmlight"]
    doc = _json(capsys, path, "--score-file", scores, *fmt,
                *(a for m in METRICS for a in ("-m", m)))
    assert doc["metrics"] == _nan_as_none(ranking_report(
        y, score, groups=qid, metrics=METRICS, output="dict"))
    assert doc["metrics"]["ndcg@5"] == ndcg_score(y, score, groups=qid, k=5)
    assert doc["n_rows"] == y.size and doc["n_groups"] == 30


def test_svmlight_ranklib_score_file_confidence_and_per_group(tmp_path, capsys):
    data = _data(8)
    path, qid, y, score = _svmlight(tmp_path, data)
    # RankLib's -score output: qid, index of the document in its query, score
    within = np.concatenate([np.arange(n) for n in np.unique(qid,
                                                             return_counts=True)[1]])
    scores = tmp_path / "ranklib.txt"
    scores.write_text("".join(f"{q}\t{i}\t{float(s)!r}\n"
                              for q, i, s in zip(qid, within, score)))
    doc = _json(capsys, path, "--score-file", scores, "-m", "mrr", "-m", "map",
                "--confidence", "0.9", "--per-group")
    assert doc["metrics"] == ranking_report(
        y, score, groups=qid, metrics=["mrr", "map"], confidence=0.9,
        n_resamples=1000, random_state=0, output="dict")
    expected = per_group_scores(y, score, groups=qid, metrics=["mrr", "map"],
                                output="dict")
    assert [r["group"] for r in doc["per_group"]] == list(expected["group"])
    assert [r["mrr"] for r in doc["per_group"]] == [
        None if math.isnan(v) else v for v in expected["mrr"]]


@pytest.mark.parametrize("case, problem", [
    ("no score file", "a svmlight file has no scores: pass --score-file"),
    ("a column option", "--group: a svmlight file has no columns"),
    ("short score file", "scores.txt: 3 scores for the 4 rows"),
    ("not a number", "scores.txt, row 2: score 'abc' is not a number"),
    ("no qid", "train.svm: 1 of 4 lines have no qid:"),
    ("bad label", "train.svm: not a svmlight file"),
    ("empty", "train.svm: empty file (no rows)"),
    ("missing score file", "none.txt: cannot be read"),
    ("score file on a table", "--score-file is for svmlight files"),
])
def test_svmlight_errors_exit_2(tmp_path, capsys, case, problem):
    svm = tmp_path / "train.svm"
    svm.write_text({"no qid": "1 qid:1 1:0.5\n0 qid:1 1:0.1\n1 2:0.3\n"
                              "0 qid:2 1:0.2\n",
                    "bad label": "x qid:1 1:0.5\n",
                    "empty": ""}.get(case, "1 qid:1 1:0.5\n0 qid:1 1:0.1\n"
                                           "1 qid:2 1:0.3\n0 qid:2 1:0.2\n"))
    scores = tmp_path / "scores.txt"
    scores.write_text({"short score file": "1\n2\n3\n",
                       "not a number": "1\nabc\n3\n4\n"}.get(case,
                                                            "1\n2\n3\n4\n"))
    args = [svm, "--score-file", scores]
    if case == "no score file":
        args = [svm]
    elif case == "a column option":
        args += ["--group", "q"]
    elif case == "missing score file":
        args = [svm, "--score-file", tmp_path / "none.txt"]
    elif case == "score file on a table":
        args = _table_args(tmp_path / "p.csv", "--score-file", scores)
    status, out, err = _run(capsys, *args)
    assert status == 2 and out == "", err
    assert problem in err and "Traceback" not in err


# ---------------------------------------------------------------------------
# options that do not go together
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("extra, problem", [
    (["--confidence", "0.9", "--group-rows", "sorted"],
     "--confidence needs every row at once: --group-rows any"),
    (["--segment", "seg", "--engine", "dask"],
     "--segment is not available with --engine"),
    (["--weight", "w", "--engine", "spark"],
     "--weight is not available with --engine"),
    (["--confidence", "0.9", "-m", "f_alpha", "--threshold", "0.5"],
     "metric 'f_alpha' is not available with --confidence"),
    (["--confidence", "1.5"], "argument --confidence: '1.5' is not in (0, 1)"),
    (["--confidence", "0.9", "--n-resamples", "0"],
     "argument --n-resamples: '0' is less than 1"),
])
def test_options_that_do_not_go_together_exit_2(tmp_path, capsys, extra,
                                                problem):
    path = _write(tmp_path / "p.csv", _data(9))
    status, out, err = _run(capsys, path, "--group", "q", "--label", "rel",
                            "--score", "s", *extra)
    assert status == 2 and out == ""
    assert problem in err


def test_weight_not_constant_in_a_group_names_the_column(tmp_path, capsys):
    data = _data(10)
    data["weight"][np.flatnonzero(data["group"] == "u03")[0]] += 1
    path = _write(tmp_path / "p.csv", data)
    for extra in ([], ["--confidence", "0.9"]):
        status, out, err = _run(capsys, *_table_args(path, "--weight", "w",
                                                     *extra))
        assert status == 2 and out == ""
        assert f"{path}: column 'w' (--weight): sample_weight must be constant" \
            in err


@pytest.mark.parametrize("svm, scores, metric, problem", [
    ("-1 qid:1 1:0.8\n0 qid:1 1:0.3\n", "1\n2\n", "mrr",
     "train.svm, row 1: the label field (first of each line) must be >= 0"),
    ("1 qid:1 1:0.8\n0 qid:1 1:0.3\n", "inf\n2\n", "mrr",
     "train.svm, row 1: the score file {scores} (--score-file) contains +inf"),
    ("1 qid:1 1:0.8\n0 qid:1 1:0.3\n", "1\n2\n", "ne",
     "the score file {scores} (--score-file) must hold probabilities"),
])
def test_svmlight_bad_values_name_labels_or_score_file(tmp_path, capsys, svm,
                                                      scores, metric, problem):
    (tmp_path / "train.svm").write_text(svm)
    (tmp_path / "scores.txt").write_text(scores)
    status, out, err = _run(capsys, tmp_path / "train.svm", "--score-file",
                            tmp_path / "scores.txt", "-m", metric)
    assert status == 2 and out == ""
    assert problem.format(scores=tmp_path / "scores.txt") in err
    assert "y_true" not in err and "y_score" not in err
