"""Multiclass ranking of the true class (W3) beside scikit-learn and the sorts.

    python benchmarks/run.py multiclass --samples 1000000 --repeat 3

``hit_rate_score(k=5)`` and ``mean_reciprocal_rank_score`` on ``--samples``
samples x 100 classes of probabilities, beside ``np.argsort`` of the
flattened scores, ``np.argpartition(P, -5, axis=1)``, scikit-learn's
``top_k_accuracy_score(k=5)`` and torchmetrics' ``MulticlassAccuracy`` where
installed (values checked equal); then the measured reason of each ranker:
the multiclass counts against the same input as 2-D one-hot relevance, and
the generic (Array API) ranker on NumPy against the compiled pass (W1 GAUC).
"""

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _data import click_log, multiclass  # noqa: E402
from _timing import emit, paired, timed  # noqa: E402

import sklearn_rankeval as rk  # noqa: E402
from sklearn_rankeval._engine import _dispatch  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    from sklearn.metrics import top_k_accuracy_score

    y, P = multiclass(args.samples)
    labels = np.arange(P.shape[1])
    ref = timed(lambda: np.argsort(P.ravel()), args.repeat).median
    part = timed(lambda: np.argpartition(P, -5, axis=1), args.repeat).median
    hr = timed(lambda: rk.hit_rate_score(y, P, k=5, labels=labels), args.repeat)
    mrr = timed(lambda: rk.mean_reciprocal_rank_score(y, P, labels=labels),
                args.repeat)
    sk = timed(lambda: top_k_accuracy_score(y, P, k=5, labels=labels), args.repeat)
    assert abs(sk.result - hr.result) < 1e-12
    emit(what="W3", samples=args.samples, argsort_s=ref, argpartition_s=part,
         hr5_s=hr.median, mrr_s=mrr.median, sklearn_top_k_s=sk.median,
         hr_over_sklearn=hr.median / sk.median, mrr_over_argpartition=mrr.median / part,
         hr5=float(hr.result), mrr=float(mrr.result))
    try:
        import torch
        from torchmetrics.classification import MulticlassAccuracy
    except ImportError:
        emit(what="W3 torchmetrics", note="not installed")
    else:
        preds, target = torch.from_numpy(P), torch.from_numpy(y)
        t = timed(lambda: float(MulticlassAccuracy(num_classes=P.shape[1], top_k=5,
                                                   average="micro")(preds, target)),
                  args.repeat)
        emit(what="W3 torchmetrics MulticlassAccuracy(top_k=5)", median_s=t.median,
             value=t.result)
    onehot = np.zeros(P.shape, dtype=np.int8)
    onehot[np.arange(P.shape[0]), y] = 1
    a, b, r = paired(lambda: rk.mean_reciprocal_rank_score(y, P),
                     lambda: rk.mean_reciprocal_rank_score(onehot, P),
                     max(args.repeat // 3, 1))
    emit(what="W3 MRR: multiclass ranker vs 2-D one-hot", multiclass_s=a, onehot_s=b,
         speedup=r)
    yw, sw, gw = click_log(100_000)
    old = _dispatch.ENGINE_PATH

    def generic():
        _dispatch.ENGINE_PATH = "generic"
        try:
            rk.gauc_score(yw, sw, groups=gw)
        finally:
            _dispatch.ENGINE_PATH = old

    a, b, r = paired(lambda: rk.gauc_score(yw, sw, groups=gw), generic, args.repeat)
    emit(what=f"W1 {len(yw):,} rows GAUC: generic ranker on NumPy", compiled_s=a,
         generic_s=b, ratio=r)


if __name__ == "__main__":
    main()
