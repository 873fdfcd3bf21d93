"""Click logs for the Spark and Dask tests (tests/distributed/test_spark.py, test_dask.py).

Ties, graded labels, ``-inf`` scores, groups of one row, groups without a
relevant item, one large group, and string ids whose sorted order differs
between byte-wise and case-insensitive comparisons.
"""

import inspect
import warnings

import numpy as np
import pandas as pd

from sklearn_rankeval._metrics._registry import METRICS


def _names(keep):
    return [
        name
        for key, spec in METRICS.items() if keep(spec)
        for name in ([key] if not spec.has_k else
                     [f"{key}@3"] + ([key] if spec.k_default is None else []))
    ]


#: One name per registry metric that reads relevance labels and scores
#: (``@3`` where it has a cutoff, and the plain name too where the cutoff is
#: optional): every metric but those of probabilities.
ALL_METRICS = _names(lambda spec: spec.scores == "order")
#: The metrics of predicted click probabilities (log loss, NE, PCOC, ECE):
#: they need logs of clicks (``make_log(clicks=True)``).
PROBABILITY_METRICS = _names(lambda spec: spec.scores == "probability")
#: The metrics whose sample_weight is an item weight (may vary in a group).
ITEM_WEIGHT_METRICS = [
    name for name in ALL_METRICS if METRICS[name.split("@")[0]].weights == "item"
]


def function_values(name, y, s, g, w=None, convention=None):
    """The metric function's per-group values (``average=None``) of ``name``
    under ``convention``, or the ValueError it raises."""
    key, _, k = name.partition("@")
    kwargs = {"k": int(k)} if k else {}
    if convention is not None and "convention" not in inspect.signature(
            METRICS[key].func).parameters:
        # a metric no peer library has (xAUC): every convention refuses it
        return ValueError(f"no convention has {name}")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return METRICS[key].func(y, s, groups=g, sample_weight=w,
                                     convention=convention, average=None, **kwargs)
    except ValueError as exc:
        return exc


def convention_metrics(convention, y, s, g, w=None):
    """The names of ALL_METRICS the metric functions give under ``convention``
    on this data (the others raise a ValueError)."""
    return [name for name in ALL_METRICS if not isinstance(
        function_values(name, y, s, g, w, convention), ValueError)]


def make_log(seed=0, n_groups=30, ids="str", big_group=150, clicks=False):
    """A shuffled long-layout log: columns user, label, score, w_item, w_query.

    ``clicks=True``: 0/1 labels and click probabilities in [0, 1] (ties, no
    ``-inf``), for :data:`PROBABILITY_METRICS`.
    """
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 25, n_groups)
    sizes[0] = big_group
    if ids == "str":
        names = np.array([f"u{i:03d}" for i in range(n_groups)], dtype=object)
        special = ["Zoe", "anna", "\u00e9va", "u"]  # 'Z' < 'a' < 'u' < 'é'
        names[:min(n_groups, 4)] = special[:n_groups]
    else:
        names = rng.choice(10**9, n_groups, replace=False).astype(np.int64) - 5 * 10**8
    user = np.repeat(names, sizes)
    n = user.shape[0]
    label = rng.integers(0, 4, n)
    label[np.repeat(np.arange(n_groups) % 7 == 3, sizes)] = 0  # groups without a click
    score = rng.integers(0, 6, n) / 4.0  # ties
    score[rng.random(n) < 0.05] = -np.inf
    if clicks:
        label = (label > 0).astype(np.int64)
        score = np.round(rng.random(n), 2)
    w_item = rng.uniform(0.25, 3.0, n)
    w_query = np.repeat(rng.uniform(0.25, 3.0, n_groups), sizes)
    perm = rng.permutation(n)
    return pd.DataFrame({
        "user": user[perm], "label": label[perm], "score": score[perm],
        "w_item": w_item[perm], "w_query": w_query[perm],
    })


def assert_report_equal(got, expected):
    assert list(got) == list(expected)
    for name in expected:
        np.testing.assert_allclose(got[name], expected[name], rtol=0, atol=1e-12,
                                   err_msg=name)


def assert_frame_equal(got, expected, group_column):
    """A distributed per-group frame (collected, any row order) vs in memory."""
    got = got.sort_values(group_column, kind="stable").reset_index(drop=True)
    assert got[group_column].tolist() == expected.index.tolist()
    assert list(got.columns[1:]) == list(expected.columns)
    for name in expected.columns:
        np.testing.assert_allclose(got[name].to_numpy(dtype=float),
                                   expected[name].to_numpy(dtype=float),
                                   rtol=0, atol=1e-12, err_msg=name)


def check_cli_engine(engine, tmp_path, capsys, path_of):
    """``rankeval evaluate DIR --engine ENGINE --format json --per-group``."""
    import json

    from sklearn_rankeval import per_group_scores, ranking_report
    from sklearn_rankeval._cli import main

    log = make_log(seed=31, n_groups=12, big_group=30)[["user", "label", "score"]]
    folder = tmp_path / "log"
    folder.mkdir()
    for i, lo in enumerate(range(0, len(log), 60)):
        log.iloc[lo:lo + 60].to_parquet(folder / f"part-{i}.parquet", index=False)
    metrics = ["gauc", "mrr", "ndcg@3"]
    argv = ["evaluate", path_of(folder), "--group", "user", "--label", "label",
            "--score", "score", "--engine", engine, "--format", "json", "--per-group"]
    argv += [arg for m in metrics for arg in ("-m", m)]
    assert main(argv) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["n_rows"], doc["n_groups"]) == (len(log), 12)
    expected = ranking_report(log["label"], log["score"], groups=log["user"],
                              metrics=metrics, output="dict")
    assert_report_equal(doc["metrics"], expected)
    frame = per_group_scores(log["label"], log["score"], groups=log["user"],
                             metrics=metrics)
    assert [row["group"] for row in doc["per_group"]] == frame.index.tolist()
    for name in metrics:
        got = np.array([np.nan if row[name] is None else row[name]
                        for row in doc["per_group"]])
        np.testing.assert_allclose(got, frame[name].to_numpy(), rtol=0, atol=1e-12)
    # a missing column: a one-line message and exit status 2
    assert main([*argv[:5], "clicks", *argv[6:]]) == 2
    assert "no column 'clicks'" in capsys.readouterr().err


def make_lists(seed=0, ids="str", n_users=12, n_items=20):
    """Top-N lists, held-out and training interactions (three DataFrames).

    ``recommended`` (user, item, score): lists of 1..8 items with scores from
    three values (ties, also at the cutoffs), in row order within a user;
    ``held_out`` (user, item, relevance): graded gains 1..3; the first two
    users have no held-out item, the last two no list; ``train`` (user,
    item): repeated interactions, items of a skewed popularity.
    """
    rng = np.random.default_rng(seed)
    if ids == "str":
        users = np.array([f"u{u:02d}" for u in range(n_users)], dtype=object)
        users[:3] = ["Zoe", "anna", "\u00e9va"]
        items = np.array([f"i{i:02d}" for i in range(n_items + 5)], dtype=object)
    else:
        users = rng.choice(10**6, n_users, replace=False).astype(np.int64)
        items = rng.choice(10**6, n_items + 5, replace=False).astype(np.int64)
    rec, held = [], []
    for u in users[:-2]:
        for i in rng.choice(n_items, int(rng.integers(1, 9)), replace=False):
            rec.append((u, items[i], float(rng.integers(0, 3))))
    for u in users[2:]:
        for i in rng.choice(n_items + 5, int(rng.integers(1, 5)), replace=False):
            held.append((u, items[i], int(rng.integers(1, 4))))
    popular = rng.zipf(1.6, 80) % n_items
    train = [(users[rng.integers(n_users)], items[i]) for i in popular]
    return (pd.DataFrame(rec, columns=["user", "item", "score"]),
            pd.DataFrame(held, columns=["user", "item", "relevance"]),
            pd.DataFrame(train, columns=["user", "item"]))


#: Every metric of the counterfactual report, by the estimators that read it.
CLICK_METRICS = {
    "ips": ["dcg@3", "dcg", "precision@3", "avg_rel_rank"],
    "snips": ["recall@3", "recall@1"],
    "naive": ["dcg@3", "dcg", "precision@3", "avg_rel_rank", "ndcg@3", "ndcg",
              "recall@3"],
}
#: The examination propensities of the simulated click logs.
CLICK_THETA = 1.0 / np.arange(1, 9) ** 0.8


def make_click_log(seed=0, n_impressions=60, ids="int"):
    """A click log of a known position-based model (8 positions), shuffled:
    columns impression, clicked, position, score (a new ranker's: ties and a
    few ``-inf``), weight (one per impression) and item."""
    from tests.counterfactual._simulate import simulate

    rng = np.random.default_rng(seed)
    gamma = rng.beta(1, 2, (10, 8))
    log = simulate(rng, theta=CLICK_THETA, gamma=gamma, n_impressions=n_impressions)
    n = log["clicks"].shape[0]
    score = np.round(log["gamma"] + 0.3 * rng.standard_normal(n), 1)  # ties
    score[rng.random(n) < 0.05] = -np.inf
    impression = log["groups"] * 7919 % 100_003  # ids in another order than rows
    if ids == "str":
        impression = np.array([f"s{i}" for i in impression], dtype=object)
        impression[impression == impression[0]] = "Zoe"  # 'Z' < 's'
    weight = rng.uniform(0.25, 3.0, n_impressions)[log["groups"]]
    perm = rng.permutation(n)
    return pd.DataFrame({
        "impression": impression[perm], "clicked": log["clicks"][perm],
        "position": log["positions"][perm], "score": score[perm],
        "weight": weight[perm], "item": log["items"][perm],
    })


def click_report(log, weighted=False, **kwargs):
    """The in-memory counterfactual report of :func:`make_click_log`'s log."""
    from sklearn_rankeval import counterfactual_report

    return counterfactual_report(
        log["clicked"], log["score"], log["position"], groups=log["impression"],
        sample_weight=log["weight"] if weighted else None, **kwargs)


#: ``(estimator, ids, weighted, clip, output)`` of the engines' tests.
CLICK_CASES = [
    ("ips", "str", True, None, "dict"),
    ("snips", "int", False, 2.5, "frame"),
    ("naive", "int", True, None, "dict"),
]
#: The column names of :func:`make_click_log`, as the engines take them.
CLICK_COLUMNS = dict(clicks="clicked", y_score="score", positions="position",
                     groups="impression")


def check_click_report(run, estimator, ids, weighted, clip, output):
    """An engine's counterfactual report (``run(log, **kwargs)``: the
    engine's function on a frame of ``log``) equals the in-memory one, for a
    fitted estimator (sent to the workers) or an array of propensities."""
    from sklearn_rankeval import PositionBiasEstimator

    log = make_click_log(seed=21, ids=ids)
    metrics = CLICK_METRICS[estimator]
    fit = make_click_log(seed=0, n_impressions=1000)
    propensities = (PositionBiasEstimator(method="randomized").fit(
        fit["clicked"], fit["position"], items=fit["item"])
        if estimator == "ips" else CLICK_THETA)
    kwargs = dict(propensities=propensities, metrics=metrics, estimator=estimator,
                  clip=clip, output=output)
    got = run(log, **CLICK_COLUMNS, sample_weight="weight" if weighted else None,
              **kwargs)
    expected = click_report(log, weighted, **kwargs)
    if output == "frame":
        assert list(got.columns) == ["metric", "value", "n_groups"]
        assert list(got["n_groups"]) == list(expected["n_groups"])
        assert list(got["n_groups"]) != [log["impression"].nunique()] * len(metrics)
        got = dict(zip(got["metric"], got["value"]))
        expected = dict(zip(expected["metric"], expected["value"]))
    assert_report_equal(got, expected)


def check_click_bad_data(run, bad):
    """Bad data of a log in several partitions: the in-memory message, with
    the values and counts of the whole log."""
    import pytest

    log = make_click_log(seed=22, n_impressions=30)
    propensities = CLICK_THETA
    if bad == "clicks":  # two bad values, in two impressions: one list
        log.loc[log.index[:2], "clicked"] = [3, 2]
    elif bad == "beyond":  # rows at positions 7 and 8 in every partition
        propensities = CLICK_THETA[:6]
    elif bad == "repeated":  # impressions that show a position twice
        log.loc[log["impression"] == log["impression"].iloc[0], "position"] = 1
        log.loc[log["impression"] == log["impression"].iloc[-1], "position"] = 2
    else:
        log.loc[log.index[5], "position"] = 0
    with pytest.raises(ValueError) as expected:
        click_report(log, propensities=propensities)
    with pytest.raises(ValueError) as got:
        run(log, **CLICK_COLUMNS, propensities=propensities)
    assert str(got.value) == str(expected.value)
    if bad == "repeated":  # the whole log's count
        assert "2 impression(s) (groups) show a position" in str(got.value)
    elif bad != "position":  # the whole log's values and counts
        assert ("[0, 1, 2, 3]" if bad == "clicks" else
                f"{np.count_nonzero(log['position'] > 6)} row(s)") in str(got.value)


#: Arguments of the engines' counterfactual reports refused before any job:
#: ``(change, error, message)`` (the clicks' type: "type string" in Spark,
#: "dtype object" or "dtype str" in Dask).
CLICK_BAD_ARGUMENTS = [
    ({"positions": "rank"}, ValueError, r"positions: .*no column 'rank'"),
    ({"clicks": "impression"}, TypeError, "clicks: column 'impression' has "),
    ({"metrics": ["ndcg@3"]}, ValueError, "'ndcg@3' is a metric of the raw clicks"),
    ({"metrics": ["dcg@3"], "estimator": "snips"}, ValueError,
     "'dcg@3' is a sum of IPS gains"),
    ({"metrics": ["map"]}, ValueError, "'map' is not a counterfactual report"),
    ({"clip": 0}, ValueError, "clip must be None or a finite number >= 1"),
    ({"clip": 0.5}, ValueError, "clip must be None or a finite number >= 1"),
    ({"propensities": [1.0, 0.0]}, ValueError, "propensities must hold finite"),
    ({"output": "text"}, ValueError, "output must be one of"),
]


# ---------------------------------------------------------------------------
# grades per intent (diversity) and sampled rankings (exposure)
# ---------------------------------------------------------------------------
#: The diversity metrics by report name: ``(function name, keyword arguments)``.
DIVERSITY_METRICS = {
    "alpha_ndcg@5": ("alpha_ndcg_score", {"k": 5}),
    "err_ia@5": ("err_ia_score", {"k": 5}),
    "nrbp": ("nrbp_score", {}),
    "intent_aware@3": ("intent_aware_score", {"k": 3}),
    "subtopic_recall@3": ("subtopic_recall_score", {"k": 3}),
    "d_sharp_ndcg@5": ("d_sharp_ndcg_score", {"k": 5}),
}
#: The exposure metrics by report name: ``(function name, keyword arguments)``.
EXPOSURE_METRICS = {
    "expected_exposure": ("expected_exposure_score", {}),
    "awrf": ("awrf_score", {}),
}
N_INTENTS = 3


def make_intent_log(seed=0, n_groups=25, max_size=9):
    """A diversity log: one row per (query, document), the grades of each
    intent in the columns ``i0 .. i2`` (sparse, graded 0-2) and as one list
    per row (``grades``), each query's intent probabilities in ``w0 .. w2``
    and ``weights`` (constant within the query), scores with ties and
    ``-inf``, queries without a relevant document, rows shuffled."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, max_size + 1, n_groups)
    groups = np.repeat(np.array([f"q{i:02d}" for i in range(n_groups)]), sizes)
    n = groups.shape[0]
    grades = rng.integers(0, 3, (n, N_INTENTS)) * (rng.random((n, N_INTENTS)) < 0.4)
    probs = rng.dirichlet(np.ones(N_INTENTS), n_groups)
    weights = np.repeat(probs, sizes, axis=0)
    scores = rng.integers(0, 4, n).astype(float)
    scores[rng.random(n) < 0.1] = -np.inf
    perm = rng.permutation(n)
    grades, weights, scores, groups = (a[perm] for a in (grades, weights, scores,
                                                         groups))
    frame = pd.DataFrame({"query": groups, "score": scores,
                          **{f"i{j}": grades[:, j] for j in range(N_INTENTS)},
                          **{f"w{j}": weights[:, j] for j in range(N_INTENTS)}})
    frame["grades"] = list(grades.astype(np.float64))
    frame["weights"] = list(weights)
    return frame, grades, scores, groups, weights


def make_exposure_log(seed=0, n_queries=10, max_samples=5):
    """A stochastic policy's log: each query's items (3-6, graded 0-2) in
    1 .. ``max_samples`` sampled rankings (scores with ties), each item in a
    provider (``provider``) and a region (``region``) group; rows shuffled."""
    rng = np.random.default_rng(seed)
    rows = []
    for q in range(n_queries):
        n_items = int(rng.integers(3, 7))
        grades = rng.integers(0, 3, n_items)
        for sample in range(int(rng.integers(1, max_samples + 1))):
            score = rng.integers(0, 3, n_items).astype(float)
            for i in range(n_items):
                rows.append((f"q{q}", sample, f"d{q}_{i}", int(grades[i]), score[i],
                             ["ann", "bob", "cy"][(q + i) % 3],
                             ["north", "south"][i % 2]))
    rows = [rows[i] for i in rng.permutation(len(rows))]
    return pd.DataFrame(rows, columns=["query", "sample", "item", "relevance",
                                       "score", "provider", "region"])


def diversity_expected(log, names, per_group=False):
    """The in-memory functions' values (their mean, or per query with
    ``per_group``) of the diversity ``names`` on ``make_intent_log``'s rows,
    with the queries' intent weights."""
    import sklearn_rankeval as rk

    _, grades, scores, groups, weights = log
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in names:
            func, kwargs = DIVERSITY_METRICS[name]
            out[name] = getattr(rk, func)(
                grades, scores, groups=groups, intent_weights=weights,
                **({"average": None} if per_group else {}), **kwargs)
    return out


def exposure_expected(frame, names, item_groups=("provider",), per_group=False):
    """The in-memory functions' values of the exposure ``names`` on
    ``make_exposure_log``'s rows (several item-group columns: 2-D)."""
    import sklearn_rankeval as rk

    cats = frame[list(item_groups)].to_numpy()
    cats = cats[:, 0] if cats.shape[1] == 1 else cats
    out = {}
    for name in names:
        func, kwargs = EXPOSURE_METRICS[name]
        out[name] = getattr(rk, func)(
            frame["relevance"].to_numpy(), frame["score"].to_numpy(),
            groups=frame["query"].to_numpy(), samples=frame["sample"].to_numpy(),
            items=frame["item"].to_numpy(), item_groups=cats,
            **({"average": None} if per_group else {}), **kwargs)
    return out
