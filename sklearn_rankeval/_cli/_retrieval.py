"""``rankeval evaluate-retrieval RUN QRELS``: ``retrieval_report`` on files.

RUN is a TREC run (``query Q0 doc rank score tag``) or a CSV/TSV with a
header naming ``query_id``, ``doc_id`` and ``score``; QRELS is TREC qrels,
a BEIR dataset folder (its ``qrels/<split>.tsv``) or such a TSV, or a
CSV/TSV with ``query_id``, ``doc_id`` and ``relevance``.
"""

import sys

from .._core import InvalidArgumentError
from .._retrieval import CONVENTIONS, read_qrels_file, read_run_file
from ._messages import UsageError, relayed_warnings
from ._options import level, nonnegative_int, positive_int
from ._output import write_json

__all__ = ["add_parser", "run"]

DEFAULT_METRICS = ("ndcg@10", "mrr@10", "recall@100", "judged@10")


def add_parser(sub):
    p = sub.add_parser(
        "evaluate-retrieval",
        help="a retrieval run against its qrels, by any harness's rules",
        description="Evaluate a retrieval run against its qrels "
                    "(retrieval_report): RUN is a TREC run file or a CSV/TSV "
                    "with query_id, doc_id and score columns; QRELS is a TREC "
                    "qrels file, a BEIR dataset folder (qrels/<split>.tsv) or "
                    "a CSV/TSV with query_id, doc_id and relevance (any "
                    "number, e.g. an LLM judge's grade).")
    p.add_argument("run_file", metavar="RUN", help="the run")
    p.add_argument("qrels", metavar="QRELS", help="the qrels (file or BEIR folder)")
    p.add_argument("-m", "--metric", action="append", metavar="METRIC",
                   help="metric, repeatable: ndcg@10, mrr@10, recall@1000, "
                        "judged@10, hole@10, ir_measures' names, or the "
                        "convention's own (default: "
                        f"{' '.join(DEFAULT_METRICS)})")
    p.add_argument("--convention", choices=CONVENTIONS, default=None,
                   help="a harness's numbers by name (default: this library's "
                        "rules)")
    p.add_argument("--split", default="test",
                   help="the split of a BEIR folder (default test)")
    p.add_argument("--unjudged", choices=("zero", "drop", "report"),
                   default="zero",
                   help="an unjudged retrieved document is not relevant "
                        "(zero, default), is removed before ranking (drop), or "
                        "not relevant with hole@K reported beside each cutoff "
                        "(report)")
    p.add_argument("--duplicates", choices=("first", "error"), default="first",
                   help="a document repeated in a query's run counts once at "
                        "its best rank (first, default) or is an error")
    self_ids = p.add_mutually_exclusive_group()
    self_ids.add_argument("--exclude-self", dest="exclude_self",
                          action="store_true", default=None,
                          help="drop documents whose id is the query's "
                               "(default: the convention's rule, on under beir)")
    self_ids.add_argument("--keep-self", dest="exclude_self",
                          action="store_false",
                          help="keep documents whose id is the query's")
    p.add_argument("-c", "--complete", action="store_true",
                   help="average over every query of the qrels, a query "
                        "without results counting 0 (trec_eval's -c)")
    p.add_argument("--confidence", type=level, default=None, metavar="LEVEL",
                   help="bootstrap intervals over the queries at this level")
    p.add_argument("--n-resamples", type=positive_int, default=1000,
                   metavar="N", help="bootstrap resamples (default 1000)")
    p.add_argument("--seed", type=nonnegative_int, default=0,
                   help="random seed of the resamples (default 0)")
    p.add_argument("--format", choices=("table", "json"), default="table",
                   help="output format (default table)")
    p.set_defaults(handler=run)
    return p


def run(args):
    """The report of a run file against a qrels file or BEIR folder."""
    from .. import retrieval_report

    metrics = list(dict.fromkeys(args.metric or DEFAULT_METRICS))
    try:
        run_frame = read_run_file(args.run_file)
        qrels = read_qrels_file(args.qrels, split=args.split)
        with relayed_warnings("evaluate-retrieval"):
            result = retrieval_report(
                run_frame, qrels, metrics=metrics, convention=args.convention,
                unjudged=args.unjudged, duplicates=args.duplicates,
                exclude_self=args.exclude_self, complete=args.complete,
                confidence=args.confidence, n_resamples=args.n_resamples,
                random_state=args.seed,
                output="text" if args.format == "table" else "dict")
    except InvalidArgumentError as exc:
        where = {"run": args.run_file, "qrels": args.qrels}.get(exc.argument)
        raise UsageError(str(exc) if where is None else
                         f"{where}: {exc.problem}") from None
    except (ValueError, TypeError) as exc:
        raise UsageError(str(exc)) from None
    if args.format == "table":
        sys.stdout.write(result + "\n")
    else:
        write_json({"run": str(args.run_file), "qrels": str(args.qrels),
                    "convention": args.convention, "metrics": result})
    return 0
