"""The same request, the same number, from every door (API.md, wave 5).

Every registry metric is computed on one click log through each entry
point -- the metric function, ``ranking_report``, ``per_group_scores``, the
accumulator (two batches of whole groups), the scorer (under metadata
routing), the command line on a CSV file, a Dask partition, and the display
where the metric has one -- with the labels written as 0/1, booleans, -1/1
and two strings with ``pos_label``, the group ids as strings and as a
Categorical; the values must be equal, and a bad input must be refused with
the same words everywhere (the argument's own name aside).

The expected values come from the metric function, whose own values are
checked against scikit-learn, trec_eval and brute-force references in
tests/metrics; here the claim is that no door computes anything else.
"""

import json
import warnings

import numpy as np
import pytest
import sklearn
from sklearn.base import BaseEstimator, ClassifierMixin

from sklearn_rankeval import (
    GroupedRocCurveDisplay,
    RankingAccumulator,
    get_scorer,
    get_scorer_names,
    ndcg_score,
    per_group_scores,
    ranking_report,
)
from sklearn_rankeval._cli import main
from sklearn_rankeval._metrics._registry import METRICS

RTOL = 1e-12


def _name(spec):
    """The metric's name as every door writes it (a cutoff of 3 if it has one)."""
    if spec.has_k:
        return f"{spec.name}@3"
    return spec.name


#: Every metric of rows the report and the scorer name, with its function.
DOOR_METRICS = [spec for spec in METRICS.values() if spec.kind == "ranking"]


def _log(seed=0, n_groups=40):
    """A click log: 0/1 clicks, probabilities with ties, string user ids,
    a per-user weight (constant within a user: every metric accepts it)."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 9, n_groups)
    users = np.repeat([f"u{i:03d}" for i in range(n_groups)], sizes)
    y = (rng.random(users.size) < 0.3).astype(np.int64)
    s = np.round(rng.random(users.size), 1)  # ties
    w = np.repeat(rng.integers(1, 4, n_groups).astype(float), sizes)
    order = rng.permutation(users.size)  # rows in any order
    return y[order], s[order], users[order], w[order]


def _labels(y):
    """The same clicks, written as every reader must read them: ``(y_true,
    pos_label)`` pairs."""
    return {
        "0/1": (y, None),
        "bool": (y.astype(bool), None),
        "-1/1": (np.where(y > 0, 1, -1), None),
        "strings": (np.where(y > 0, "click", "skip"), "click"),
    }


def _quiet(func, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return func(*args, **kwargs)


def _function(spec, y, s, g, w=None, pos_label=None, **kw):
    """The metric function's value (the options the name sets: k=3)."""
    options = {"k": 3} if spec.has_k else {}
    extra = {} if pos_label is None else {"pos_label": pos_label}
    if pos_label is not None and "pos_label" not in _params(spec):
        y = (np.asarray(y) == pos_label).astype(np.int64)  # read by the caller
        extra = {}
    return _quiet(spec.func, y, s, groups=g, sample_weight=w, **options, **extra,
                  **kw)


def _params(spec):
    import inspect
    return inspect.signature(spec.func).parameters


@pytest.fixture(scope="module")
def log():
    return _log()


@pytest.mark.parametrize("labels", ["0/1", "bool", "-1/1", "strings"])
@pytest.mark.parametrize("spec", DOOR_METRICS, ids=_name)
def test_every_door_gives_the_functions_value(spec, labels, log):
    y, s, g, w = log
    name = _name(spec)
    y_in, pos_label = _labels(y)[labels]
    expected = _function(spec, y, s, g, w)
    # the function itself, fed any spelling of the labels
    if pos_label is None or "pos_label" in _params(spec):
        got = _function(spec, y_in, s, g, w, pos_label=pos_label)
        np.testing.assert_allclose(got, expected, rtol=RTOL, equal_nan=True)
    # the report and the per-group frame
    report = _quiet(ranking_report, y_in, s, groups=g, sample_weight=w,
                    metrics=[name], output="dict", pos_label=pos_label)
    np.testing.assert_allclose(report[name], expected, rtol=RTOL, equal_nan=True)
    frame = _quiet(per_group_scores, y_in, s, groups=g, sample_weight=w,
                   metrics=[name], output="dict", pos_label=pos_label)
    np.testing.assert_allclose(frame[name], _function(spec, y, s, g, w, average=None),
                               rtol=RTOL, equal_nan=True)
    # the accumulator, two batches of whole groups
    acc = RankingAccumulator([name], pos_label=pos_label)
    first = np.isin(g, np.unique(g)[::2])
    for part in (first, ~first):
        _quiet(acc.update, y_in[part], s[part], groups=g[part], sample_weight=w[part])
    np.testing.assert_allclose(_quiet(acc.result)[name], expected, rtol=RTOL,
                               equal_nan=True)


@pytest.mark.parametrize("spec", DOOR_METRICS, ids=_name)
def test_categorical_and_string_ids_are_one_encoding(spec, log):
    pd = pytest.importorskip("pandas")
    y, s, g, w = log
    expected = _function(spec, y, s, g, w, average=None)
    cats = pd.Categorical(g, categories=np.random.default_rng(1).permutation(
        np.unique(g)))
    for ids in (cats, pd.Series(g, dtype="string"), g.astype(object)):
        np.testing.assert_allclose(_function(spec, y, s, ids, w, average=None),
                                   expected, rtol=RTOL, equal_nan=True)


class _Fixed(ClassifierMixin, BaseEstimator):
    """An estimator whose probabilities are given: X holds the row index."""

    def __init__(self, proba=None):
        self.proba = proba

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict_proba(self, X):
        p = np.asarray(self.proba)[np.asarray(X)[:, 0].astype(int)]
        return np.column_stack([1 - p, p])

    def predict(self, X):
        return (self.predict_proba(X)[:, 1] >= 0.5).astype(int)


@pytest.mark.parametrize("spec", [s for s in DOOR_METRICS if s.scorer], ids=_name)
def test_the_scorer_gives_the_functions_value(spec, log):
    y, s, g, _ = log
    X = np.arange(y.size)[:, None]
    est = _Fixed(s).fit(X, y)
    name = _name(spec)
    loss = f"neg_{name}" in get_scorer_names()  # lower is better: negated
    with sklearn.config_context(enable_metadata_routing=True):
        got = _quiet(get_scorer(f"neg_{name}" if loss else name), est, X, y,
                     groups=g)
    expected = _function(spec, y, s, g)
    np.testing.assert_allclose(-got if loss else got, expected, rtol=RTOL,
                               equal_nan=True)


@pytest.mark.parametrize("labels", ["0/1", "-1/1"])
def test_the_command_line_gives_the_functions_value(tmp_path, capsys, log, labels):
    y, s, g, _ = log
    y_in, _ = _labels(y)[labels]
    path = tmp_path / "preds.csv"
    rows = ["user,click,proba"] + [f"{u},{c},{p}" for u, c, p in zip(g, y_in, s)]
    path.write_text("\n".join(rows) + "\n")
    names = [_name(spec) for spec in DOOR_METRICS]
    args = ["evaluate", str(path), "--group", "user", "--label", "click",
            "--score", "proba", "--format", "json"]
    for name in names:
        args += ["-m", name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(args) == 0
    doc = json.loads(capsys.readouterr().out)
    for spec, name in zip(DOOR_METRICS, names):
        got = doc["metrics"][name] if "metrics" in doc else doc[name]
        expected = _function(spec, y, s, g)
        np.testing.assert_allclose(np.nan if got is None else got, expected,
                                   rtol=1e-9, equal_nan=True, err_msg=name)


def test_a_dask_partition_gives_the_functions_value(log):
    pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    import dask
    import dask.dataframe as dd

    from sklearn_rankeval.dask import ranking_report as dask_report

    y, s, g, w = log
    frame = pd.DataFrame({"user": g, "click": np.where(y > 0, 1, -1), "proba": s,
                          "w": w})
    names = [_name(spec) for spec in DOOR_METRICS]
    with dask.config.set(scheduler="synchronous"):
        got = _quiet(dask_report, dd.from_pandas(frame, npartitions=3),
                     y_true="click", y_score="proba", groups="user",
                     sample_weight="w", metrics=names)
    for spec, name in zip(DOOR_METRICS, names):
        np.testing.assert_allclose(got[name], _function(spec, y, s, g, w),
                                   rtol=RTOL, equal_nan=True, err_msg=name)


@pytest.mark.parametrize("labels", ["0/1", "bool", "-1/1", "strings"])
def test_the_display_reads_labels_as_the_function(labels, log):
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    y, s, g, _ = log
    y_in, pos_label = _labels(y)[labels]
    disp = _quiet(GroupedRocCurveDisplay.from_predictions, y_in, s, groups=g,
                  pos_label=pos_label)
    assert disp.roc_auc == pytest.approx(_function(METRICS["gauc"], y, s, g),
                                         rel=RTOL)
    plt.close("all")


# ---------------------------------------------------------------------------
# the same refusal, worded the same, from every door
# ---------------------------------------------------------------------------
def _refusal(call):
    with pytest.raises((ValueError, TypeError)) as err:
        _quiet(call)
    return str(err.value)


BAD = {
    "NaN label": (lambda y: np.where(np.arange(y.size) == 1, np.nan, y),
                  "y_true contains NaN."),
    "negative grade": (lambda y: np.where(np.arange(y.size) == 1, -2, y),
                       "must be >= 0"),
    "short y_true": (lambda y: y[:-1], "inconsistent lengths"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_a_bad_input_gets_the_same_words_everywhere(case, log):
    y, s, g, _ = log
    make, words = BAD[case]
    bad = make(y)
    g_ok = g if bad.size == g.size else g[: bad.size]
    messages = {
        "function": _refusal(lambda: METRICS["mrr"].func(bad, s, groups=g)),
        "report": _refusal(lambda: ranking_report(bad, s, groups=g, metrics=["mrr"])),
        "frame": _refusal(lambda: per_group_scores(bad, s, groups=g, metrics=["mrr"])),
        "accumulator": _refusal(
            lambda: RankingAccumulator(["mrr"]).update(bad, s, groups=g_ok)),
    }
    assert all(words in m for m in messages.values()), messages
    assert len(set(messages.values())) == 1, messages


def test_pos_label_refusals_are_one_rule(log):
    y, s, g, _ = log
    labels = np.where(y > 0, "click", "skip")
    calls = {
        "function": lambda: METRICS["gauc"].func(labels, s, groups=g, pos_label="buy"),
        "report": lambda: ranking_report(labels, s, groups=g, metrics=["gauc"],
                                         pos_label="buy"),
        "display": lambda: GroupedRocCurveDisplay.from_predictions(
            labels, s, groups=g, pos_label="buy"),
    }
    pytest.importorskip("matplotlib")
    messages = {door: _refusal(call) for door, call in calls.items()}
    assert len(set(messages.values())) == 1, messages
    assert "pos_label='buy' is not a label of y_true (click, skip)" in messages["report"]
    # without pos_label, string labels are refused with the same advice
    for call in (lambda: METRICS["gauc"].func(labels, s, groups=g),
                 lambda: ranking_report(labels, s, groups=g, metrics=["gauc"])):
        assert "pass pos_label=" in _refusal(call)


# ---------------------------------------------------------------------------
# top-N lists: an adapter of the door (its rules, under the columns' names)
# ---------------------------------------------------------------------------
def _lists():
    pd = pytest.importorskip("pandas")
    rec = pd.DataFrame({"user": [1, 1, 1, 2, 2], "item": [1, 2, 3, 1, 4],
                        "score": [0.9, 0.5, 0.2, 0.7, 0.1]})
    held = pd.DataFrame({"user": [1, 1, 2, 2], "item": [2, 9, 4, 8],
                         "relevance": [2, 1, 3, 1]})  # items 9, 8: in no list
    return rec, held


def _door_problem(y_true, y_score):
    """The door's own words for a long-layout input (``ranking_report``)."""
    with pytest.raises((ValueError, TypeError)) as err:
        _quiet(lambda: ranking_report(y_true, y_score, metrics=["mrr"]))
    return str(err.value)


LIST_BAD = {
    # (column, values, the door's input with the same flaw, its argument)
    "NaN score": ("score", [0.9, np.nan, 0.2, 0.7, 0.1], "y_score"),
    "+inf score": ("score", [0.9, np.inf, 0.2, 0.7, 0.1], "y_score"),
    "text score": ("score", ["a", "b", "c", "d", "e"], "y_score"),
    "NaN gain": ("relevance", [2, 1, 3, np.nan], "y_true"),  # item 8: no list
    "negative gain": ("relevance", [2, 1, -1, 1], "y_true"),
    "-1/1 gains are not labels": ("relevance", [1, -1, 1, -1], "y_true"),
    "infinite gain": ("relevance", [2, np.inf, 3, 1], "y_true"),
}


@pytest.mark.parametrize("case", list(LIST_BAD))
def test_top_n_lists_are_refused_by_the_doors_rules(case):
    from sklearn_rankeval import recommendation_report

    rec, held = _lists()
    col, values, argument = LIST_BAD[case]
    frame, name = ((rec, "recommended['score']") if col == "score"
                   else (held, "held_out['relevance']"))
    bad = frame.assign(**{col: values})
    with pytest.raises((ValueError, TypeError)) as err:
        recommendation_report(bad if col == "score" else rec,
                              bad if col == "relevance" else held,
                              metrics=["ndcg@3"])
    got = str(err.value)
    assert got.startswith(f"{name} "), got
    # the door's words for the same flaw in y_score / y_true of its own
    column = bad[col].to_numpy()
    if case == "-1/1 gains are not labels":  # (the door's y_true would read
        column = np.append(column, 2)  # -1/1 as labels: a grade 2 beside)
    other = np.ones(column.shape[0])
    expected = (_door_problem(other, column) if argument == "y_score"
                else _door_problem(column, other))
    assert expected.startswith(f"{argument} "), expected
    assert got[len(name):] == expected[len(argument):]


def test_top_n_text_gains_are_not_labels():
    from sklearn_rankeval import recommendation_report

    rec, held = _lists()
    with pytest.raises(TypeError) as err:
        recommendation_report(rec, held.assign(relevance=list("abcd")),
                              metrics=["ndcg@3"])
    # gains are numbers: no pos_label advice (that is for labels)
    assert str(err.value) == ("held_out['relevance'] must contain numbers, got "
                              "dtype object.")


def test_top_n_gains_read_once_booleans_as_numbers():
    from sklearn_rankeval import recommendation_report

    rec, held = _lists()
    metrics = ["ndcg@3", "recall@3", "mrr@3"]
    binary = held.assign(relevance=[1, 0, 1, 1])
    want = recommendation_report(rec, binary, metrics=metrics, output="dict")
    got = recommendation_report(rec, binary.assign(relevance=binary.relevance > 0),
                                metrics=metrics, output="dict")
    assert got == want
    # the gains the report ranks, nDCG@3 written out per user: user 1's
    # item 2 (gain 1) at rank 2, item 9 gain 0: DCG 1/log2(3), ideal 1;
    # user 2's item 4 (gain 1) at rank 2, item 8 (gain 1) in no list: DCG
    # 1/log2(3), ideal 1 + 1/log2(3)
    dcg = 1.0 / np.log2(3)
    assert want["ndcg@3"] == pytest.approx((dcg / 1.0 + dcg / (1.0 + dcg)) / 2)


# ---------------------------------------------------------------------------
# scikit-learn's name in scikit-learn's layout: scikit-learn's value
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("k", [None, 1, 5])
@pytest.mark.parametrize("seed", range(5))
def test_ndcg_score_is_sklearns_on_rows_without_a_relevant_item(seed, k):
    from sklearn.metrics import ndcg_score as sklearn_ndcg

    rng = np.random.default_rng(seed)
    Y = (rng.random((60, 12)) < 0.05) * rng.integers(1, 4, (60, 12))
    S = np.round(rng.random((60, 12)), 1)
    assert (Y.sum(axis=1) == 0).any() and (Y.sum(axis=1) > 0).any()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # silent: it is scikit-learn's value
        got = ndcg_score(Y, S, k=k)
        report = ranking_report(Y, S, metrics=["ndcg" if k is None else f"ndcg@{k}"],
                                output="dict")
    assert got == pytest.approx(sklearn_ndcg(Y, S, k=k), rel=RTOL)
    assert list(report.values())[0] == pytest.approx(got, rel=RTOL)


def test_group_metric_without_groups_says_it_scores_one_group(log):
    y, s, _, _ = log
    for spec in DOOR_METRICS:
        if spec.pools_undefined:
            continue
        options = {"k": 3} if spec.has_k else {}
        with pytest.warns(UserWarning, match="called without groups: all the rows "
                                             "are scored as one group"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", sklearn.exceptions.UndefinedMetricWarning)
                spec.func(y, s, **options)


# ---------------------------------------------------------------------------
# the messages a new user met (issue 41, item 10)
# ---------------------------------------------------------------------------
def test_all_zero_sample_weight_says_so():
    with pytest.warns(sklearn.exceptions.UndefinedMetricWarning,
                      match="sample_weight is 0 for every row"):
        value = METRICS["gauc"].func([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4],
                                     groups=[1, 1, 2, 2], sample_weight=[0] * 4)
    assert np.isnan(value)


def test_nan_padding_of_ragged_rows_points_to_minus_inf():
    with pytest.raises(ValueError, match="y_score contains NaN. Rows of different "
                                         "lengths padded with NaN\\? Pad y_score "
                                         "with -inf"):
        ndcg_score([[1, 0, 0], [1, 0, 0]], [[0.2, 0.1, 0.3], [0.5, np.nan, np.nan]])
    # and -inf works: the padded items are never retrieved
    assert ndcg_score([[1, 0, 0], [1, 0, 0]],
                      [[0.2, 0.1, 0.3], [0.5, -np.inf, -np.inf]]) == pytest.approx(
        (1 / np.log2(3) + 1) / 2, rel=RTOL)


def test_tuple_group_ids_point_to_a_composite_key():
    with pytest.raises(ValueError, match="Tuple ids .* composite key"):
        METRICS["mrr"].func([1, 0, 0, 1], [0.2, 0.1, 0.3, 0.4],
                            groups=[(1, 2), (1, 2), (2, 3), (2, 3)])


def test_cli_messages_name_the_column_and_the_delimiter(tmp_path, capsys):
    tsv = tmp_path / "preds.csv"
    tsv.write_text("user\tclick\tproba\n1\t1\t0.5\n1\t0\t0.2\n")
    assert main(["evaluate", str(tsv), "--group", "user", "--label", "click",
                 "--score", "proba", "-m", "mrr"]) == 2
    assert "pass --delimiter '\\t'" in capsys.readouterr().err
    graded = tmp_path / "graded.csv"
    graded.write_text("user,click,proba\n1,2,0.5\n1,0,0.2\n")
    assert main(["evaluate", str(graded), "--group", "user", "--label", "click",
                 "--score", "proba", "-m", "RBP(p=0.8)"]) == 2
    err = capsys.readouterr().err
    assert "column 'click' (--label) holds grades other than 0 and 1" in err
    one = tmp_path / "one.csv"
    one.write_text("user,click,proba\n1,1,0.5\n1,0,0.2\n")
    assert main(["evaluate", str(one), "--group", "user", "--label", "click",
                 "--score", "proba", "-m", "mrr"]) == 0
    assert "2 rows, 1 group\n" in capsys.readouterr().out
