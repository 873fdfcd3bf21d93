"""Benchmarks of sklearn_rankeval beside its peers, on their own workloads.

    python benchmarks/run.py --workload W1 --repeat 3
    python benchmarks/run.py --workload all --repeat 3 --json results.json

Workloads (fixed seed; ``--scale`` shrinks them for a quick look):

* W1 click log: 10,000,000 rows in ~1,000,000 users (sizes 1-100), rows
  shuffled, ~10% positives, scores rounded to 4 decimals.  GAUC.
* W2 retrieval run: 100,000 queries x 100 documents, graded relevance 0-3
  (~5% relevant), no ties; MAP, MRR, NDCG@10, P@10, R@10, grouped layout (rows
  grouped by query, as in a run file) and 2-D layout.
* W3 multiclass: 1,000,000 samples x 100 classes of probabilities; HR@5 and
  MRR of the true class.
* scale: GAUC on the W1 generator at 1M, 10M and 100M rows.

Each line gives the median / min / max seconds over ``--repeat`` runs, the
peak memory traced by ``tracemalloc`` in a separate run (numpy allocations;
"-" for tools whose memory it cannot see), the value (checked equal across
tools), and the ratio of the median to ``np.argsort(y_score)`` of the same
rows timed in the same run.  Peers that would take minutes run on a sample of
groups and are extrapolated linearly in the number of groups; those lines are
marked "extrapolated".  Peers missing from the environment are skipped (``pip
install ".[bench]"`` and ``pip install torch`` -- the CPU build -- for all).
"""

import argparse
import gc
import json
import platform
import time
import tracemalloc
import warnings

import numpy as np

import sklearn_rankeval as rk

ROWS = []


# ---------------------------------------------------------------------------
# measuring
# ---------------------------------------------------------------------------
def _peak_memory(fn):
    gc.collect()
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def measure(workload, name, fn, *, repeat, reference=None, value=None,
            memory=True, note="", factor=1.0, input_bytes=None):
    """Time ``fn`` ``repeat`` times (after one warm-up run) and record a row."""
    result = fn()  # warm-up: page faults, caches, JIT
    times = []
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    times = np.array(times) * factor
    peak = _peak_memory(fn) if memory else None
    if value is not None:
        result = value(result)
    if not isinstance(result, (float, int, np.floating, np.integer)):
        result = None  # e.g. the permutation of a sort, built objects
    row = {
        "workload": workload, "name": name, "median": float(np.median(times)),
        "min": float(times.min()), "max": float(times.max()),
        "peak_mb": None if peak is None else peak / 1e6,
        "value": None if result is None else float(result),
        "note": note,
    }
    if reference is not None:
        row["ratio"] = row["median"] / reference
    if input_bytes is not None and peak is not None:
        row["peak_over_input"] = peak / input_bytes
    ROWS.append(row)
    _print_row(row)
    return row


def _print_row(row):
    peak = "-" if row["peak_mb"] is None else f"{row['peak_mb']:.0f}"
    ratio = f"{row['ratio']:.2f}" if "ratio" in row else "-"
    value = "-" if row["value"] is None else f"{row['value']:.6f}"
    print(f"{row['workload']:6s} {row['name']:44s} {row['median']:9.3f} "
          f"{row['min']:9.3f} {row['max']:9.3f} {peak:>8s} {ratio:>8s} "
          f"{value:>10s}  {row['note']}", flush=True)


def header():
    print(f"{'':6s} {'measurement':44s} {'median s':>9s} {'min s':>9s} "
          f"{'max s':>9s} {'peak MB':>8s} {'/argsort':>8s} {'value':>10s}")


def check_equal(a, b, what, tol=1e-9):
    if a is None or b is None or not np.isfinite([a, b]).all():
        return
    if abs(a - b) > tol * max(1.0, abs(a)):
        warnings.warn(f"values differ for {what}: {a!r} != {b!r}", stacklevel=2)
        print(f"  !! values differ for {what}: {a!r} != {b!r}")


def _optional(module):
    try:
        return __import__(module)
    except ImportError:
        print(f"  ({module} not installed: its lines are skipped)")
        return None


# ---------------------------------------------------------------------------
# data
# ---------------------------------------------------------------------------
def click_log(n_users, seed=0):
    """W1: users of 1-100 impressions (mean ~10), shuffled rows, 4-decimal scores."""
    rng = np.random.default_rng(seed)
    sizes = np.clip(rng.geometric(0.1, n_users), 1, 100)
    groups = np.repeat(np.arange(n_users), sizes)
    n = groups.shape[0]
    user_rate = rng.normal(size=n_users)[groups]
    logit = user_rate + rng.normal(size=n)
    y_score = np.round(1 / (1 + np.exp(-logit)), 4)
    y_true = (rng.random(n) < 0.2 * y_score).astype(np.int8)
    order = rng.permutation(n)
    return y_true[order], y_score[order], groups[order]


def retrieval_run(n_queries, n_docs=100, seed=1):
    """W2: graded relevance 0-3 (~5% relevant), continuous scores (no ties)."""
    rng = np.random.default_rng(seed)
    relevant = rng.random((n_queries, n_docs)) < 0.05
    Y = np.where(relevant, rng.integers(1, 4, (n_queries, n_docs)), 0).astype(np.int64)
    S = rng.random((n_queries, n_docs)) + 0.3 * Y
    return Y, S


def multiclass(n_samples, n_classes=100, seed=2):
    """W3: softmax probabilities, true class boosted."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n_samples)
    logits = rng.normal(size=(n_samples, n_classes))
    logits[np.arange(n_samples), y] += 1.5
    P = np.exp(logits)
    P /= P.sum(axis=1, keepdims=True)
    return y, P


# ---------------------------------------------------------------------------
# W1
# ---------------------------------------------------------------------------
def workload_w1(args):
    n_users = int(1_000_000 * args.scale)
    y, s, g = click_log(n_users)
    print(f"# W1: {len(y):,} rows, {n_users:,} users, {y.mean():.1%} positives")
    input_bytes = y.nbytes + s.nbytes + g.nbytes
    ref = measure("W1", "np.argsort(y_score)", lambda: np.argsort(s),
                  repeat=args.repeat)["median"]
    ours = measure("W1", "sklearn_rankeval gauc_score", lambda: rk.gauc_score(
        y, s, groups=g), repeat=args.repeat, reference=ref, input_bytes=input_bytes)
    print(f"       peak memory / input bytes = {ours['peak_over_input']:.2f}")
    per_group = rk.gauc_score(y, s, groups=g, average=None)
    ids = np.unique(g)

    # peers on a sample of groups, extrapolated by the number of groups
    rng = np.random.default_rng(5)
    sample_ids = rng.choice(ids, min(args.sample_groups, len(ids)), replace=False)
    mask = np.isin(g, sample_ids)
    ys, ss, gs = y[mask], s[mask], g[mask]
    factor = len(ids) / len(sample_ids)
    sample_expected = np.nanmean(per_group[np.searchsorted(ids, np.sort(sample_ids))])
    note = f"extrapolated from {len(sample_ids):,} groups (x{factor:.0f})"
    from sklearn.metrics import roc_auc_score

    def python_loop():
        order = np.argsort(gs, kind="stable")
        go = gs[order]
        bounds = np.flatnonzero(np.diff(go)) + 1
        values = []
        for yy, sc in zip(np.split(ys[order], bounds), np.split(ss[order], bounds)):
            if 0 < yy.sum() < len(yy):
                values.append(roc_auc_score(yy, sc))
        return np.mean(values)

    row = measure("W1", "python loop of roc_auc_score", python_loop, repeat=1,
                  reference=ref, memory=False, note=note, factor=factor)
    check_equal(row["value"], sample_expected, "W1 python loop")
    pd = _optional("pandas")
    if pd is not None:
        frame = pd.DataFrame({"y": ys, "s": ss, "g": gs})

        def pandas_apply():
            def auc(d):
                return roc_auc_score(d["y"], d["s"]) if 0 < d["y"].sum() < len(d) \
                    else np.nan
            return frame.groupby("g")[["y", "s"]].apply(auc).mean()

        row = measure("W1", "pandas groupby().apply(roc_auc_score)", pandas_apply,
                      repeat=1, reference=ref, memory=False, note=note, factor=factor)
        check_equal(row["value"], sample_expected, "W1 pandas")
    torch = _optional("torch")
    tm = _optional("torchmetrics") if torch is not None else None
    if tm is not None:
        from torchmetrics.retrieval import RetrievalAUROC

        # one-class groups are skipped, as GAUC does
        keep = np.isin(g, ids[~np.isnan(per_group)])
        preds, target = torch.from_numpy(s[keep]), torch.from_numpy(y[keep] > 0)
        indexes = torch.from_numpy(g[keep])

        def torch_auroc():
            metric = RetrievalAUROC(empty_target_action="skip")
            return float(metric(preds, target, indexes=indexes))

        row = measure("W1", "torchmetrics RetrievalAUROC(indexes)", torch_auroc,
                      repeat=1, reference=ref, memory=False,
                      note="full data, one-class groups removed")
        check_equal(row["value"], float(np.nanmean(per_group)), "W1 torchmetrics",
                    tol=1e-6)  # torchmetrics accumulates in float32
        print(f"       (our macro GAUC: {np.nanmean(per_group):.6f})")


# ---------------------------------------------------------------------------
# W2
# ---------------------------------------------------------------------------
# (label, pytrec_eval measure, pytrec_eval result key, our function)
W2_METRICS = [
    ("MAP", "map", "map",
     lambda y, s, **kw: rk.mean_average_precision_score(y, s, **kw)),
    ("MRR", "recip_rank", "recip_rank",
     lambda y, s, **kw: rk.mean_reciprocal_rank_score(y, s, **kw)),
    ("NDCG@10", "ndcg_cut.10", "ndcg_cut_10",
     lambda y, s, **kw: rk.ndcg_score(y, s, k=10, **kw)),
    ("P@10", "P.10", "P_10",
     lambda y, s, **kw: rk.precision_at_k_score(y, s, k=10, **kw)),
    ("R@10", "recall.10", "recall_10",
     lambda y, s, **kw: rk.recall_at_k_score(y, s, k=10, **kw)),
]
RANX_NAMES = {"MAP": "map", "MRR": "mrr", "NDCG@10": "ndcg@10",
              "P@10": "precision@10", "R@10": "recall@10"}
REPORT_NAMES = ["map", "mrr", "ndcg@10", "precision@10", "recall@10"]


def workload_w2(args):
    n_queries = int(100_000 * args.scale)
    Y, S = retrieval_run(n_queries)
    y, s = Y.ravel(), S.ravel()
    g = np.repeat(np.arange(n_queries), Y.shape[1])
    print(f"# W2: {n_queries:,} queries x {Y.shape[1]} docs, "
          f"{(Y > 0).mean():.1%} relevant, {(~(Y > 0).any(axis=1)).sum()} queries "
          f"without a relevant document (left out by every tool)")
    ref = measure("W2", "np.argsort(y_score)", lambda: np.argsort(s),
                  repeat=args.repeat)["median"]
    values = {}
    for label, _, _, fn in W2_METRICS:
        row = measure("W2", f"ours {label} (grouped)", lambda fn=fn: fn(
            y, s, groups=g), repeat=args.repeat, reference=ref)
        values[label] = row["value"]
    row = measure("W2", "ours ranking_report, all five (grouped)",
                  lambda: rk.ranking_report(y, s, groups=g, metrics=REPORT_NAMES,
                                            output_dict=True),
                  repeat=args.repeat, reference=ref, value=lambda d: d["map"])
    for label, _, _, fn in W2_METRICS:
        row = measure("W2", f"ours {label} (2-D)", lambda fn=fn: fn(
            Y, S), repeat=args.repeat, reference=ref)
        check_equal(row["value"], values[label], f"W2 2-D {label}")
    from sklearn.metrics import ndcg_score as sk_ndcg

    row = measure("W2", "sklearn ndcg_score(k=10) (2-D)", lambda: sk_ndcg(Y, S, k=10),
                  repeat=args.repeat, reference=ref)
    # sklearn scores queries without a relevant document 0 and counts them
    check_equal(row["value"], rk.ndcg_score(Y, S, k=10, undefined=0.0),
                "W2 sklearn ndcg")

    pytrec_eval = _optional("pytrec_eval")
    if pytrec_eval is not None:
        judged = np.flatnonzero((Y > 0).any(axis=1))

        def build():
            # queries without a relevant document have no judgments: every tool
            # leaves them out, as our undefined="skip"
            qids = [f"q{i}" for i in range(n_queries)]
            dids = [f"d{j}" for j in range(Y.shape[1])]
            qrel = {qids[i]: {dids[j]: int(Y[i, j]) for j in np.flatnonzero(Y[i])}
                    for i in judged}
            run = {qids[i]: dict(zip(dids, S[i].tolist())) for i in judged}
            return qrel, run

        measure("W2", "pytrec_eval: build dicts", build, repeat=1, reference=ref,
                memory=False)
        qrel, run = build()
        for label, measure_name, trec_name, _ in W2_METRICS:
            evaluator = pytrec_eval.RelevanceEvaluator(qrel, {measure_name})

            def evaluate(evaluator=evaluator, trec_name=trec_name):
                res = evaluator.evaluate(run)
                return np.mean([v[trec_name] for v in res.values()])

            row = measure("W2", f"pytrec_eval evaluate {label}", evaluate,
                          repeat=args.repeat, reference=ref, memory=False)
            check_equal(row["value"], values[label], f"W2 pytrec_eval {label}")
        all5 = pytrec_eval.RelevanceEvaluator(
            qrel, {"map", "recip_rank", "ndcg_cut.10", "P.10", "recall.10"})
        measure("W2", "pytrec_eval evaluate, all five", lambda: all5.evaluate(run),
                repeat=args.repeat, reference=ref, memory=False,
                value=lambda res: np.mean([v["map"] for v in res.values()]))
    ranx = _optional("ranx")
    if ranx is not None and pytrec_eval is not None:
        from ranx import Qrels, Run, evaluate

        row = measure("W2", "ranx: build Qrels and Run", lambda: (
            Qrels(qrel), Run(run)), repeat=1, reference=ref, memory=False)
        qrels_r, run_r = Qrels(qrel), Run(run)
        evaluate(qrels_r, run_r, list(RANX_NAMES.values()))  # JIT warm-up
        for label, *_ in W2_METRICS:
            row = measure("W2", f"ranx evaluate {label}", lambda label=label: evaluate(
                qrels_r, run_r, RANX_NAMES[label]), repeat=args.repeat, reference=ref,
                memory=False)
            check_equal(row["value"], values[label], f"W2 ranx {label}")
    torch = _optional("torch")
    tm = _optional("torchmetrics") if torch is not None else None
    if tm is not None:
        from torchmetrics import retrieval as R

        preds, target = torch.from_numpy(s), torch.from_numpy(y)
        indexes = torch.from_numpy(g)
        metrics = {"MAP": (R.RetrievalMAP, {}, True), "MRR": (R.RetrievalMRR, {}, True),
                   "NDCG@10": (R.RetrievalNormalizedDCG, {"top_k": 10}, False),
                   "P@10": (R.RetrievalPrecision, {"top_k": 10}, True),
                   "R@10": (R.RetrievalRecall, {"top_k": 10}, True)}
        for label, (cls, kw, binary) in metrics.items():
            tgt = target > 0 if binary else target

            def run_tm(cls=cls, kw=kw, tgt=tgt):
                return float(cls(empty_target_action="skip", **kw)(
                    preds, tgt, indexes=indexes))

            row = measure("W2", f"torchmetrics {cls.__name__}", run_tm, repeat=1,
                          reference=ref, memory=False)
            check_equal(row["value"], values[label], f"W2 torchmetrics {label}",
                        tol=1e-6)


# ---------------------------------------------------------------------------
# W3
# ---------------------------------------------------------------------------
def workload_w3(args):
    n = int(1_000_000 * args.scale)
    y, P = multiclass(n)
    print(f"# W3: {n:,} samples x {P.shape[1]} classes")
    ref = measure("W3", "np.argsort(P) (flattened rows)", lambda: np.argsort(P.ravel()),
                  repeat=args.repeat)["median"]
    part = measure("W3", "np.argpartition(P, -5, axis=1)",
                   lambda: np.argpartition(P, -5, axis=1), repeat=args.repeat,
                   reference=ref)["median"]
    labels = np.arange(P.shape[1])
    hr = measure("W3", "ours hit_rate_score(k=5)", lambda: rk.hit_rate_score(
        y, P, k=5, labels=labels), repeat=args.repeat, reference=ref)
    mrr = measure("W3", "ours mean_reciprocal_rank_score", lambda: (
        rk.mean_reciprocal_rank_score(y, P, labels=labels)), repeat=args.repeat,
        reference=ref)
    from sklearn.metrics import top_k_accuracy_score

    sk = measure("W3", "sklearn top_k_accuracy_score(k=5)", lambda: (
        top_k_accuracy_score(y, P, k=5, labels=labels)), repeat=args.repeat,
        reference=ref)
    check_equal(sk["value"], hr["value"], "W3 top-k")
    print(f"       HR@5 / sklearn = {hr['median'] / sk['median']:.3f}, "
          f"MRR / argpartition = {mrr['median'] / part:.3f}")
    torch = _optional("torch")
    tm = _optional("torchmetrics") if torch is not None else None
    if tm is not None:
        from torchmetrics.classification import MulticlassAccuracy

        preds, target = torch.from_numpy(P), torch.from_numpy(y)

        def run_tm():
            metric = MulticlassAccuracy(num_classes=P.shape[1], top_k=5,
                                        average="micro")
            return float(metric(preds, target))

        row = measure("W3", "torchmetrics MulticlassAccuracy(top_k=5)", run_tm,
                      repeat=args.repeat, reference=ref, memory=False)
        check_equal(row["value"], hr["value"], "W3 torchmetrics", tol=1e-6)


# ---------------------------------------------------------------------------
# scaling
# ---------------------------------------------------------------------------
def workload_scale(args):
    sizes = [int(v * args.scale) for v in (100_000, 1_000_000, 10_000_000)]
    medians = []
    for n_users in sizes:
        y, s, g = click_log(n_users, seed=3)
        n = len(y)
        input_bytes = y.nbytes + s.nbytes + g.nbytes
        ref = measure("scale", f"np.argsort(y_score), {n:,} rows",
                      lambda s=s: np.argsort(s), repeat=args.repeat,
                      memory=False)["median"]
        row = measure("scale", f"gauc_score, {n:,} rows",
                      lambda y=y, s=s, g=g: rk.gauc_score(y, s, groups=g),
                      repeat=args.repeat, reference=ref, input_bytes=input_bytes)
        print(f"       peak memory / input bytes = {row['peak_over_input']:.2f}")
        medians.append((n, row["median"]))
    for (n0, t0), (n1, t1) in zip(medians, medians[1:]):
        print(f"       {n0:,} -> {n1:,} rows ({n1 / n0:.1f}x): time x{t1 / t0:.2f}")


WORKLOADS = {"W1": workload_w1, "W2": workload_w2, "W3": workload_w3,
             "scale": workload_scale}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1].strip(),
                                     formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--workload", choices=[*WORKLOADS, "all"], default="all")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--scale", type=float, default=1.0,
                        help="fraction of the default sizes (quick runs)")
    parser.add_argument("--sample-groups", type=int, default=5000,
                        help="groups timed for the per-group Python peers")
    parser.add_argument("--json", help="also write the rows to this JSON file")
    args = parser.parse_args(argv)
    import sklearn

    print(f"# {time.strftime('%Y-%m-%d')}, {platform.machine()}, "
          f"python {platform.python_version()}, numpy {np.__version__}, "
          f"scikit-learn {sklearn.__version__}, sklearn_rankeval {rk.__version__}")
    header()
    names = list(WORKLOADS) if args.workload == "all" else [args.workload]
    for name in names:
        WORKLOADS[name](args)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(ROWS, fh, indent=1)


if __name__ == "__main__":
    main()
