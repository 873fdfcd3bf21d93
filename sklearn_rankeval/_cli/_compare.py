"""``rankeval compare``: :func:`~sklearn_rankeval.compare_rankings`' table of
several models, from one file with a score column per model or from TREC
runs against qrels."""

import sys
from pathlib import Path

import numpy as np

from .._metrics import DEFAULT_METRICS
from ._io import Column, InputFileError, read_columns
from ._messages import UsageError, file_values, relayed_warnings
from ._options import (
    check_metrics,
    delimiter,
    level,
    margin,
    nonnegative_int,
    positive_int,
)
from ._output import write_json
from ._progress import add_quiet_option, progress_of
from ._trec import TrecError, align_runs, read_qrels, read_run

__all__ = ["add_parser"]

_DESCRIPTION = """\
Compare several models' rankings of the same items, group by group, and print
compare_rankings' table: for each metric and model the value, the difference
to the baseline with its paired bootstrap interval, the p-value of a paired
test over groups, the p-value adjusted over models x metrics, and the groups
won, tied and lost.

  rankeval compare FILE --group COL --label COL --score A --score B ...
      A CSV, TSV or Parquet file with one row per item and one score column
      per model (named by the column).  With one --score column (or one
      RUN): that model's metrics with their bootstrap intervals
      (ranking_report with confidence), nothing to compare.

  --design all_pairs compares every pair of models (blocked Tukey HSD, or
  --test randomized_tukey); --equivalence M adds the TOST p-value of
  |diff| < M and its (1 - 2 alpha) interval, --non-inferiority M the test of
  diff <= -M, --min-effect M a "practical" flag; --correction maxt adjusts
  over models x metrics by Westfall-Young's maxT.
  rankeval compare QRELS RUN_A RUN_B ...
      TREC files.  The queries are those of the qrels that some run
      retrieved for; each query's items are its judged documents and every
      document a run retrieved.  A run ranks its documents as trec_eval does
      (score, then document id descending); a document it did not retrieve
      scores -inf (unretrieved), and a query it did not retrieve for has only
      unretrieved documents.  Relevance: the qrels grade (unjudged: 0).  The
      models are named by the runs' tags, or by the file names when two tags
      are the same.
"""


def add_parser(sub):
    import argparse

    p = sub.add_parser(
        "compare", help="compare several models: differences, intervals, tests",
        description=_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inputs", nargs="+", metavar="INPUT",
                   help="a CSV, TSV or Parquet file with --score columns, or a "
                        "qrels file followed by TREC run files (one run: its "
                        "metrics with intervals)")
    p.add_argument("--group", metavar="COL", help="FILE: column of the group ids")
    p.add_argument("--label", metavar="COL",
                   help="FILE: column of the relevance labels")
    p.add_argument("--score", action="append", metavar="COL",
                   help="FILE: a model's score column, repeatable (one: that "
                        "model's metrics with intervals); the model is named "
                        "by the column")
    p.add_argument("--delimiter", type=delimiter, default=None, metavar="CHAR",
                   help="FILE: field separator of a text file")
    p.add_argument("-m", "--metric", action="append", metavar="METRIC",
                   help="metric, repeatable, named as get_scorer_names() "
                        f"(default: {' '.join(DEFAULT_METRICS)})")
    p.add_argument("--baseline", default=None, metavar="MODEL",
                   help="the model the others are compared with (default: "
                        "the first)")
    p.add_argument("--design", choices=("baseline", "all_pairs"),
                   default="baseline",
                   help="every model against the baseline, or every pair "
                        "(default baseline)")
    p.add_argument("--test", choices=("permutation", "t", "wilcoxon",
                                      "tukey_hsd", "randomized_tukey"),
                   default=None,
                   help="paired test over groups (default: permutation; with "
                        "--design all_pairs: tukey_hsd)")
    p.add_argument("--correction", choices=("holm", "bonferroni", "fdr_bh",
                                            "fdr_by", "maxt", "none"),
                   default="holm",
                   help="adjustment of the p-values over models x metrics "
                        "(default holm; all_pairs: Tukey's own)")
    p.add_argument("--equivalence", type=margin, default=None, metavar="M",
                   help="equivalence margin on the metric's scale: TOST "
                        "p-value and (1 - 2 alpha) interval")
    p.add_argument("--non-inferiority", type=margin, default=None, metavar="M",
                   help="non-inferiority margin: one-sided test of diff <= -M")
    p.add_argument("--min-effect", type=margin, default=None, metavar="M",
                   help="smallest difference that matters: a 'practical' column")
    p.add_argument("--confidence", type=level, default=0.95, metavar="LEVEL",
                   help="level of the bootstrap intervals, in (0, 1) "
                        "(default 0.95)")
    p.add_argument("--n-resamples", type=positive_int, default=10000,
                   metavar="N", help="bootstrap resamples and random flips "
                                     "(default 10000)")
    p.add_argument("--seed", type=nonnegative_int, default=0,
                   help="random seed (default 0: the same numbers every run)")
    p.add_argument("--format", choices=("table", "json"), default="table",
                   help="output format (default table); json: compare_rankings' "
                        "dict (NaN as null)")
    add_quiet_option(p)
    p.set_defaults(handler=run)


def _from_file(args, progress):
    """``(table, y_true, scores, groups, columns, values)`` of a file with
    several score columns."""
    if len(args.inputs) != 1:
        raise UsageError("with --score, give one FILE (the TREC form is "
                         "QRELS RUN_A RUN_B ... without --score)")
    if args.group is None or args.label is None:
        raise UsageError("FILE needs --group COL and --label COL")
    if len(set(args.score)) < len(args.score):
        raise UsageError(f"a --score column is given twice: {' '.join(args.score)}")
    path = args.inputs[0]
    columns = [Column("group", args.group), Column("label", args.label, True),
               *(Column("score", name, True) for name in args.score)]
    # each score column gets a role of its own: the column's name
    columns = columns[:2] + [c._replace(role=f"score {c.name}") for c in columns[2:]]
    table, values = read_columns(path, columns, delimiter=args.delimiter,
                                 progress=progress.rows(path))
    scores = {c.name: values[c.role] for c in columns[2:]}
    return table, values["label"], scores, values["group"], columns, values


def _trec_names(paths, tags):
    """The runs' tags; the file names (then paths) where those repeat."""
    for names in (tags, [Path(p).name for p in paths], list(paths)):
        if None not in names and len(set(names)) == len(names):
            return names
    return [f"{i}: {p}" for i, p in enumerate(paths)]


def _from_trec(args):
    """Aligned long-layout arrays of TREC runs against qrels."""
    if args.group or args.label:
        raise UsageError("--group and --label go with a FILE and --score")
    if len(args.inputs) < 2:
        raise UsageError("give QRELS and at least one RUN file (or one FILE "
                         "with --score columns)")
    qrels = read_qrels(args.inputs[0])
    paths = args.inputs[1:]
    runs, tags = [], []
    for path in paths:
        run, tag = read_run(path)
        runs.append(run)
        tags.append(tag)
    names = _trec_names(paths, tags)
    retrieved = set().union(*runs)
    qids = sorted(q for q in qrels if q in retrieved)
    if not qids:
        raise TrecError("no query of the runs has judgments in the qrels: "
                        "nothing to compare")
    groups, relevance, columns = align_runs(qrels, runs, qids)
    return relevance, dict(zip(names, columns)), groups


def run(args):
    """compare_rankings' table of several models (score columns or TREC runs)."""
    from .. import compare_rankings

    if "f_alpha" in (args.metric or ()):
        raise UsageError("metric 'f_alpha' scores binary predictions, not "
                         "rankings: it cannot be compared here")
    names = check_metrics(args.metric or DEFAULT_METRICS)
    progress = progress_of(args)
    source = None  # a FILE's table, columns and values, to name a bad column
    if args.score:
        table, y_true, scores, groups, columns, values = _from_file(args,
                                                                    progress)
        source = (table, columns, values)
        progress.close()
    else:
        y_true, scores, groups = _from_trec(args)
    if len(scores) == 1:
        return _one_model(args, names, progress, y_true, scores, groups, source)
    test = args.test or ("tukey_hsd" if args.design == "all_pairs"
                         else "permutation")
    # the bootstrap's resamples, then the permutation test's sign flips
    draws = args.n_resamples * (2 if test == "permutation" else 1)
    if args.design == "all_pairs":
        draws = args.n_resamples if test == "randomized_tukey" else 0
    if args.baseline is not None and args.baseline not in scores:
        raise UsageError(f"--baseline {args.baseline!r} is not a model; the "
                         f"models are {', '.join(map(repr, scores))}")
    result = _call(compare_rankings, y_true, scores, source, progress, draws,
                   groups=groups, metrics=names, baseline=args.baseline,
                   test=test, confidence=args.confidence,
                   correction=None if args.correction == "none"
                   else args.correction, design=args.design,
                   equivalence=args.equivalence,
                   non_inferiority=args.non_inferiority,
                   min_effect=args.min_effect, n_resamples=args.n_resamples,
                   random_state=args.seed,
                   output="dict" if args.format == "json" else "text")
    if args.format == "json":
        write_json({"models": list(scores),
                    "baseline": args.baseline or list(scores)[0],
                    "n_groups": int(len(np.unique(groups))), "test": test,
                    "design": args.design,
                    "correction": args.correction, "confidence": args.confidence,
                    "n_resamples": args.n_resamples, "seed": args.seed,
                    "metrics": result})
    else:
        sys.stdout.write(result + "\n")
    return 0


def _call(func, y_true, scores, source, progress, draws, **kwargs):
    """``func(y_true, scores, **kwargs)`` with the progress of ``draws``
    resamples; a bad value of a FILE named by its column (``source``: the
    table, its columns and values, or None for TREC runs)."""
    try:
        with relayed_warnings("compare"), progress.resamples(draws):
            if source is None:
                return func(y_true, scores, **kwargs)
            table, columns, values = source
            by_argument = {"y_true": columns[1], "groups": columns[0],
                           "y_score": columns[2:], "y_prob": columns[2:]}
            with file_values(table, by_argument, values):
                return func(y_true, scores, **kwargs)
    except ValueError as exc:
        if isinstance(exc, (UsageError, InputFileError, TrecError)):
            raise
        raise UsageError(str(exc)) from None


def _one_model(args, names, progress, y_true, scores, groups, source):
    """One score column (or run): its metrics with bootstrap intervals."""
    from .. import ranking_report

    (model, y_score), = scores.items()
    result = _call(ranking_report, y_true, y_score, source, progress,
                   args.n_resamples, groups=groups, metrics=names,
                   confidence=args.confidence, n_resamples=args.n_resamples,
                   random_state=args.seed,
                   output="dict" if args.format == "json" else "text")
    if args.format == "json":
        write_json({"models": [model], "n_groups": int(len(np.unique(groups))),
                    "confidence": args.confidence,
                    "n_resamples": args.n_resamples, "seed": args.seed,
                    "metrics": {m: {model: v} for m, v in result.items()}})
    else:
        sys.stdout.write(f"model {model}: one model, nothing to compare; "
                         f"{args.confidence * 100:g}% bootstrap intervals over "
                         f"groups\n{result}\n")
    return 0
