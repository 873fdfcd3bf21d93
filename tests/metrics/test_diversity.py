"""The diversity metrics (grades per intent) through every door.

Against brute force written from the definitions (tests/_reference.py:
every order of the tied items, every order of a group's items for the
exact ideal), against ndeval (pyndeval, ir_measures) where they install,
and through the report, the per-group frame, the accumulator, the scorers
and the chunked engine.
"""

import math
import warnings

import numpy as np
import pytest
import sklearn
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import GroupKFold, cross_validate

import sklearn_rankeval as rk
from sklearn_rankeval import (
    alpha_ndcg_score,
    d_sharp_ndcg_score,
    err_ia_score,
    intent_aware_score,
    nrbp_score,
    subtopic_recall_score,
)
from tests import _reference as ref


def make_intent_data(seed=0, n_groups=8, max_size=6, n_intents=3, n_grades=3,
                     n_levels=3, ties=True, unretrieved=True):
    """Shuffled long-layout rows with grades per intent (sparse), discrete
    scores (ties), some rows not retrieved (-inf), string group ids."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, max_size + 1, n_groups)
    groups = np.repeat(np.array([f"q{i}" for i in range(n_groups)]), sizes)
    n = groups.shape[0]
    grades = rng.integers(0, n_grades, (n, n_intents))
    grades = grades * (rng.random((n, n_intents)) < 0.45)
    scores = (rng.integers(0, n_levels, n).astype(float) if ties
              else rng.permutation(n).astype(float))
    if unretrieved:
        scores[rng.random(n) < 0.15] = -np.inf
    perm = rng.permutation(n)
    return grades[perm], scores[perm], groups[perm]


def _by_group(grades, scores, groups):
    out = {}
    for g in np.unique(groups):
        rows = groups == g
        out[g] = (grades[rows].tolist(), scores[rows].tolist())
    return out


def _defined(grades):
    return any(x > 0 for row in grades for x in row)


def _per_group(func, y_true, scores, groups, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return func(y_true, scores, groups=groups, average=None, **kw)


def _check(got, grades, scores, groups, reference):
    for value, (g, (gr, sc)) in zip(got, sorted(_by_group(grades, scores,
                                                          groups).items())):
        if _defined(gr):
            assert value == pytest.approx(reference(gr, sc), abs=1e-12), g
        else:
            assert math.isnan(value), g


CASCADES = [
    (alpha_ndcg_score, "log2", {}, 1.0),
    (err_ia_score, "reciprocal", {}, None),  # factor alpha
    (nrbp_score, "geometric", {"beta": 0.6}, None),
]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("func,discount,extra,_", CASCADES,
                         ids=["alpha_ndcg", "err_ia", "nrbp"])
@pytest.mark.parametrize("normalization",
                         ["exact", "greedy", "ideal-ideal", "none"])
def test_cascade_metrics_equal_brute_force(seed, func, discount, extra, _,
                                           normalization):
    y, s, g = make_intent_data(seed)
    alpha = [0.5, 0.3, 0.9][seed % 3]
    k = [None, 2, 3, 5][seed % 4]
    beta = extra.get("beta")
    got = _per_group(func, y, s, g, k=k, alpha=alpha,
                     normalization=normalization, **extra)

    def reference(gr, sc):
        value = ref.alpha_value_expected(gr, sc, alpha, discount, k, beta)
        if normalization == "none":
            factor = {"log2": 1.0, "reciprocal": alpha,
                      "geometric": 1 - (1 - alpha) * (beta or 0)}[discount]
            return factor * value
        ideal = {"exact": ref.alpha_ideal_exact, "greedy": ref.alpha_ideal_greedy,
                 "ideal-ideal": ref.alpha_ideal_ideal}[normalization](
            gr, alpha, discount, k, beta)
        return value / ideal

    _check(got, y, s, g, reference)


@pytest.mark.parametrize("seed", range(4))
def test_intent_weights_and_graded_gains_equal_brute_force(seed):
    y, s, g = make_intent_data(10 + seed, n_grades=4)
    rng = np.random.default_rng(seed)
    w = rng.random(3) + 0.05
    got = _per_group(alpha_ndcg_score, y, s, g, k=4, intent_weights=w)
    _check(got, y, s, g, lambda gr, sc: ref.alpha_value_expected(
        gr, sc, 0.5, "log2", 4, None, list(w))
        / ref.alpha_ideal_exact(gr, 0.5, "log2", 4, None, list(w)))
    # per-row weights, constant within each group: the group's vector
    per_group_w = {q: rng.random(3) + 0.05 for q in np.unique(g)}
    rows_w = np.array([per_group_w[q] for q in g])
    got = _per_group(nrbp_score, y, s, g, intent_weights=rows_w)
    for value, (q, (gr, sc)) in zip(got, sorted(_by_group(y, s, g).items())):
        if _defined(gr):
            want = (ref.alpha_value_expected(gr, sc, 0.5, "geometric", None, 0.5,
                                             list(per_group_w[q]))
                    / ref.alpha_ideal_exact(gr, 0.5, "geometric", None, 0.5,
                                            list(per_group_w[q])))
            assert value == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_binary_grades_read_every_positive_grade_as_one(seed):
    y, s, g = make_intent_data(20 + seed, n_grades=4)
    binary = (y > 0).astype(int)
    for func in (alpha_ndcg_score, err_ia_score, nrbp_score):
        np.testing.assert_allclose(
            _per_group(func, y, s, g, k=3, grades="binary"),
            _per_group(func, binary, s, g, k=3), rtol=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_subtopic_recall_and_d_sharp_equal_brute_force(seed):
    y, s, g = make_intent_data(30 + seed)
    k = [1, 2, 3, 4, 6][seed]
    _check(_per_group(subtopic_recall_score, y, s, g, k=k), y, s, g,
           lambda gr, sc: ref.subtopic_recall_expected(gr, sc, k))
    _check(_per_group(d_sharp_ndcg_score, y, s, g, k=k, gamma=0.3), y, s, g,
           lambda gr, sc: ref.d_sharp_ndcg(gr, sc, k, 0.3))


@pytest.mark.parametrize("metric,per_intent", [
    ("precision@3", lambda y, s: ref.precision_at_k(y, s, 3)),
    ("map", lambda y, s: ref.average_precision(y, s)),
    ("ndcg@4", lambda y, s: ref.ndcg_tie_averaged(y, s, 4)),
    ("err@5", lambda y, s: ref.err_expected(y, s, 5, max_grade=4)),
])
def test_intent_aware_equals_the_weighted_mean_of_each_intent(metric, per_intent):
    y, s, g = make_intent_data(40, n_groups=10)
    got = _per_group(intent_aware_score, y, s, g, metric=metric)
    _check(got, y, s, g, lambda gr, sc: ref.intent_aware(gr, sc, per_intent))
    w = [0.2, 0.5, 0.3]
    got = _per_group(intent_aware_score, y, s, g, metric=metric, intent_weights=w)
    _check(got, y, s, g, lambda gr, sc: ref.intent_aware(gr, sc, per_intent, w))


def test_intent_aware_k_is_the_cutoff_of_a_metric_named_without_one():
    y, s, g = make_intent_data(41)
    np.testing.assert_array_equal(
        _per_group(intent_aware_score, y, s, g, k=3),
        _per_group(intent_aware_score, y, s, g, metric="precision@3"))


def test_issue_example_exact_at_most_one_ndeval_1107():
    # d0 covers subtopics {2, 3}, d1 {0, 1}, d2 {1, 3}; the run d0, d1, d2
    y = [[0, 0, 1, 1], [1, 1, 0, 0], [0, 1, 0, 1]]
    s, docno = [3.0, 2.0, 1.0], ["d0", "d1", "d2"]
    exact = alpha_ndcg_score(y, s, groups=[0, 0, 0], k=2)
    assert exact <= 1.0
    best = max(ref.alpha_value_of_order([y[i] for i in order], [0.25] * 4, 0.5,
                                        "log2", 2)
               for order in [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0),
                             (2, 0, 1), (2, 1, 0)])
    run = ref.alpha_value_of_order(y, [0.25] * 4, 0.5, "log2", 2)
    assert exact == pytest.approx(run / best, abs=1e-12)
    # ndeval's greedy ideal (equal gains to the larger docno): 1.107
    ndeval = alpha_ndcg_score(y, s, groups=[0, 0, 0], k=2, convention="ndeval",
                              docno=docno)
    assert ndeval == pytest.approx(
        run / ref.alpha_ideal_greedy(y, 0.5, "log2", 2, docno=docno), abs=1e-12)
    assert round(ndeval, 3) == 1.107
    n_err = err_ia_score(y, s, groups=[0, 0, 0], k=2, convention="ndeval",
                         docno=docno)
    assert round(n_err, 3) == 1.091
    assert err_ia_score(y, s, groups=[0, 0, 0], k=2) <= 1.0


@pytest.mark.parametrize("seed", range(30))
def test_exact_never_exceeds_one_on_random_instances(seed):
    y, s, g = make_intent_data(100 + seed, n_groups=6, max_size=7, n_intents=4,
                               n_grades=2)
    for func in (alpha_ndcg_score, err_ia_score, nrbp_score):
        values = _per_group(func, y, s, g, k=[2, 3, 5, None][seed % 4])
        ok = ~np.isnan(values)
        assert np.all(values[ok] <= 1.0 + 1e-12)


def test_rows_in_any_order_and_relabelled_groups_give_the_same_values():
    y, s, g = make_intent_data(50)
    rng = np.random.default_rng(0)
    perm = rng.permutation(len(s))
    for func in (alpha_ndcg_score, err_ia_score, nrbp_score, d_sharp_ndcg_score):
        np.testing.assert_allclose(_per_group(func, y, s, g, k=3),
                                   _per_group(func, y[perm], s[perm], g[perm], k=3),
                                   rtol=1e-12)
    np.testing.assert_allclose(
        _per_group(subtopic_recall_score, y, s, g, k=2),
        _per_group(subtopic_recall_score, y[perm], 3 * s[perm] + 7, g[perm], k=2),
        rtol=1e-12)


# -- everywhere a metric goes ---------------------------------------------------
NAMES = ["alpha_ndcg@5", "err_ia@5", "nrbp", "intent_aware@3",
         "subtopic_recall@3", "d_sharp_ndcg@5", "alpha_nDCG(alpha=0.5)@10",
         "ERR_IA@20", "NRBP", "P_IA@10", "StRecall@10", "AP_IA"]


def _function_value(name, y, s, g):
    spec, options = rk._metrics._names.read_metric_name(name)
    kernel_options = {k: v for k, v in options.items() if k != "undefined"}
    if isinstance(kernel_options.get("metric"), tuple):
        kernel_options["metric"] = kernel_options["metric"][0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return spec.func(y, s, groups=g, undefined=options.get("undefined"),
                         **kernel_options)


def test_report_per_group_frame_and_accumulator_equal_the_functions():
    y, s, g = make_intent_data(60, n_groups=12)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = rk.ranking_report(y, s, groups=g, metrics=NAMES, output_dict=True)
        frame = rk.per_group_scores(y, s, groups=g, metrics=NAMES)
    for name in NAMES:
        want = _function_value(name, y, s, g)
        assert report[name] == pytest.approx(want, abs=1e-12), name
        values = frame[name].to_numpy(float)
        # (the ir_measures names count a group without a relevant item 0)
        assert np.mean(np.nan_to_num(values)) == pytest.approx(want, abs=1e-12) \
            or np.nanmean(values) == pytest.approx(want, abs=1e-12), name
    acc = rk.RankingAccumulator(metrics=NAMES[:6])
    half = np.isin(g, np.unique(g)[:6])
    for rows in (half, ~half):
        acc.update(y[rows], s[rows], groups=g[rows])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = acc.result()
    for name in NAMES[:6]:
        assert result[name] == pytest.approx(report[name], abs=1e-12), name


def test_chunked_engine_gives_the_same_values():
    y, s, g = make_intent_data(61, n_groups=20)
    whole = {f.__name__: _per_group(f, y, s, g, k=3)
             for f in (alpha_ndcg_score, err_ia_score, nrbp_score,
                       subtopic_recall_score, d_sharp_ndcg_score,
                       intent_aware_score)}
    with rk.config_context(working_memory=0.0005):
        for f in (alpha_ndcg_score, err_ia_score, nrbp_score,
                  subtopic_recall_score, d_sharp_ndcg_score, intent_aware_score):
            np.testing.assert_allclose(_per_group(f, y, s, g, k=3),
                                       whole[f.__name__], rtol=1e-12)


class _MaxGradeRegressor(BaseEstimator, RegressorMixin):
    """A linear model of each row's largest grade (y: grades per intent)."""

    def fit(self, X, y):
        self.model_ = LinearRegression().fit(X, np.asarray(y).max(axis=1))
        return self

    def predict(self, X):
        return self.model_.predict(X)


def test_scorer_equals_the_metric_on_each_fold():
    y, s, g = make_intent_data(62, n_groups=12, ties=False, unretrieved=False)
    rng = np.random.default_rng(0)
    X = np.column_stack([s, rng.random(len(s))])
    cv = GroupKFold(3)
    with sklearn.config_context(enable_metadata_routing=True), \
            warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scorer = rk.get_scorer("alpha_ndcg@5")
        got = cross_validate(_MaxGradeRegressor(), X, y, cv=cv, scoring=scorer,
                             params={"groups": g})["test_score"]
        want = []
        for train, test in cv.split(X, y, g):
            est = _MaxGradeRegressor().fit(X[train], y[train])
            want.append(alpha_ndcg_score(y[test], est.predict(X[test]),
                                         groups=g[test], k=5))
    np.testing.assert_allclose(got, want, rtol=1e-12)


# -- bad input ------------------------------------------------------------------
def test_bad_input_names_the_argument():
    y = np.array([[1, 0], [0, 1], [1, 1]])
    s, g = np.array([0.3, 0.2, 0.1]), np.array([0, 0, 1])
    with pytest.raises(ValueError, match="y_true"):
        alpha_ndcg_score(y[:2], s, groups=g)  # one row of grades too few
    with pytest.raises(ValueError, match="y_true"):
        alpha_ndcg_score(np.array([[1, -1], [0, 1], [1, 1]]), s, groups=g)
    with pytest.raises(ValueError, match="intent_weights"):
        alpha_ndcg_score(y, s, groups=g, intent_weights=[0.5, -0.5])
    with pytest.raises(ValueError, match="intent_weights"):
        alpha_ndcg_score(y, s, groups=g, intent_weights=[1.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="intent_weights"):
        alpha_ndcg_score(y, s, groups=g, intent_weights=[[1, 0], [0, 1], [1, 1]])
    with pytest.raises(ValueError, match="intent_weights"):
        alpha_ndcg_score(y, s, groups=g, k=2, intent_weights=[1, 1],
                         convention="ndeval", docno=["a", "b", "c"])
    with pytest.raises(ValueError, match="alpha"):
        alpha_ndcg_score(y, s, groups=g, alpha=1.5)
    with pytest.raises(ValueError, match="beta"):
        nrbp_score(y, s, groups=g, beta=1.0)
    with pytest.raises(ValueError, match="gamma"):
        d_sharp_ndcg_score(y, s, groups=g, gamma=-0.1)
    with pytest.raises(ValueError, match="normalization"):
        alpha_ndcg_score(y, s, groups=g, normalization="ideal")
    with pytest.raises(ValueError, match="metric"):
        intent_aware_score(y, s, groups=g, metric="gauc")
    with pytest.raises(ValueError, match="k"):
        subtopic_recall_score(y, s, groups=g, k=0)
    with pytest.raises(ValueError, match="20"):
        alpha_ndcg_score(y, s, groups=g, k=25, convention="ndeval",
                         docno=["a", "b", "c"])


def test_one_dimensional_y_true_is_one_intent():
    # one intent: alpha-nDCG of 0/1 relevance with alpha = 0 is the NDCG
    y, s, g = np.array([1, 0, 1, 1, 0]), np.array([0.9, 0.8, 0.3, 0.5, 0.1]), \
        np.array([0, 0, 0, 1, 1])
    np.testing.assert_allclose(
        _per_group(alpha_ndcg_score, y, s, g, alpha=0.0),
        _per_group(rk.ndcg_score, y, s, g), rtol=1e-12)
    np.testing.assert_allclose(
        _per_group(alpha_ndcg_score, y, s, g, alpha=0.0),
        _per_group(alpha_ndcg_score, y[:, None], s, g, alpha=0.0), rtol=1e-12)


# -- peers: ndeval (pyndeval 0.0.8, ir_measures 0.4.3) ------------------------------
def _ndeval_data(seed):
    y, s, g = make_intent_data(200 + seed, n_groups=6, max_size=12, n_intents=4,
                               n_grades=2, ties=False)
    docno = np.array([f"d{j:03d}" for j in range(len(s))])
    return (y > 0).astype(int), s, g, docno


def _pyndeval_values(y, s, g, docno, measures, alpha=0.5, beta=0.5):
    pyndeval = pytest.importorskip("pyndeval", reason="the ndeval oracle (pyndeval)")
    # (pyndeval reads a query's run records as one consecutive run: sorted)
    qrels = sorted((str(q), str(i), str(d), 1) for q, d, row in zip(g, docno, y)
                   for i in range(y.shape[1]) if row[i] > 0)
    run = sorted((str(q), str(d), float(x)) for q, d, x in zip(g, docno, s)
                 if x != -np.inf)
    return pyndeval.ndeval(qrels, run, measures=measures, alpha=alpha, beta=beta)


@pytest.mark.parametrize("seed", range(5))
def test_convention_ndeval_equals_pyndeval(seed):
    y, s, g, docno = _ndeval_data(seed)
    k = [2, 3, 5, 10, 20][seed]
    alpha = [0.5, 0.3, 0.7, 0.5, 0.9][seed]
    measures = [f"alpha-nDCG@{k}", f"nERR-IA@{k}", f"alpha-DCG@{k}",
                f"ERR-IA@{k}", "NRBP", "nNRBP", f"P-IA@{k}", f"strec@{k}",
                "MAP-IA"]
    peer = _pyndeval_values(y, s, g, docno, measures, alpha=alpha)
    kw = dict(groups=g, convention="ndeval", docno=docno, average=None)
    ours = {
        f"alpha-nDCG@{k}": alpha_ndcg_score(y, s, k=k, alpha=alpha, **kw),
        f"nERR-IA@{k}": err_ia_score(y, s, k=k, alpha=alpha, **kw),
        f"alpha-DCG@{k}": alpha_ndcg_score(y, s, k=k, alpha=alpha,
                                           normalization="ideal-ideal", **kw),
        f"ERR-IA@{k}": err_ia_score(y, s, k=k, alpha=alpha,
                                    normalization="ideal-ideal", **kw),
        "NRBP": nrbp_score(y, s, alpha=alpha, normalization="none", **kw),
        "nNRBP": nrbp_score(y, s, alpha=alpha, **kw),
        f"P-IA@{k}": intent_aware_score(y, s, metric=f"precision@{k}", **kw),
        f"strec@{k}": subtopic_recall_score(y, s, k=k, **kw),
        "MAP-IA": intent_aware_score(y, s, metric="map", **kw),
    }
    for i, q in enumerate(np.unique(g)):
        if str(q) not in peer:  # no relevant item: not in ndeval's qrels
            continue
        for m in measures:
            assert ours[m][i] == pytest.approx(peer[str(q)][m], abs=1e-9), (q, m)


def test_convention_ndeval_refuses_its_undivided_rank_one():
    # ndeval's alpha-DCG@1 and ERR-IA@1 skip the normalisation of rank 1
    y, s, g, docno = _ndeval_data(3)
    peer = _pyndeval_values(y, s, g, docno, ["ERR-IA@1", "alpha-DCG@1"])
    assert max(v["ERR-IA@1"] for v in peer.values()) > 1  # intents covered
    with pytest.raises(ValueError, match="rank 2"):
        err_ia_score(y, s, groups=g, k=1, normalization="ideal-ideal",
                     convention="ndeval", docno=docno)


@pytest.mark.parametrize("seed", range(3))
def test_ir_measures_names_equal_ir_measures(seed):
    ir_measures = pytest.importorskip("ir_measures", reason="the ir_measures oracle")
    pytest.importorskip("pyndeval", reason="ir_measures' diversity provider")
    y, s, g, docno = _ndeval_data(10 + seed)
    names = ["alpha_nDCG(alpha=0.5)@10", "nERR_IA@5", "ERR_IA@20", "NRBP",
             "nNRBP", "P_IA@10", "StRecall@10", "AP_IA", "alpha_DCG@5"]
    qrels = [ir_measures.Qrel(str(q), str(d), 1, str(i)) for q, d, row in
             zip(g, docno, y) for i in range(y.shape[1]) if row[i] > 0]
    # (its pyndeval provider reads a query's records as one consecutive run:
    # on a run in row order it reports a query several times, wrongly)
    run = [ir_measures.ScoredDoc(q, d, x) for q, d, x in sorted(
        (str(q), str(d), float(x)) for q, d, x in zip(g, docno, s)
        if x != -np.inf)]
    peer = {}
    for m in ir_measures.iter_calc([ir_measures.parse_measure(n) for n in names],
                                   qrels, run):
        assert m.query_id not in peer.setdefault(str(m.measure), {})
        peer[str(m.measure)][m.query_id] = m.value
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frame = rk.per_group_scores(y, s, groups=g, metrics=names)
    for name in names:
        key = str(ir_measures.parse_measure(name))
        for q, value in peer[key].items():
            ours = frame.loc[frame.index.astype(str) == q, name].to_numpy()
            if len(ours) == 1:
                assert ours[0] == pytest.approx(value, abs=1e-9), (name, q)


def test_d_ndcg_part_equals_ntcireval_msndcg():
    metrics = pytest.importorskip("pyNTCIREVAL.metrics",
                                  reason="NTCIREVAL's nDCG (pyntcireval)")
    y, s, g = make_intent_data(70, n_groups=6, max_size=8, ties=False,
                               unretrieved=False)
    k = 5
    got = _per_group(d_sharp_ndcg_score, y, s, g, k=k, gamma=0.0)
    for value, (q, (gr, sc)) in zip(got, sorted(_by_group(y, s, g).items())):
        if not _defined(gr):
            continue
        w = ref.normalised_intent_weights(gr)
        gg = [sum(wi * x for wi, x in zip(w, row)) for row in gr]
        levels = sorted({x for x in gg if x > 0})
        level_of = {x: j + 1 for j, x in enumerate(levels)}
        xrelnum = [sum(1 for x in gg if x == 0)] + [
            sum(1 for x in gg if x == lv) for lv in levels]
        order = np.argsort(-np.asarray(sc), kind="stable")
        ranked = [(f"d{j}", level_of.get(gg[j], 0)) for j in order]
        peer = metrics.MSnDCG(xrelnum, levels, k).compute(ranked)
        assert value == pytest.approx(peer, abs=1e-12), q


def test_exact_says_where_its_search_stopped(monkeypatch):
    from sklearn_rankeval._metrics import _diversity_kernels as dk

    y, s, g = make_intent_data(80, n_groups=5, max_size=9, n_intents=4,
                               n_grades=2, ties=False)
    proven = alpha_ndcg_score(y, s, groups=g, k=5, average=None, undefined=0)
    monkeypatch.setattr(dk, "EXACT_NODE_BUDGET", 1)
    with pytest.warns(UserWarning, match="stopped at its budget of 1 nodes"):
        capped = alpha_ndcg_score(y, s, groups=g, k=5, average=None, undefined=0)
    greedy = alpha_ndcg_score(y, s, groups=g, k=5, average=None, undefined=0,
                              normalization="greedy")
    # the best order found is never below greedy, and no value exceeds 1
    assert np.all(capped <= np.maximum(greedy, 0) + 1e-12)
    assert np.all(capped >= proven - 1e-12) and np.all(capped <= 1 + 1e-12)
