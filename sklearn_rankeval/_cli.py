"""The ``rankeval`` command line (also ``python -m sklearn_rankeval``)."""

import argparse
import sys
import time

import numpy as np

__all__ = ["main"]

_METRIC_ROWS = [
    ("AUC (global)", None),
    ("GAUC", "gauc"),
    ("MRR", "mrr"),
    ("MAP", "map"),
    ("MAP@10", "map@10"),
    ("NDCG@10", "ndcg@10"),
    ("HR@10", "hit_rate@10"),
    ("P@10", "precision@10"),
    ("R@10", "recall@10"),
    ("11-point AP", "interpolated_ap"),
]


def _ranking_metrics(y, score, groups):
    from sklearn.metrics import roc_auc_score

    from . import (
        gauc_score,
        hit_rate_score,
        interpolated_average_precision_score,
        mean_average_precision_score,
        mean_reciprocal_rank_score,
        ndcg_score,
        precision_at_k_score,
        recall_at_k_score,
    )

    kw = dict(groups=groups)
    return {
        "AUC (global)": roc_auc_score(y, score),
        "GAUC": gauc_score(y, score, **kw),
        "MRR": mean_reciprocal_rank_score(y, score, **kw),
        "MAP": mean_average_precision_score(y, score, **kw),
        "MAP@10": mean_average_precision_score(y, score, k=10, **kw),
        "NDCG@10": ndcg_score(y, score, k=10, **kw),
        "HR@10": hit_rate_score(y, score, k=10, **kw),
        "P@10": precision_at_k_score(y, score, k=10, **kw),
        "R@10": recall_at_k_score(y, score, k=10, **kw),
        "11-point AP": interpolated_average_precision_score(y, score, **kw),
    }


def _table(title, columns, rows):
    width = max(len(r) for r in rows) + 2
    out = [title, " " * width + "".join(f"{c:>22s}" for c in columns)]
    for name, values in rows.items():
        out.append(f"{name:<{width}s}" + "".join(f"{v:22.4f}" for v in values))
    return "\n".join(out)


def demo(args):
    """Fit two click models and print every metric for both."""
    from sklearn.datasets import load_digits
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GroupShuffleSplit, train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from . import (
        f_alpha_score,
        hit_rate_score,
        mean_average_precision_score,
        mean_reciprocal_rank_score,
        ndcg_score,
    )
    from .datasets import make_click_log

    t0 = time.perf_counter()
    X, y, groups = make_click_log(n_users=args.n_users, random_state=args.seed)
    train, test = next(GroupShuffleSplit(test_size=0.5, random_state=args.seed)
                       .split(X, y, groups))
    models = {
        "user-activity only": (LogisticRegression(), [0]),
        "all features": (LogisticRegression(), slice(None)),
    }
    rows = {}
    for model, cols in models.values():
        model.fit(X[train][:, cols], y[train])
        score = model.predict_proba(X[test][:, cols])[:, 1]
        metrics = _ranking_metrics(y[test], score, groups[test])
        pred = model.predict(X[test][:, cols])
        metrics["F1"] = f_alpha_score(y[test], pred, zero_division=0.0)
        metrics["F-alpha (alpha=0.25)"] = f_alpha_score(y[test], pred, alpha=0.25,
                                                        zero_division=0.0)
        for metric, value in metrics.items():
            rows.setdefault(metric, []).append(value)
    print(f"Click log: {len(np.unique(groups))} users, {len(y)} impressions, "
          f"{y.mean():.1%} clicks; half of the users held out for testing.")
    print(_table("", list(models), rows))
    print("\nThe user-activity feature separates active from inactive users (high "
          "global AUC)\nbut cannot rank one user's items: its GAUC is about 0.5.")

    digits_X, digits_y = load_digits(return_X_y=True)
    Xtr, Xte, ytr, yte = train_test_split(digits_X, digits_y, random_state=args.seed)
    classifier = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
    proba = classifier.fit(Xtr, ytr).predict_proba(Xte)
    mc = {
        "MRR": mean_reciprocal_rank_score(yte, proba),
        "HR@1 (accuracy)": hit_rate_score(yte, proba, k=1),
        "HR@3": hit_rate_score(yte, proba, k=3),
        "MAP": mean_average_precision_score(yte, proba),
        "NDCG": ndcg_score(yte, proba),
    }
    print("\n" + _table("Digits as a multiclass ranking (true class among 10):",
                        ["scaled LogisticRegression"],
                        {k: [v] for k, v in mc.items()}))
    print(f"\ndone in {time.perf_counter() - t0:.1f} s")
    return 0


def main(argv=None):
    """Entry point of the ``rankeval`` console script."""
    parser = argparse.ArgumentParser(
        prog="rankeval", description="Grouped ranking metrics for scikit-learn.")
    sub = parser.add_subparsers(dest="command", required=True)
    p_demo = sub.add_parser("demo", help="fit two click models and print every metric")
    p_demo.add_argument("--n-users", type=int, default=2000,
                        help="users in the synthetic click log (default 2000)")
    p_demo.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p_demo.set_defaults(func=demo)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
