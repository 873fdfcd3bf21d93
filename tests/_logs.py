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
