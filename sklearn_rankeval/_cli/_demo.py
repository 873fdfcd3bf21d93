"""``rankeval demo``: the library end to end on synthetic data, no download.

Four parts, each a table on stdout:

1. a click log (:func:`~sklearn_rankeval.datasets.make_click_log`): two
   click models, one tuned by ``GridSearchCV`` on the GAUC scorer, and every
   ranking metric for both (global AUC beside GAUC);
2. the same models read as CTR models: log loss, normalized entropy (NE),
   PCOC and ECE of their probabilities, then NE and calibration per user
   segment;
3. the digits dataset as a multiclass ranking;
4. top-N recommendations (:func:`~sklearn_rankeval.datasets.
   make_interactions`): a popularity and a matrix-factorization recommender,
   their accuracy and beyond-accuracy metrics.

``--out DIR`` writes every display as a PNG file (:mod:`._demo_figures`).
"""

import argparse
import time

import numpy as np

from .._engine import encode_rows
from ._demo_figures import PLOT_HINT, PNGS, write_pngs
from ._options import int_at_least

__all__ = ["add_parser"]

_CLICK_ROWS = [
    ("AUC (global)", None),
    ("GAUC", "gauc"),
    ("MRR", "mrr"),
    ("MAP", "map"),
    ("MAP@10", "map@10"),
    ("NDCG@10", "ndcg@10"),
    ("HR@10 (pooled)", "hit_rate@10"),
    ("success@10", "success@10"),
    ("P@10", "precision@10"),
    ("R@10", "recall@10"),
    ("11-point AP", "interpolated_ap"),
]
_CTR_ROWS = [("GAUC", "gauc"), ("log loss", "log_loss"), ("NE", "ne"),
             ("PCOC", "pcoc"), ("ECE", "ece")]
#: The metrics of each user segment.
_SEGMENT_ROWS = _CTR_ROWS[2:]
_TOP_N_ROWS = [("P@10", "precision@10"), ("R@10", "recall@10"),
               ("NDCG@10", "ndcg@10"), ("MAP@10", "map@10"),
               ("coverage@10", "coverage@10"), ("Gini@10", "gini@10"),
               ("novelty@10", "novelty@10"), ("ARP@10", "arp@10")]
_DEMO_C_GRID = (0.001, 0.01, 0.1, 1.0)
#: The tuned model, and the same features fitted with balanced class
#: weights: as good a ranking, probabilities far too high.
TUNED, BALANCED = "all features, tuned", "class_weight='balanced'"
#: The catalog of the top-N part, and the share of each user's
#: interactions held out.
_N_ITEMS, _HELD_SHARE = 300, 0.2
#: The user segments of the CTR part, from the least to the most active.
SEGMENTS = ("light users", "medium users", "heavy users")

_DESCRIPTION = f"""\
Show the library end to end on synthetic data (no download):

1. A click log where users differ in their base click rate
   (sklearn_rankeval.datasets.make_click_log): two click models, one tuned
   by GridSearchCV on the GAUC scorer and GroupKFold; every ranking metric
   for both, the global AUC beside GAUC.
2. The click models as CTR models: log loss, normalized entropy (NE), PCOC
   and ECE of their probabilities (a model fitted with balanced class weights
   ranks as well and is badly calibrated), then NE and calibration per user
   segment (light, medium and heavy users).
3. The classes of scikit-learn's digits dataset, ranked.
4. Top-N recommendations (sklearn_rankeval.datasets.make_interactions): a
   most-popular and a matrix-factorization (TruncatedSVD) recommender, their
   accuracy and beyond-accuracy metrics (coverage, Gini, novelty, average
   recommendation popularity).

With --out DIR it also writes every display as a PNG file
({', '.join(PNGS)}); without --out it writes nothing.  The PNG files need
matplotlib ({PLOT_HINT}); without it the demo prints the tables only.
"""


def add_parser(sub):
    p = sub.add_parser("demo", help="every metric and display on synthetic data",
                       description=_DESCRIPTION,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", metavar="DIR", default=None,
                   help="write every display as a PNG file to DIR (created if "
                        "needed; needs matplotlib)")
    p.add_argument("--n-users", type=int_at_least(20), default=2000,
                   help="users in the synthetic click log and in the "
                        "interactions (default 2000, at least 20)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.set_defaults(handler=run)


def _table(title, columns, rows, digits=4):
    """A table: one row per ``rows`` key, one right-aligned column each."""
    width = max(len(r) for r in rows) + 2
    widths = [max(len(c), 9) + 2 for c in columns]
    out = [title] if title else []
    out.append(" " * width + "".join(f"{c:>{w}s}" for c, w in zip(columns, widths)))
    for name, values in rows.items():
        out.append(f"{name:<{width}s}" + "".join(
            f"{v:{w}.{digits}f}" if isinstance(v, float) else f"{v:>{w}}"
            for v, w in zip(values, widths)))
    return "\n".join(out)


# ---------------------------------------------------------------------------
# 1. the click log
# ---------------------------------------------------------------------------
def _fit_click_models(X, y, groups, train):
    """The activity-only model, the all-features model tuned on GAUC, and the
    all-features model with balanced class weights."""
    import sklearn
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GridSearchCV, GroupKFold
    from threadpoolctl import threadpool_limits

    from .. import get_scorer

    activity = LogisticRegression().fit(X[train][:, [0]], y[train])
    search = GridSearchCV(LogisticRegression(), {"C": list(_DEMO_C_GRID)},
                          scoring=get_scorer("gauc"), cv=GroupKFold(5))
    # routing sends the user ids both to GroupKFold and to the GAUC scorer
    with threadpool_limits(1), sklearn.config_context(
            enable_metadata_routing=True):
        search.fit(X[train], y[train], groups=groups[train])
    balanced = LogisticRegression(C=search.best_params_["C"],
                                  class_weight="balanced").fit(X[train], y[train])
    return activity, search, balanced


def _click_metrics(y, score, pred, groups):
    """Every ranking metric of one model on the test users."""
    from sklearn.metrics import roc_auc_score

    from .. import f_alpha_score, ranking_report

    values = {"AUC (global)": roc_auc_score(y, score)}
    report = ranking_report(y, score, groups=groups,
                            metrics=[name for _, name in _CLICK_ROWS[1:]],
                            output="dict")
    values.update((row, report[name]) for row, name in _CLICK_ROWS[1:])
    values["F1"] = f_alpha_score(y, pred, zero_division=0.0)
    values["F-alpha (alpha=0.25)"] = f_alpha_score(y, pred, alpha=0.25,
                                                   zero_division=0.0)
    return values


def _segments(X, groups):
    """Light, medium and heavy users: terciles of the user-activity feature
    (column 0 of ``make_click_log``'s X), one label per row."""
    codes, _ = encode_rows(groups, len(groups))
    activity = np.bincount(codes, X[:, 0]) / np.bincount(codes)
    cuts = np.quantile(activity, [1 / 3, 2 / 3])
    return np.array(SEGMENTS)[np.searchsorted(cuts, activity)][codes]


def _click_part(args):
    from sklearn.model_selection import GroupShuffleSplit

    from ..datasets import make_click_log

    X, y, groups = make_click_log(n_users=args.n_users, random_state=args.seed)
    train, test = next(GroupShuffleSplit(test_size=0.5, random_state=args.seed)
                       .split(X, y, groups))
    activity, search, balanced = _fit_click_models(X, y, groups, train)
    X_test, y_test, g_test = X[test], y[test], groups[test]
    models = {"activity only": (activity, X_test[:, [0]]),
              TUNED: (search.best_estimator_, X_test),
              BALANCED: (balanced, X_test)}
    rows, scores = {}, {}
    for name, (model, features) in models.items():
        scores[name] = model.predict_proba(features)[:, 1]
        if name == BALANCED:
            continue
        metrics = _click_metrics(y_test, scores[name], model.predict(features),
                                 g_test)
        for metric, value in metrics.items():
            rows.setdefault(metric, []).append(value)
    print(f"1. Click log (sklearn_rankeval.datasets.make_click_log): "
          f"{len(np.unique(groups))} users,\n{len(y)} impressions, "
          f"{y.mean():.1%} clicks; half of the users held out for testing.")
    print(f"LogisticRegression tuned by GridSearchCV on the GAUC scorer, "
          f"GroupKFold(5),\nC in {list(_DEMO_C_GRID)}: best "
          f"C={search.best_params_['C']}, cross-validated GAUC "
          f"{search.best_score_:.4f}.\n")
    print(_table("", ["activity only", TUNED], rows))
    print("\nThe user-activity feature separates active from inactive users "
          "(high global AUC)\nbut cannot rank one user's items: its GAUC is 0.5.")
    return y_test, g_test, scores, _segments(X_test, g_test)


# ---------------------------------------------------------------------------
# 2. the click models as CTR models
# ---------------------------------------------------------------------------
def _ctr_part(y, groups, scores, segments):
    from .. import ranking_report

    names = [name for _, name in _CTR_ROWS]
    rows = {}
    for model in (TUNED, BALANCED):
        report = ranking_report(y, scores[model], groups=groups, metrics=names,
                                output="dict")
        for label, name in _CTR_ROWS:
            rows.setdefault(label, []).append(report[name])
    print("\n" + _table("2. The predicted click probabilities (test users): "
                        "calibration", [TUNED, BALANCED], rows))
    print("NE: log loss over that of the click rate alone (below 1 is "
          "better); PCOC: predicted\nover observed clicks (1 is calibrated). "
          "Balanced class weights rank the items as\nwell (GAUC) but predict "
          "clicks far too often.")
    by_segment = ranking_report(y, scores[TUNED], groups=groups,
                                segments=segments,
                                metrics=[name for _, name in _SEGMENT_ROWS],
                                output="dict")
    rows = {}
    for segment in SEGMENTS:
        inside = segments == segment
        rows[segment] = [int(inside.sum()), float(y[inside].mean()),
                         *(by_segment[segment][name] for _, name in _SEGMENT_ROWS)]
    print("\n" + _table(f"Per user segment ({TUNED}; terciles of user "
                        "activity):", ["impressions", "click rate",
                                       *(label for label, _ in _SEGMENT_ROWS)],
                        rows))


# ---------------------------------------------------------------------------
# 3. the digits as a multiclass ranking
# ---------------------------------------------------------------------------
def _digits_part(args):
    from sklearn.datasets import load_digits
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from threadpoolctl import threadpool_limits

    from .. import (
        hit_rate_score,
        mean_average_precision_score,
        mean_reciprocal_rank_score,
        ndcg_score,
    )

    digits_X, digits_y = load_digits(return_X_y=True)
    Xtr, Xte, ytr, yte = train_test_split(digits_X, digits_y,
                                          random_state=args.seed)
    classifier = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
    with threadpool_limits(1):
        proba = classifier.fit(Xtr, ytr).predict_proba(Xte)
    mc = {
        "MRR": mean_reciprocal_rank_score(yte, proba),
        "HR@1 (accuracy)": hit_rate_score(yte, proba, k=1),
        "HR@3": hit_rate_score(yte, proba, k=3),
        "MAP": mean_average_precision_score(yte, proba),
        "NDCG": ndcg_score(yte, proba),
    }
    print("\n" + _table("3. Digits (sklearn.datasets.load_digits) as a "
                        "multiclass ranking (true class among 10):",
                        ["scaled LogisticRegression"],
                        {k: [v] for k, v in mc.items()}))


# ---------------------------------------------------------------------------
# 4. top-N recommendations
# ---------------------------------------------------------------------------
def _recommenders(args):
    """The interactions split per user, and two recommenders' top-10 lists."""
    from scipy import sparse
    from sklearn.decomposition import TruncatedSVD

    from .. import top_k_items
    from ..datasets import make_interactions

    user, item = make_interactions(n_users=args.n_users, n_items=_N_ITEMS,
                                   random_state=args.seed)
    rng = np.random.default_rng(args.seed)
    held = rng.random(user.shape[0]) < _HELD_SHARE
    train = {"user": user[~held], "item": item[~held]}
    held_out = {"user": user[held], "item": item[held]}
    seen = sparse.csr_matrix(
        (np.ones(train["user"].shape[0]), (train["user"], train["item"])),
        shape=(args.n_users, _N_ITEMS))
    popularity = np.asarray(seen.sum(axis=0), dtype=np.float64).ravel()
    svd = TruncatedSVD(n_components=8, random_state=args.seed).fit(seen)
    scores = {"most popular": np.broadcast_to(popularity, seen.shape),
              "TruncatedSVD(8)": svd.transform(seen) @ svd.components_}
    lists = {name: top_k_items(s, k=10, exclude=seen) for name, s in scores.items()}
    return lists, held_out, train, len(user)


def _top_n_part(args):
    from .. import recommendation_report

    lists, held_out, train, n_rows = _recommenders(args)
    names = [name for _, name in _TOP_N_ROWS]
    rows = {}
    for recommended in lists.values():
        report = recommendation_report(recommended, held_out, train=train,
                                       n_items=_N_ITEMS, metrics=names,
                                       output="dict")
        for label, name in _TOP_N_ROWS:
            rows.setdefault(label, []).append(report[name])
    print(f"\n4. Top-10 recommendations (sklearn_rankeval.datasets."
          f"make_interactions): {args.n_users} users,\n{_N_ITEMS} items, "
          f"{n_rows} interactions, {_HELD_SHARE:.0%} of each user's held out; "
          "the training items\nare never recommended again "
          "(top_k_items(..., exclude=)).\n")
    print(_table("", list(lists), rows))
    # the figure draws the lists the report averages: the users with a
    # held-out item
    evaluated = np.unique(held_out["user"])
    lists = {name: {column: values[np.isin(rec["user"], evaluated)]
                    for column, values in rec.items()}
             for name, rec in lists.items()}
    print("coverage: share of the catalog recommended; Gini: concentration "
          "of the exposure\n(0 = equal); novelty: mean -log2 of an item's "
          "share of training users; ARP: mean\ntraining interactions of the "
          "items recommended (popularity bias).")
    return lists, train


def run(args):
    """The four parts, then the PNG files (with ``--out``)."""
    t0 = time.perf_counter()
    y, groups, scores, segments = _click_part(args)
    _ctr_part(y, groups, scores, segments)
    _digits_part(args)
    lists, train = _top_n_part(args)
    print()
    _demo_plots(args.out, y, groups, scores, segments, lists, train)
    print(f"done in {time.perf_counter() - t0:.1f} s")
    return 0


def _demo_plots(out, y, groups, scores, segments, lists, train):
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print(f"The displays (PNG files) need matplotlib: {PLOT_HINT}")
        return
    if out is None:
        print("Add --out DIR to write every display as a PNG file.")
        return
    import pandas as pd

    # the segments in the table's order (light, medium, heavy), not sorted
    segments = pd.Categorical(segments, categories=SEGMENTS)
    paths = write_pngs(out, y, groups, {k: scores[k] for k in list(scores)[:2]},
                       {TUNED: scores[TUNED], BALANCED: scores[BALANCED]},
                       segments, lists, train, n_items=_N_ITEMS)
    for path in paths:
        print(f"wrote {path}")
