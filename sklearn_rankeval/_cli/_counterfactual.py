"""``rankeval counterfactual``: :func:`~sklearn_rankeval.counterfactual_report`
of a click-log file, the naive, IPS and SNIPS estimates side by side, with
the propensities fitted by :class:`~sklearn_rankeval.PositionBiasEstimator`
or given."""

import sys

import numpy as np

from ._io import Column, InputFileError, read_columns
from ._messages import UsageError, file_values, relayed_warnings
from ._options import delimiter, level, nonnegative_int, positive_int
from ._output import write_json
from ._progress import add_quiet_option, progress_of

__all__ = ["add_parser", "propensity_list"]

_DESCRIPTION = """\
Estimate a new ranker's metrics from a click log of the ranker in production,
corrected for position bias, and print the naive, IPS and SNIPS estimates
side by side (counterfactual_report).

  rankeval counterfactual LOG --impression COL --click COL --position COL
                              --score COL [--item COL] [--confidence 0.95]

LOG is a CSV, TSV or Parquet file with one row per displayed item: the
impression id (one ranking shown once: a page view, not a query), the click
(0/1), the 1-based position it was shown at, and the new ranker's score.  The
propensities of the positions are fitted from the log (--method em or
harvest, which need --item: what was shown, e.g. a "query|document" column;
or randomized, for a log shown in shuffled order) or given
(--propensities 1,0.6,0.4,...).
"""


def propensity_list(text):
    """``--propensities``: comma-separated positive numbers."""
    import argparse

    try:
        values = [float(v) for v in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected comma-separated numbers (the propensity of positions 1, "
            f"2, ...), got {text!r}") from None
    return values


def add_parser(sub):
    import argparse

    p = sub.add_parser(
        "counterfactual",
        help="metrics of a new ranker from a click log: naive, IPS, SNIPS",
        description=_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("log", metavar="LOG", help="a CSV, TSV or Parquet click log")
    p.add_argument("--impression", required=True, metavar="COL",
                   help="column of the impression ids (one ranking shown once)")
    p.add_argument("--click", required=True, metavar="COL",
                   help="column of the clicks (0/1)")
    p.add_argument("--position", required=True, metavar="COL",
                   help="column of the 1-based positions shown")
    p.add_argument("--score", required=True, metavar="COL",
                   help="column of the new ranker's scores")
    p.add_argument("--item", metavar="COL",
                   help="column of the item ids (e.g. query|document), for "
                        "--method em or harvest")
    p.add_argument("--delimiter", type=delimiter, default=None, metavar="CHAR",
                   help="field separator of a text file")
    p.add_argument("--method", choices=("em", "harvest", "randomized"),
                   default="em",
                   help="how the propensities are fitted (default em); "
                        "ignored with --propensities")
    p.add_argument("--propensities", type=propensity_list, default=None,
                   metavar="P1,P2,...",
                   help="the propensities of positions 1, 2, ... instead of a fit")
    p.add_argument("--estimator", action="append",
                   choices=("naive", "ips", "snips"),
                   help="estimator, repeatable (default: naive ips snips)")
    p.add_argument("-m", "--metric", action="append", metavar="METRIC",
                   help="metric, repeatable (default: each estimator's own: "
                        "dcg@10 precision@10 avg_rel_rank; SNIPS recall@10)")
    p.add_argument("--clip", type=float, default=None, metavar="C",
                   help="largest inverse propensity, at least 1")
    p.add_argument("--confidence", type=level, default=None, metavar="LEVEL",
                   help="bootstrap intervals at this level, in (0, 1)")
    p.add_argument("--n-resamples", type=positive_int, default=1000, metavar="N",
                   help="bootstrap resamples (default 1000)")
    p.add_argument("--refit", action="store_true",
                   help="refit the propensities on each resample (with "
                        "--confidence and a fit)")
    p.add_argument("--seed", type=nonnegative_int, default=0,
                   help="random seed (default 0: the same numbers every run)")
    p.add_argument("--format", choices=("table", "json"), default="table",
                   help="output format (default table); json: the report's "
                        "dict by estimator and the propensities")
    add_quiet_option(p)
    p.set_defaults(handler=run)


def run(args):
    """The side-by-side counterfactual report of a click-log file."""
    from .. import PositionBiasEstimator, counterfactual_report

    if args.propensities is None and args.method != "randomized" and not args.item:
        raise UsageError(f"--method {args.method} fits the propensities from the "
                         f"items shown at several positions: give --item COL "
                         f"(or --method randomized, or --propensities)")
    if args.refit and args.propensities is not None:
        raise UsageError("--refit refits the propensities: it cannot go with "
                         "--propensities")
    columns = [Column("impression", args.impression),
               Column("click", args.click, True),
               Column("position", args.position, True),
               Column("score", args.score, True)]
    if args.item:
        columns.append(Column("item", args.item))
    progress = progress_of(args)
    table, values = read_columns(args.log, columns, delimiter=args.delimiter,
                                 progress=progress.rows(args.log))
    progress.close()
    by_argument = {"groups": columns[0], "clicks": columns[1],
                   "positions": columns[2], "y_score": columns[3]}
    if args.item:
        by_argument["items"] = columns[4]
    estimators = tuple(dict.fromkeys(args.estimator or ("naive", "ips", "snips")))
    try:
        with relayed_warnings("counterfactual"), \
                file_values(table, by_argument, values):
            if args.propensities is not None:
                propensities = args.propensities
            else:
                propensities = PositionBiasEstimator(method=args.method).fit(
                    values["click"], values["position"],
                    items=values.get("item"), groups=values["impression"])
            result = counterfactual_report(
                values["click"], values["score"], values["position"],
                groups=values["impression"], propensities=propensities,
                metrics=args.metric, estimator=estimators, clip=args.clip,
                confidence=args.confidence, n_resamples=args.n_resamples,
                random_state=args.seed, refit=args.refit,
                items=values.get("item"),
                output="dict" if args.format == "json" else "text")
    except ValueError as exc:
        if isinstance(exc, (UsageError, InputFileError)):
            raise
        raise UsageError(str(exc)) from None
    theta = np.asarray(getattr(propensities, "propensities_", propensities),
                       dtype=np.float64)
    if args.format == "json":
        write_json({"estimators": list(estimators),
                    "propensities": theta.tolist(),
                    "method": None if args.propensities is not None else args.method,
                    "confidence": args.confidence, "seed": args.seed,
                    "report": result})
    else:
        source = ("given" if args.propensities is not None
                  else f"fitted, method={args.method}")
        sys.stdout.write(f"propensities ({source}): "
                         + " ".join(f"{t:.4f}" for t in theta) + "\n")
        sys.stdout.write(result + "\n")
    return 0
