"""``rankeval evaluate FILE``: the metrics of a file of predictions.

The file has one row per item: a group (query, user) column, a label column
and a score column.  It is read in chunks (:mod:`._io`) into a
:class:`~sklearn_rankeval.RankingAccumulator`: with ``--group-rows any`` (the
default) every row is held and evaluated once, as ``ranking_report`` on the
whole file; with ``--group-rows sorted`` only the open group is held between
chunks.  ``--weight`` is the accumulator's ``sample_weight``.

``--confidence`` and ``--segment`` need every row: the file is read whole
and :func:`~sklearn_rankeval.ranking_report` computes the report (its
``confidence``, ``n_resamples``, ``random_state``, ``segments`` and
``sample_weight``), printed as its text, dict (JSON) or frame (CSV).

A svmlight / LETOR file (``label qid:Q index:value ...``) has its labels and
query ids but no predictions: its scores are read from ``--score-file``,
one line per row (the last field of each line), as the programs that train
on such files write them (LightGBM, XGBoost, RankLib's ``-score``).
"""

import sys
from contextlib import contextmanager
from typing import NamedTuple

import numpy as np

from .._metrics import DEFAULT_METRICS, valid_names_text
from ._io import (
    Column,
    InputFileError,
    is_svmlight,
    open_table,
    read_columns,
    read_svmlight,
)
from ._messages import UsageError, file_values, relayed_warnings
from ._options import (
    check_metrics,
    delimiter,
    level,
    nonnegative_int,
    positive_int,
)
from ._output import csv_number, table_lines, write_csv, write_json
from ._progress import add_quiet_option, progress_of

__all__ = ["add_parser"]

#: The metric the command computes itself: F1 of thresholded scores.
_F_ALPHA = "f_alpha"


def add_parser(sub):
    p = sub.add_parser(
        "evaluate", help="metrics of a CSV, TSV or Parquet file of predictions",
        description="Compute ranking metrics from a file with one row per "
                    "item: a group (query, user) column, a relevance label "
                    "column and a score column.  CSV and TSV need a header "
                    "line (.gz accepted); Parquet needs pyarrow "
                    '(pip install "sklearn-rankeval[parquet]").  A bad value '
                    "is one line on stderr naming the file, the line, the "
                    "column and the problem, and exit status 2.  A svmlight / "
                    "LETOR file (label qid:Q index:value ...) gives the labels "
                    "and query ids, and --score-file the scores.")
    p.add_argument("file", metavar="FILE",
                   help="CSV, TSV, Parquet or svmlight file")
    p.add_argument("--group", metavar="COL",
                   help="column of the group (query, user) ids (required "
                        "except for svmlight)")
    p.add_argument("--label", metavar="COL",
                   help="column of the relevance labels (>= 0; clicks 0/1 or "
                        "grades; required except for svmlight)")
    p.add_argument("--score", metavar="COL",
                   help="column of the predicted scores (-inf: not retrieved; "
                        "probabilities in [0, 1] for log_loss, ne, pcoc, ece; "
                        "required except for svmlight)")
    p.add_argument("--weight", metavar="COL",
                   help="column of the sample weights (ranking_report's "
                        "sample_weight: item weights for gauc, map and "
                        "interpolated_ap, query weights, constant within a "
                        "group, for the others)")
    p.add_argument("--segment", metavar="COL",
                   help="column of a segment label (country, activity "
                        "bucket), constant within each group: every metric "
                        "is reported within each segment")
    p.add_argument("--confidence", type=level, default=None, metavar="LEVEL",
                   help="add a bootstrap interval at this level, in (0, 1), "
                        "to every value, resampling whole groups")
    p.add_argument("--n-resamples", type=positive_int, default=1000,
                   metavar="N",
                   help="bootstrap resamples with --confidence (default 1000)")
    p.add_argument("--random-state", "--seed", type=nonnegative_int,
                   default=0, metavar="SEED", dest="random_state",
                   help="seed of the resampling with --confidence, "
                        "ranking_report's random_state (--seed, as the other "
                        "commands name it, is the same; default 0: the same "
                        "intervals every run)")
    p.add_argument("--input-format", choices=("auto", "table", "svmlight"),
                   default="auto",
                   help="'table': CSV, TSV or Parquet; 'svmlight': a svmlight "
                        "/ LETOR file (label qid:Q index:value ...); 'auto' "
                        "(default): svmlight for names ending in .svm, "
                        ".svmlight, .libsvm or .letor (.gz accepted), else "
                        "table")
    p.add_argument("--score-file", metavar="PATH",
                   help="svmlight: the scores, one line per row of FILE in "
                        "its order, the score being the last field of the "
                        "line (a file of numbers, or RankLib's -score "
                        "output)")
    p.add_argument("-m", "--metric", action="append", metavar="METRIC",
                   help="metric, repeatable, named as get_scorer_names(): "
                        f"{valid_names_text(extra=(_F_ALPHA,))} "
                        f"(default: {' '.join(DEFAULT_METRICS)})")
    p.add_argument("--format", choices=("table", "json", "csv"), default="table",
                   help="output format (default table); json is "
                        "machine-readable (NaN as null); with --confidence, "
                        "--segment or a svmlight file the table, json's "
                        "'metrics' and csv are ranking_report's text, dict "
                        "and frame")
    p.add_argument("--per-group", action="store_true",
                   help="also write the value of each group (csv: one row per "
                        "group instead of the summary)")
    p.add_argument("--threshold", type=float, default=None, metavar="T",
                   help="f_alpha: an item is predicted relevant when its score "
                        ">= T")
    p.add_argument("--delimiter", type=delimiter, default=None, metavar="CHAR",
                   help="field separator of a text file (default: tab for "
                        ".tsv, comma for .csv, else guessed from the header)")
    p.add_argument("--digits", type=nonnegative_int, default=4, metavar="N",
                   help="decimals in the table (default 4)")
    p.add_argument("--group-rows", choices=("any", "sorted"), default="any",
                   help="'sorted': the file is sorted by group id, so only the "
                        "open group is held between chunks and memory is bounded "
                        "by --chunk-rows; 'any' (default): rows in any order, "
                        "all held until the end")
    p.add_argument("--chunk-rows", type=positive_int, default=1_000_000,
                   metavar="N", help="rows read at a time (default 1000000)")
    p.add_argument("--engine", choices=("spark", "dask"), default=None,
                   help="compute on Spark or Dask (FILE: a Parquet file, folder "
                        "or glob; needs the [spark] or [dask] extra); default: "
                        "in this process")
    add_quiet_option(p)
    p.set_defaults(handler=run)


def _f_alpha_from_counts(tp, fp, fn):
    """F1 of binary predictions from their counts (0 when undefined), as
    ``f_alpha_score(..., zero_division=0)`` computes it."""
    den = 2 * tp + fp + fn
    return 2 * tp / den if den else 0.0


def _columns(args):
    """The columns to read, and the library's argument names -> columns."""
    group = Column("group", args.group)
    label = Column("label", args.label, number=True)
    score = Column("score", args.score, number=True)
    columns = [group, label, score]
    by_argument = {"groups": group, "y_true": label, "y_score": score,
                   "y_prob": score}
    if args.weight is not None:
        columns.append(Column("weight", args.weight, number=True))
        by_argument["sample_weight"] = columns[-1]
    if args.segment is not None:
        columns.append(Column("segment", args.segment))
        by_argument["segments"] = columns[-1]
    return columns, by_argument


def _check_id_kind(table, column, values, start, kinds):
    """``--group-rows sorted``: ids of one kind in every chunk (integers read
    in an earlier chunk cannot be read again as text)."""
    import pandas as pd

    ids = values[column.role]
    kinds.add(ids.dtype.kind in "biuf")
    if len(kinds) == 1:
        return
    bad = np.flatnonzero(pd.to_numeric(pd.Series(ids), errors="coerce").isna())
    row = int(bad[0]) if bad.size else 0
    raise InputFileError(
        table.path, f"{column.describe()}: group id {ids[row]!r} is not an "
        "integer, unlike the ids before it (with --group-rows sorted the ids "
        "are read chunk by chunk; --group-rows any reads them all as text)",
        **table.locate(start + row))


def _n_groups(ids):
    """The number of distinct group ids, read off the engine's encoding of
    them (integer ids by offset, others hashed: no sort of the ids)."""
    from .._engine import encode_groups

    codes, _ = encode_groups(ids, len(ids))
    return int(np.count_nonzero(np.bincount(codes))) if len(codes) else 0


def _in_process(args, names):
    """``(summary, per-group dict or None, n_rows, n_groups)`` of the file."""
    from .. import RankingAccumulator

    columns, by_argument = _columns(args)
    ranking = [name for name in names if name != _F_ALPHA]
    acc = (RankingAccumulator(ranking, group_rows=args.group_rows,
                              keep_groups=args.per_group) if ranking else None)
    counts = np.zeros(3, dtype=np.int64)  # tp, fp, fn of f_alpha
    progress = progress_of(args)
    read = dict(delimiter=args.delimiter, chunk_rows=args.chunk_rows,
                progress=progress.rows(args.file))
    if args.group_rows == "any":  # every row held: read them all, one update
        table, values = read_columns(args.file, columns, **read)
        chunks, last = [(0, values)], values
    else:
        table = open_table(args.file, columns, **read)
        chunks, last = table.chunks(), None
    n_rows, kinds = 0, set()
    for start, values in chunks:
        n_rows += len(values["label"])
        if args.group_rows == "sorted":
            _check_id_kind(table, columns[0], values, start, kinds)
        if acc is not None:
            with file_values(table, by_argument, values, start):
                with _column_rules(table.path, by_argument):
                    acc.update(values["label"], values["score"],
                               groups=values["group"],
                               sample_weight=values.get("weight"))
        if _F_ALPHA in names:
            rel, pred = values["label"] > 0, values["score"] >= args.threshold
            counts += [np.sum(rel & pred), np.sum(~rel & pred),
                       np.sum(rel & ~pred)]
    progress.close()
    summary, per, n_groups = {}, None, 0
    if acc is not None:
        with _column_rules(table.path, by_argument), \
                file_values(table, by_argument, last):
            result = acc.result()
            if args.per_group:
                per = acc.per_group(output="dict")
        n_groups = (_n_groups(last["group"]) if args.group_rows == "any"
                    else acc.n_groups_)
    for name in names:
        summary[name] = (_f_alpha_from_counts(*counts.tolist())
                         if name == _F_ALPHA else result[name])
    return summary, per, n_rows, n_groups


class _Source(NamedTuple):
    """What a svmlight file's values are, for messages (as a :class:`Column`
    of a table: the ``role`` of its values, and how it is described)."""

    role: str
    text: str

    def describe(self):
        return self.text


@contextmanager
def _column_rules(path, by_argument):
    """The library's rules about a whole argument (``segments must be
    constant within each group ...``) as errors about its column."""
    try:
        yield
    except (ValueError, TypeError) as exc:
        if isinstance(exc, UsageError):
            raise
        problem = exc.problem if isinstance(exc, InputFileError) else str(exc)
        for argument in ("segments", "sample_weight"):
            column = by_argument.get(argument)
            if column is not None and problem.startswith(f"{argument} "):
                raise InputFileError(path, f"{column.describe()}: "
                                     f"{problem}") from None
        raise


def _whole_file(args):
    """``(table, {argument: column}, {role: array})`` of every row."""
    if args.svmlight:
        table, values = read_svmlight(args.file, args.score_file)
        label = _Source("label", "the label field (first of each line)")
        score = _Source("score", f"the score file {args.score_file} (--score-file)")
        return table, {"y_true": label, "y_score": score, "y_prob": score}, \
            values
    columns, by_argument = _columns(args)
    progress = progress_of(args)
    table, values = read_columns(args.file, columns, delimiter=args.delimiter,
                                 chunk_rows=args.chunk_rows,
                                 progress=progress.rows(args.file))
    progress.close()
    return table, by_argument, values


#: --format -> ranking_report's output
_REPORT_OUTPUT = {"table": "text", "json": "dict", "csv": "frame"}


def _report(args, names):
    """``--confidence``, ``--segment`` or a svmlight file: the file read
    whole; ``(report, per-group dict or None, n_rows, n_groups)``, the report
    being :func:`ranking_report`'s text, dict or frame as ``--format``
    asks."""
    import pandas as pd

    from .. import per_group_scores, ranking_report

    table, by_argument, values = _whole_file(args)
    arrays = dict(y_true=values["label"], y_score=values["score"],
                  groups=values["group"], sample_weight=values.get("weight"))
    with _column_rules(table.path, by_argument), \
            file_values(table, by_argument, values):
        report = ranking_report(
            **arrays, metrics=names, segments=values.get("segment"),
            confidence=args.confidence, n_resamples=args.n_resamples,
            random_state=args.random_state, digits=args.digits,
            output=_REPORT_OUTPUT[args.format])
        per = None
        if args.per_group:
            per = per_group_scores(**arrays, metrics=names, output="dict")
    n_groups = int(pd.unique(values["group"]).size)
    return report, per, len(values["label"]), n_groups


def _on_engine(args, names):
    """``--engine spark|dask``: a Parquet path (folder, glob) on that engine."""
    if _F_ALPHA in names:
        raise UsageError("metric 'f_alpha' is not available with --engine")
    if args.engine == "spark":
        from ..spark import evaluate_parquet
    else:
        from ..dask import evaluate_parquet
    try:
        return evaluate_parquet(
            args.file, y_true=args.label, y_score=args.score, groups=args.group,
            metrics=names, per_group=args.per_group)
    except (ValueError, TypeError) as exc:
        raise InputFileError(args.file, str(exc)) from None


def _check_options(args, names):
    """Options that do not go together, refused before any file is read."""
    args.svmlight = args.input_format == "svmlight" or (
        args.input_format == "auto" and is_svmlight(args.file))
    columns = ("group", "label", "score", "weight", "segment")
    if args.svmlight:
        given = [f"--{c}" for c in columns if getattr(args, c) is not None]
        if given:
            raise UsageError(
                f"{', '.join(given)}: a svmlight file has no columns (its "
                "labels and qid: are read; the scores come from --score-file)")
        if args.score_file is None:
            raise UsageError("a svmlight file has no scores: pass --score-file "
                             "PATH (one score per line, in the file's order)")
    else:
        if args.score_file is not None:
            raise UsageError("--score-file is for svmlight files (a table has "
                             "its --score column)")
        missing = [f"--{c} COL" for c in columns[:3] if getattr(args, c) is None]
        if missing:
            raise UsageError(f"required: {', '.join(missing)} (the columns of "
                             "a CSV, TSV or Parquet FILE)")
    args.whole = (args.svmlight or args.confidence is not None
                  or args.segment is not None)
    if not args.whole:
        if args.engine and args.weight is not None:
            raise UsageError("--weight is not available with --engine")
        return
    why = ("--confidence" if args.confidence is not None else
           "--segment" if args.segment is not None else "a svmlight file")
    if args.engine:
        raise UsageError(f"{why} is not available with --engine")
    if args.group_rows == "sorted" and not args.svmlight:
        raise UsageError(f"{why} needs every row at once: --group-rows any")
    if _F_ALPHA in names:
        raise UsageError(f"metric 'f_alpha' is not available with {why}")


def run(args):
    """The metrics of a file of predictions."""
    names = check_metrics(args.metric or DEFAULT_METRICS, extra=(_F_ALPHA,))
    _check_options(args, names)
    if _F_ALPHA in names and args.threshold is None and not args.engine:
        raise UsageError("metric 'f_alpha' scores binary predictions: pass "
                         "--threshold T (predicted relevant when score >= T)")
    compute = (_report if args.whole else
               _on_engine if args.engine else _in_process)
    with relayed_warnings("evaluate"):
        summary, frame, n_rows, n_groups = compute(args, names)
    per = ids = None
    if frame is not None:
        ids = frame["group"]
        per = {name: frame[name] for name in names if name in frame}
    if args.format == "json":
        doc = {"file": str(args.file), "n_rows": n_rows, "n_groups": n_groups,
               "metrics": summary}
        if per is not None:
            doc["per_group"] = [{"group": g, **{k: v[i] for k, v in per.items()}}
                                for i, g in enumerate(ids)]
        write_json(doc)
    elif args.format == "csv":
        if per is not None:
            write_csv(["group", *per],
                      ([g, *(csv_number(v[i]) for v in per.values())]
                       for i, g in enumerate(ids)))
        elif args.whole:  # ranking_report's frame
            summary.to_csv(sys.stdout, index=False, lineterminator="\n")
        else:
            write_csv(["metric", "value"],
                      ([k, csv_number(v)] for k, v in summary.items()))
    else:
        groups = f"{n_groups} group" + ("" if n_groups == 1 else "s")
        out = [f"{args.file}: {n_rows} rows, {groups}",
               *(summary.splitlines() if args.whole
                 else table_lines(summary, args.digits))]
        if per is not None:
            cols = list(per)
            gw = max(8, *(len(str(g)) for g in ids)) + 2
            cw = max(12, *(len(c) + 2 for c in cols))
            out.append("\n" + f"{'group':<{gw}s}" + "".join(f"{c:>{cw}s}"
                                                            for c in cols))
            out.extend(f"{str(g):<{gw}s}" + "".join(
                f"{per[c][i]:>{cw}.{args.digits}f}" for c in cols)
                for i, g in enumerate(ids))
        sys.stdout.write("\n".join(out) + "\n")
    return 0
