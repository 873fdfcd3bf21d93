"""The one harness of ``benchmarks/``: one workload per script, run from here.

    python benchmarks/run.py --list
    python benchmarks/run.py gauc --part ratio --repeat 7
    python benchmarks/run.py scaling --part gauc --rows 1e6 2e6 1e7 2e7 --repeat 5
    python benchmarks/run.py ids --repeat 7 --json results.jsonl

The first argument names the workload (a script of this folder, named by
what it times); the others are that script's own (``run.py NAME --help``).
The harness prints one line on the machine first -- Python, NumPy, cores,
the engine's threads, the load and this machine's ``np.sort`` /
``np.argsort`` of 2M float64, the yardstick of the figures -- and, with
``--json FILE`` (before the workload's name), appends every measurement the
workload emits to FILE (JSON lines).  The package is imported from this
checkout (built in place: ``python setup.py build_ext --inplace``).  Every script times through
``_timing.py`` and draws its rows from ``_data.py`` (fixed seeds); the
scripts also run on their own (``python benchmarks/gauc.py ...``).
"""

import argparse
import importlib
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))  # this checkout's package (built in place)
os.environ["PYTHONPATH"] = os.pathsep.join(  # (and the workloads' child processes)
    [str(HERE.parent), *filter(None, [os.environ.get("PYTHONPATH")])])

#: Workload -> what it times.
WORKLOADS = {
    "gauc": "GAUC of a shuffled click log (W1) beside np.argsort, np.bincount, "
            "the peers",
    "scaling": "the scaling table (GAUC ns a row, 1M to 200M rows), memory, the "
               "Parquet click log of 100M-1B rows through `rankeval evaluate`",
    "ir_report": "MAP, MRR, NDCG@10, P@10, R@10 of a retrieval run (W2) beside "
                 "pytrec_eval, ranx, torchmetrics",
    "retrieval": "retrieval_report (nDCG@10, MRR@10, R@1000) on MS MARCO dev's "
                 "shape (7M rows) beside pytrec_eval",
    "multiclass": "HR@5 and MRR of the true class (W3) beside scikit-learn",
    "ids": "string, Categorical, string[pyarrow], Arrow dictionary ids beside "
           "int ids",
    "ctr": "the CTR report (log loss, NE, PCOC, ECE) beside np.argsort and "
           "torcheval",
    "per_group": "per-group frames and the streaming accumulator",
    "cli": "`rankeval evaluate` beside pandas.read_csv + the function",
    "recommend": "recommendation_report beside Microsoft Recommenders and RecTools",
    "top_k": "top_k_items beside np.argpartition",
    "xauc": "the xAUC core beside a sort and scipy's kendalltau",
    "compare": "the group bootstrap and compare_rankings beside ranx, and "
               "`rankeval compare`'s TREC arrays beside the per-query rule",
    "trec_arrays": "a TREC run as arrays (`rankeval trec`) beside the per-query "
                   "loop, and where its time goes",
    "stats_cost": "the cost of compare_rankings' designs (all pairs, maxT, runs)",
    "stats_simulation": "type I error and power of every test of compare_rankings "
                        "(a simulation, not a timing)",
    "cli_svmlight": "`rankeval evaluate` on an svmlight file beside "
                    "load_svmlight_file + the function",
    "counterfactual": "position-bias EM and counterfactual_report",
    "distributed": "the Spark and Dask reports beside the in-memory report",
    "gpu": "the Array API path on PyTorch tensors beside torch.sort",
    "before_after": "the engine's common cases here and at an earlier commit",
    "diversity": "alpha-nDCG, ERR-IA, NRBP, subtopic recall, intent-aware P, "
                 "D#-nDCG (grades per intent) beside ndcg_score",
    "exposure": "expected exposure over sampled rankings (and a Plackett-Luce "
                "policy) beside np.argsort",
    "accumulator_columns": "the accumulator's batches with exposure and "
                           "diversity columns beside one report",
}


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="workloads:\n" + "\n".join(f"  {k:15s} {v}"
                                          for k, v in WORKLOADS.items()))
    parser.add_argument("--list", action="store_true", help="list the workloads")
    parser.add_argument("--json", default=None,
                        help="append the measurements to this JSON-lines file")
    parser.add_argument("--no-machine", action="store_true",
                        help="skip the machine line (and its sort timing)")
    parser.add_argument("workload", nargs="?", choices=list(WORKLOADS))
    parser.add_argument("args", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    if args.list or args.workload is None:
        for name, text in WORKLOADS.items():
            print(f"{name:15s} {text}")
        return
    import _timing

    if not args.no_machine:
        print(_timing.machine(), flush=True)
    if args.json:
        _timing.write_to(args.json)
    module = importlib.import_module(args.workload)
    module.main(args.args)


if __name__ == "__main__":
    main()
