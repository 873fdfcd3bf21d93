"""Metric names as ir_measures writes them (``nDCG@10``, ``P(rel=2)@5``, ...).

Each name is read into a registry metric and options (a table written from
ir_measures' measure definitions and its pytrec_eval provider), accepted by
every entry point that takes a metric name, and gives ir_measures' number:

* by hand, from the definitions (trec_eval's: a query without a relevant
  item counts 0), on a collection small enough to write out;
* against brute-force references over every order of tied items, with the
  relevance threshold ``rel`` applied to the labels by the reference;
* against pytrec_eval invoked as ir_measures' provider invokes it
  (``relevance_level=rel``), and against ir_measures itself (its
  pytrec_eval, gdeval, msmarco, cwl_eval, trectools and judged providers)
  where it imports, on tie-free collections (trec_eval breaks ties by
  document id; this package takes the expected value over the tie orders).
"""

import json
import math
import shutil
import warnings
from fractions import Fraction

import numpy as np
import pytest
from numpy.testing import assert_allclose

from sklearn_rankeval import (
    RankingAccumulator,
    compare_rankings,
    get_scorer,
    get_scorer_names,
    per_group_scores,
    precision_at_k_score,
    ranking_report,
)
from sklearn_rankeval._cli import main
from sklearn_rankeval._metrics._names import (
    IR_MEASURES,
    IR_MEASURES_REFUSED,
    parse_metric_name,
    parse_metrics,
    read_metric_name,
)
from sklearn_rankeval._metrics._registry import METRICS
from tests import _reference as ref

RTOL = 1e-12
ZERO = {"undefined": 0.0}

# ==========================================================================
# every listed name -> (registry metric, options), from ir_measures'
# definitions: P/R/Success need a cutoff, AP@k is trec_eval's map_cut_k
# (divided by R), rel= is "relevance >= rel", RBP without rel= reads grades
# as gains (here: binary labels only), nDCG(dcg='exp-log2') is 2**rel - 1
# ==========================================================================
NAMES = {
    "nDCG": ("ndcg", {}),
    "nDCG@10": ("ndcg", {"k": 10}),
    "nDCG(dcg='exp-log2')@10": ("ndcg", {"k": 10, "gain": "exponential"}),
    "nDCG(dcg='log2', judged_only=False)@3": ("ndcg", {"k": 3}),
    "P@10": ("precision", {"k": 10}),
    "P(rel=2)@5": ("precision", {"k": 5, "rel": 2}),
    "P(cutoff=5)": ("precision", {"k": 5}),
    "P(rel = 2) @ 5": ("precision", {"k": 5, "rel": 2}),
    "R@100": ("recall", {"k": 100}),
    "Recall(rel=3)@20": ("recall", {"k": 20, "rel": 3}),
    "AP": ("map", {}),
    "AP@100": ("map", {"k": 100, "k_denominator": "relevant"}),
    "AP(rel=2)@10": ("map", {"k": 10, "k_denominator": "relevant", "rel": 2}),
    "RR": ("mrr", {}),
    "RR@10": ("mrr", {"k": 10}),
    "RR(rel=2)": ("mrr", {"rel": 2}),
    "Success@5": ("success", {"k": 5}),
    "Success(rel=2)@1": ("success", {"k": 1, "rel": 2}),
    "Rprec": ("r_precision", {}),
    "RPrec(rel=2)": ("r_precision", {"rel": 2}),
    "Bpref": ("bpref", {}),
    "BPref(rel=2)": ("bpref", {"rel": 2}),
    "ERR": ("err", {}),
    "ERR@20": ("err", {"k": 20}),
    "RBP(p=0.8)": ("rbp", {"p": 0.8, "rel": "binary"}),
    "RBP(p=0.5, rel=1)": ("rbp", {"p": 0.5, "rel": 1}),
    "RBP(rel=2)": ("rbp", {"rel": 2}),
}


@pytest.mark.parametrize("name", list(NAMES))
def test_every_listed_name_reads_as_ir_measures_defines_it(name):
    metric, options = NAMES[name]
    spec, got = read_metric_name(name)
    assert spec is METRICS[metric]
    assert got == {**options, **ZERO}
    assert parse_metric_name(name) == (spec, options.get("k"))
    (parsed_name, parsed_spec, checked), = parse_metrics([name])
    assert parsed_name == name and parsed_spec is spec
    # every option filled in, the name's own over the registry's defaults
    defaults = {n: d for n, d, _ in spec.options}
    assert checked == {**defaults, **options, **ZERO}


def test_the_table_covers_every_mapped_measure():
    # each measure of IR_MEASURES (and alias) appears in NAMES
    measures = {read_metric_name(n)[0].name for n in NAMES}
    assert measures == {metric for metric, _, _ in IR_MEASURES.values()}


# a spelling that differs from a canonical name only in letter case, where
# the canonical names it could mean give different values: refused, naming
# each meaning (API.md, wave 5)
CASE_VARIANTS = {
    "NDCG@10": ("'ndcg@10'", "'nDCG@10'"),
    "MAP@10": ("'map@10'", "'AP@10'"),
    "MAP": ("'map'", "'AP'"),
    "MRR": ("'mrr'", "'RR'"),
    "MRR@10": ("'mrr@10'", "'RR@10'"),
    "Precision@3": ("'precision@3'", "'P@3'"),
    "Recall@5": ("'recall@5'", "'R@5'"),
    "BPref": ("'bpref'", "'Bpref'"),
    "NDCG": ("'ndcg'", "'nDCG'"),
}


@pytest.mark.parametrize("name", list(CASE_VARIANTS))
def test_case_variants_are_refused_with_both_meanings(name):
    with pytest.raises(ValueError, match="differs only in letter case") as err:
        parse_metrics([name])
    for meaning in CASE_VARIANTS[name]:
        assert meaning in str(err.value)
    assert parse_metric_name(name) is None


def test_two_canonical_spellings_say_how_they_differ():
    # nDCG@10 (ir_measures) and ndcg@10 (ours) are both canonical; the
    # difference is in the name table, and the values differ exactly there:
    # a query without a relevant item counts 0 in ir_measures' name
    from sklearn_rankeval._metrics._names import IR_DIFFERENCES
    assert "counts 0" in IR_DIFFERENCES["nDCG"]
    assert "min(R, K)" in IR_DIFFERENCES["AP"]
    y = np.array([1, 0, 0, 0, 1, 0])
    s = np.array([0.9, 0.1, 0.5, 0.4, 0.3, 0.8])
    g = np.array([0, 0, 1, 1, 2, 2])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = ranking_report(y, s, groups=g, metrics=["ndcg@10"], output="dict")
    theirs = ranking_report(y, s, groups=g, metrics=["nDCG@10"], output="dict")
    # groups 0 and 2: NDCG 1 and 1/log2(3); group 1 has no relevant item
    per = [1.0, 1.0 / np.log2(3)]
    assert ours["ndcg@10"] == pytest.approx(np.mean(per), rel=1e-12)
    assert theirs["nDCG@10"] == pytest.approx(sum(per) / 3, rel=1e-12)


def test_our_names_keep_their_meaning():
    # lower case: this package's names, no switch; "map@10" is not "MAP@10"
    assert read_metric_name("map@10") == (METRICS["map"], {"k": 10})
    assert read_metric_name("ndcg") == (METRICS["ndcg"], {})
    (_, _, ours), = parse_metrics(["map@10"])
    (_, _, theirs), = parse_metrics(["AP@10"])
    assert ours["k_denominator"] == "min" and "undefined" not in ours
    assert theirs["k_denominator"] == "relevant" and theirs["undefined"] == 0.0
    for name in ("precision", "gauc@5", "foo@10", "Foo", "P(2)@5", "P(**x)@5",
                 "os.system('x')", "", "P@", "P(rel={[1]: 2})@5", "P@x",
                 "(" * 300 + ")" * 300):
        assert read_metric_name(name) is None, name
        assert parse_metric_name(name) is None, name


# ==========================================================================
# refused: the measure and the reason in the message, at every entry point
# ==========================================================================
REFUSED = {
    "Judged@10": "a judgment.*k_denominator='retrieved'",
    "Judged": "share of the top K",
    "IPrec@0.5": "interpolated_precision_recall_curve",
    "infAP": "pooled-but-unjudged",
    "NumQ": "a count",
    "NumRelRet": "a count",
    "SetP": "unranked set",
    "NERR8(max_rel=3)@10": "C/W/L",
    "nDCG(gains={0: 0, 1: 5})@10": "gain=",
    "nDCG(judged_only=True)@10": "judged_only=True",
    "nDCG(rel=2)@10": r"nDCG takes no rel=",
    "nDCG(dcg='ln')@10": "dcg must be",
    "RBP(p=0.8)@10": "RBP at a cutoff",
    "RBP(p=1.5)": r"p \(the persistence\)",
    "P(rel=0)@5": "rel must be a number > 0",
    "P(rel=True)@5": "rel must be a number > 0",
    "P(rel=2)": "needs a cutoff",
    "Success": "needs a cutoff",
    "Rprec@5": "has no cutoff",
    "P(cutoff=3)@5": "given twice",
    "P@2.5": "positive integer",
    "nDCG@0": "positive integer",
    "P@-1": "positive integer",
    "nDCG@'a'": "positive integer",
    "P": "needs a cutoff",
}


@pytest.mark.parametrize("name", list(REFUSED))
def test_refused_names_say_why(name, tmp_path, capsys):
    reason = REFUSED[name]
    with pytest.raises(ValueError, match=reason):
        read_metric_name(name)
    assert parse_metric_name(name) is None
    with pytest.raises(ValueError, match=rf"^metrics: ['\"].*{reason}"):
        ranking_report([1, 0], [1, 0], metrics=[name])
    with pytest.raises(ValueError, match=reason):
        get_scorer(name)
    path = tmp_path / "p.csv"
    path.write_text("query,relevance,prediction\na,1,0.9\na,0,0.2\n")
    status = main(["evaluate", str(path), "--group", "query", "--label",
                   "relevance", "--score", "prediction", "-m", name])
    err = capsys.readouterr().err
    assert status == 2 and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and name in err


def test_every_refused_measure_has_a_reason():
    for measure, reason in IR_MEASURES_REFUSED.items():
        with pytest.raises(ValueError, match=f"ir_measures' {measure}"):
            read_metric_name(f"{measure}@5")
        assert len(reason) > 20


def test_rbp_without_rel_refuses_grades():
    # ir_measures without rel= reads the grades as gains (graded RBP): on 0/1
    # labels it is this binary RBP, on grades it is refused, naming the fix
    y, s = [1, 0, 1], [3.0, 2.0, 1.0]
    assert ranking_report(y, s, metrics=["RBP(p=0.5)"], output="dict") == {
        "RBP(p=0.5)": 0.5 * (1 + 0.25)}
    with pytest.raises(ValueError, match=r"'RBP\(p=0.5\)'.*grades other than 0 "
                                         r"and 1.*'RBP\(rel=1\)'"):
        ranking_report([2, 0, 1], s, metrics=["RBP(p=0.5)"])
    # with a threshold, grades are fine: y >= 1 relevant
    assert ranking_report([2, 0, 1], s, metrics=["RBP(rel=1, p=0.5)"],
                          output="dict")["RBP(rel=1, p=0.5)"] == 0.5 * 1.25


def test_a_threshold_needs_grades():
    # multiclass input: the relevant item of a sample is its true class
    y = np.array([0, 1, 2])
    proba = np.array([[0.7, 0.2, 0.1], [0.1, 0.3, 0.6], [0.2, 0.5, 0.3]])
    with pytest.raises(ValueError, match="rel=.*multiclass"):
        ranking_report(y, proba, metrics=["P(rel=2)@1"])
    # without a threshold the name works on it (RR: 1, 1/2, 1/2)
    assert ranking_report(y, proba, metrics=["RR"], output="dict")["RR"] == \
        pytest.approx((1 + 0.5 + 0.5) / 3, rel=RTOL)


def test_unknown_names_suggest_the_closest():
    with pytest.raises(ValueError, match=r"'ndgc@10' is not a ranking metric "
                                         r"name; valid names are .* Did you mean "
                                         r"'ndcg@10'\?$"):
        ranking_report([1, 0], [1, 0], metrics=["ndgc@10"])
    with pytest.raises(ValueError, match="Did you mean 'success@5'"):
        ranking_report([1, 0], [1, 0], metrics=["Sucess@5"])
    with pytest.raises(ValueError, match=r"also ir_measures' names: nDCG@10"):
        get_scorer("xyzzy")


def test_scorer_names_list_this_packages_names_only():
    # ir_measures' names are other spellings, with any cutoff and threshold:
    # accepted, not listed
    names = get_scorer_names()
    assert "ndcg@10" in names and "nDCG@10" not in names and "AP" not in names


# ==========================================================================
# by hand, from the definitions
# ==========================================================================
# query "a": retrieved grades 2 0 1 0 3 (ranks 1-5) and a grade-1 item not
#            retrieved (R = 4 relevant at rel=1, 2 at rel=2, N = 2)
# query "b": nothing relevant: 0 for every ir_measures name (trec_eval)
HAND_Y = np.array([2, 0, 1, 0, 3, 1, 0, 0])
HAND_S = np.array([0.9, 0.8, 0.7, 0.6, 0.5, -np.inf, 0.9, 0.1])
HAND_G = np.array(["a"] * 6 + ["b"] * 2)
F = Fraction
_LOG = math.log2


def _ndcg3():
    dcg = 2 / _LOG(2) + 0 / _LOG(3) + 1 / _LOG(4)
    ideal = 3 / _LOG(2) + 2 / _LOG(3) + 1 / _LOG(4)  # grades 3, 2, 1, 1
    return dcg / ideal


def _err3():
    stop = [F(2 ** g - 1, 16) for g in (2, 0, 1)]  # gdeval: MAX_JUDGMENT 4
    total, reach = F(0), F(1)
    for rank, r in enumerate(stop, 1):
        total += reach * r / rank
        reach *= 1 - r
    return total


HAND = {  # the value of query "a"; the mean over both queries is half of it
    "P@3": F(2, 3),
    "P(rel=2)@3": F(1, 3),
    "P@10": F(3, 10),
    "R@3": F(2, 4),
    "R(rel=2)@3": F(1, 2),
    "AP": (F(1, 1) + F(2, 3) + F(3, 5)) / 4,
    "AP@3": (F(1, 1) + F(2, 3)) / 4,  # map_cut_3: divided by R, not min(R, 3)
    "AP(rel=2)": (F(1, 1) + F(2, 5)) / 2,
    "RR": F(1),
    "RR(rel=3)": F(1, 5),
    "RR(rel=3)@3": F(0),
    "Success@1": F(1),
    "Success(rel=3)@4": F(0),
    "Rprec": F(2, 4),  # 2 relevant in the top R = 4
    "Rprec(rel=2)": F(1, 2),
    # bpref: R = 4, min(N, R) = 2; relevant at ranks 1, 3, 5 with 0, 1, 2
    # non-relevant above: 1 + 1/2 + 0 (the unretrieved one scores 0)
    "Bpref": (F(1) + F(1, 2) + F(0)) / 4,
    # rel=2: R = 2, N = 4 (grades 1 are non-relevant): 1 - 0, 1 - min(3, 2)/2
    "Bpref(rel=2)": (F(1) + F(0)) / 2,
    "RBP(rel=1, p=0.5)": F(1, 2) * (1 + F(1, 4) + F(1, 16)),
    "ERR@3": _err3(),
    "nDCG@3": _ndcg3(),
}


@pytest.mark.parametrize("name", list(HAND))
def test_values_by_hand(name):
    expected = float(HAND[name]) / 2
    report = ranking_report(HAND_Y, HAND_S, groups=HAND_G, metrics=[name],
                            output="dict")
    assert report[name] == pytest.approx(expected, rel=RTOL, abs=1e-15)
    per = per_group_scores(HAND_Y, HAND_S, groups=HAND_G, metrics=[name],
                           output="dict")
    assert_allclose(per[name], [float(HAND[name]), 0.0], rtol=RTOL, atol=1e-15)


def test_every_entry_point_takes_the_names(tmp_path, capsys):
    names = ["P(rel=2)@3", "AP@3", "nDCG@3", "RBP(rel=1, p=0.5)"]
    expected = {name: float(HAND[name]) / 2 for name in names}
    # the accumulator, rows in two updates
    acc = RankingAccumulator(names)
    acc.update(HAND_Y[:6], HAND_S[:6], groups=HAND_G[:6])
    acc.update(HAND_Y[6:], HAND_S[6:], groups=HAND_G[6:])
    for name, value in acc.result().items():
        assert value == pytest.approx(expected[name], rel=RTOL), name
    # compare_rankings: the reversed ranking scores 0 at rank... its own value
    s2 = np.where(np.isinf(HAND_S), -np.inf, -HAND_S)
    compared = compare_rankings(HAND_Y, {"a": HAND_S, "b": s2}, groups=HAND_G,
                                metrics=["P(rel=2)@3"], output="dict",
                                n_resamples=99, random_state=0)
    assert compared["P(rel=2)@3"]["a"]["value"] == pytest.approx(
        expected["P(rel=2)@3"], rel=RTOL)
    # reversed, query "a" ranks 3 0 1 0 2: one of the top 3 has grade >= 2
    assert compared["P(rel=2)@3"]["b"]["value"] == pytest.approx(1 / 6, rel=RTOL)
    # scorers: the name's options reach the score (grades >= 2 relevant)
    scorer = get_scorer("P(rel=2)@3")
    func = scorer._score_func
    assert func(HAND_Y, HAND_S, groups=HAND_G, **scorer._kwargs) == \
        pytest.approx(expected["P(rel=2)@3"], rel=RTOL)
    assert get_scorer("AP@3")._kwargs == {"k": 3, "k_denominator": "relevant",
                                          "undefined": 0.0}
    import pickle

    assert pickle.loads(pickle.dumps(scorer))._kwargs == scorer._kwargs
    # the command line
    path = tmp_path / "p.csv"
    rows = "".join(f"{g},{y},{float(s)!r}\n"
                   for g, y, s in zip(HAND_G, HAND_Y, HAND_S))
    path.write_text("query,relevance,prediction\n" + rows)
    args = ["evaluate", str(path), "--group", "query", "--label", "relevance",
            "--score", "prediction", "--format", "json"]
    for name in names:
        args += ["-m", name]
    assert main(args) == 0
    doc = json.loads(capsys.readouterr().out)
    for name in names:
        assert doc["metrics"][name] == pytest.approx(expected[name], rel=RTOL)


def test_a_scorer_of_a_threshold_name_in_model_selection():
    import sklearn
    from sklearn.linear_model import LinearRegression
    from sklearn.model_selection import GroupKFold, cross_val_score

    rng = np.random.default_rng(0)
    groups = np.repeat(np.arange(30), 8)
    X = rng.normal(size=(len(groups), 3))
    y = np.clip(np.round(X[:, 0] + rng.normal(size=len(groups))), 0, 3)
    with sklearn.config_context(enable_metadata_routing=True):
        got = cross_val_score(LinearRegression(), X, y, cv=GroupKFold(3),
                              scoring=get_scorer("P(rel=2)@3"),
                              params={"groups": groups})
    # each fold by hand: P@3 at y >= 2 per query (the model's scores are
    # tie-free), 0 for a query without an item of grade 2 or more
    for fold, (train, test) in enumerate(GroupKFold(3).split(X, y, groups)):
        model = LinearRegression().fit(X[train], y[train])
        s = model.predict(X[test])
        values = []
        for q in np.unique(groups[test]):
            m = groups[test] == q
            top = np.argsort(-s[m])[:3]
            values.append(np.mean(y[test][m][top] >= 2))
        assert got[fold] == pytest.approx(np.mean(values), rel=RTOL)


def test_a_name_under_a_convention_keeps_what_it_sets():
    # "AP@2" sets trec_eval's normaliser R; LightGBM's preset would divide by
    # min(R, 2): the name's explicit rule wins, as an explicit argument does
    y, s = [1, 1, 1, 0], [4.0, 3.0, 2.0, 1.0]
    got = ranking_report(y, s, metrics=["AP@2", "map@2"], convention="lightgbm",
                         output="dict")
    assert got["AP@2"] == pytest.approx(2 / 3, rel=RTOL)
    assert got["map@2"] == pytest.approx(1.0, rel=RTOL)


# ==========================================================================
# ties: the threshold is the relevance of the brute-force references
# ==========================================================================
def _tied_groups(seed, n_groups=30, max_size=6):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, max_size + 1, n_groups)
    groups = np.repeat(np.arange(n_groups), sizes)
    n = len(groups)
    y = rng.integers(0, 4, n)
    s = rng.integers(0, 3, n).astype(float)
    s[rng.random(n) < 0.1] = -np.inf
    return y, s, groups


_REFS = {
    "P(rel=2)@2": lambda y, s: ref.precision_at_k(y, s, 2),
    "R(rel=2)@3": lambda y, s: ref.recall_at_k(y, s, 3),
    "RR(rel=2)": lambda y, s: ref.reciprocal_rank(y, s),
    "RR(rel=3)@2": lambda y, s: ref.reciprocal_rank(y, s, 2),
    "Success(rel=2)@2": lambda y, s: ref.success_at_k(y, s, 2),
    "Rprec(rel=2)": ref.r_precision,
    "Bpref(rel=2)": ref.bpref,
    "RBP(rel=2, p=0.7)": lambda y, s: ref.rank_biased_precision(y, s, 0.7),
    "AP(rel=2)": ref.average_precision,
    "AP(rel=3)@3": lambda y, s: ref.average_precision_blocks(
        y, s, k=3, denominator="relevant"),
}


@pytest.mark.parametrize("name", list(_REFS))
@pytest.mark.parametrize("seed", range(2))
def test_thresholds_against_brute_force_with_ties(name, seed):
    y, s, g = _tied_groups(seed)
    rel = read_metric_name(name)[1]["rel"]

    def reference(relevant):
        values = []
        for q in np.unique(g):
            m = g == q
            value = _REFS[name](list(relevant[m].astype(int)), list(s[m]))
            values.append(0.0 if math.isnan(value) else float(value))
        return np.array(values)

    expected = reference(y >= rel)
    got = per_group_scores(y, s, groups=g, metrics=[name], output="dict")[name]
    assert_allclose(got, expected, rtol=RTOL, atol=1e-15)
    # not vacuous: relevance at y > 0 gives other values
    assert not np.allclose(expected, reference(y > 0))


# ==========================================================================
# pytrec_eval as ir_measures' provider invokes it, and ir_measures itself
# ==========================================================================
def _collection(seed, n_queries=40, max_grade=4):
    """qrels and run (tie-free scores) and their long-layout arrays.

    Every row is judged; some judged items are not retrieved (-inf), some
    queries have no relevant item, one query retrieves nothing.
    """
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    ys, ss, gs = [], [], []
    for q in range(n_queries):
        qid = str(101 + q)  # gdeval reads numeric topics only
        n = int(rng.integers(1, 31))
        rel = rng.integers(0, max_grade + 1, n) * (rng.random(n)
                                                  < rng.uniform(0, 0.7))
        if q % 9 == 0:
            rel[:] = 0
        retrieved = rng.random(n) < 0.85
        if q == 5:
            retrieved[:] = False
        scores = rng.permutation(n) + rng.random(n) * 0.5
        qrels[qid] = {f"d{i}": int(rel[i]) for i in range(n)}
        run[qid] = {f"d{i}": float(scores[i]) for i in range(n) if retrieved[i]}
        ys += list(rel)
        ss += list(np.where(retrieved, scores, -np.inf))
        gs += [qid] * n
    return qrels, run, np.array(ys), np.array(ss), np.array(gs)


#: name -> pytrec_eval measure and relevance_level (ir_measures' provider)
PYTREC = {
    "nDCG": ("ndcg", 1), "nDCG@10": ("ndcg_cut_10", 1), "P@5": ("P_5", 1),
    "P(rel=2)@5": ("P_5", 2), "P@100": ("P_100", 1), "R@10": ("recall_10", 1),
    "R(rel=3)@10": ("recall_10", 3), "AP": ("map", 1), "AP@10": ("map_cut_10", 1),
    "AP(rel=2)": ("map", 2), "RR": ("recip_rank", 1), "RR(rel=2)": ("recip_rank", 2),
    "Success@3": ("success_3", 1), "Success(rel=3)@1": ("success_1", 3),
    "Rprec": ("Rprec", 1), "Rprec(rel=2)": ("Rprec", 2), "Bpref": ("bpref", 1),
    "Bpref(rel=2)": ("bpref", 2),
}


@pytest.mark.parametrize("seed", range(2))
def test_against_pytrec_eval_as_ir_measures_calls_it(seed):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels, run, y, s, g = _collection(seed)
    per = per_group_scores(y, s, groups=g, metrics=list(PYTREC), output="dict")
    report = ranking_report(y, s, groups=g, metrics=list(PYTREC), output="dict")
    for name, (measure, level) in PYTREC.items():
        got = pytrec_eval.RelevanceEvaluator(
            qrels, {measure}, relevance_level=level).evaluate(run)
        # ir_measures: 0 for a query of the qrels missing from the run
        theirs = np.array([got.get(q, {}).get(measure, 0.0) for q in per["group"]])
        assert_allclose(per[name], theirs, rtol=RTOL, atol=1e-15, err_msg=name)
        assert report[name] == pytest.approx(theirs.mean(), rel=RTOL, abs=1e-15)


def _irm_compare(provider, names, qrels, run, y, s, g, atol=1e-12):
    """Largest difference, per query and in the mean, against one provider."""
    ir_measures = pytest.importorskip("ir_measures")
    measures = [ir_measures.parse_measure(name) for name in names]
    qrel_list = [ir_measures.Qrel(q, d, r) for q, docs in qrels.items()
                 for d, r in docs.items()]
    run_list = [ir_measures.ScoredDoc(q, d, sc) for q, docs in run.items()
                for d, sc in docs.items()]
    provider = getattr(ir_measures, provider)
    if not provider.is_available():
        pytest.skip(f"ir_measures' {provider.NAME} provider is not available")
    per = per_group_scores(y, s, groups=g, metrics=names, output="dict")
    report = ranking_report(y, s, groups=g, metrics=names, output="dict")
    for name, measure in zip(names, measures):
        # one measure per call: trectools gives the first of two RBP
        # measures of one call wrong values
        per_query = {m.query_id: m.value
                     for m in provider.iter_calc([measure], qrel_list, run_list)}
        theirs = [per_query[q] for q in per["group"]]
        assert_allclose(per[name], theirs, rtol=0, atol=atol, err_msg=name)
        mean = provider.calc_aggregate([measure], qrel_list, run_list)[measure]
        assert report[name] == pytest.approx(mean, abs=atol), name


@pytest.mark.parametrize("seed", range(2))
def test_against_ir_measures_pytrec_eval_provider(seed):
    _irm_compare("pytrec_eval", list(PYTREC), *_collection(seed))


@pytest.mark.skipif(shutil.which("perl") is None, reason="gdeval needs perl")
def test_against_ir_measures_gdeval_err_and_exponential_ndcg():
    # gdeval prints 5 decimals
    _irm_compare("gdeval", ["ERR@20", "ERR@5", "nDCG(dcg='exp-log2')@10"],
                 *_collection(3), atol=6e-6)


def test_against_ir_measures_msmarco_rr_at_k():
    _irm_compare("msmarco", ["RR@10", "RR@3", "RR(rel=2)@5"], *_collection(4))


def test_against_ir_measures_cwl_eval_rbp():
    _irm_compare("cwl_eval", ["RBP(rel=1)", "RBP(rel=2, p=0.5)"], *_collection(5))


def test_against_ir_measures_trectools_rbp_on_binary_labels():
    _irm_compare("trectools", ["RBP(p=0.8)", "RBP(p=0.5)"],
                 *_collection(6, max_grade=1))


def test_judged_recipe_against_ir_measures():
    # the refusal's recipe: precision of the judged mask, divided by the
    # number retrieved when fewer than k
    ir_measures = pytest.importorskip("ir_measures")
    qrels, run, y, s, g = _collection(7)
    rng = np.random.default_rng(0)
    judged = rng.random(len(y)) < 0.6
    qrels = {q: {d: r for (d, r), j in zip(docs.items(), judged[g == q]) if j}
             for q, docs in qrels.items()}
    qrels = {q: docs for q, docs in qrels.items() if docs}
    run = {q: docs for q, docs in run.items() if docs and q in qrels}
    keep = np.isin(g, list(run))
    y, s, g, judged = y[keep], s[keep], g[keep], judged[keep]
    measures = [ir_measures.parse_measure(f"Judged@{k}") for k in (5, 20)]
    qrel_list = [ir_measures.Qrel(q, d, r) for q, docs in qrels.items()
                 for d, r in docs.items()]
    run_list = [ir_measures.ScoredDoc(q, d, sc) for q, docs in run.items()
                for d, sc in docs.items()]
    per_query = {(str(m.measure), m.query_id): m.value
                 for m in ir_measures.judged.iter_calc(measures, qrel_list, run_list)}
    for k, measure in zip((5, 20), measures):
        got = precision_at_k_score(judged.astype(int), s, groups=g, k=k,
                                   k_denominator="retrieved", average=None)
        theirs = [per_query[(str(measure), q)] for q in np.unique(g)]
        assert_allclose(got, theirs, rtol=RTOL)
