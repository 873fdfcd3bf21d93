"""``rankeval evaluate-recommendations REC HELD [--train FILE]``: the metrics
of top-N lists (:func:`~sklearn_rankeval.recommendation_report`)."""

import sys

import numpy as np

from .._core import InvalidArgumentError
from .._metrics import valid_names_text
from .._recommend import BEYOND, USERS
from .._recommend import DEFAULT as DEFAULT_METRICS
from .._recommend import NAMES as CONVENTIONS
from ._io import Column, file_columns, read_columns
from ._messages import UsageError, relayed_warnings
from ._options import delimiter, level, nonnegative_int, positive_int
from ._output import csv_number, write_csv, write_json
from ._progress import add_quiet_option, progress_of

__all__ = ["add_parser"]

#: The beyond-accuracy metrics of the command line (ild@K needs item
#: features, which only the Python function takes).
CLI_BEYOND = tuple(name for name in BEYOND if name != "ild")


def add_parser(sub):
    p = sub.add_parser(
        "evaluate-recommendations",
        help="metrics of top-N recommendation lists (CSV or Parquet files)",
        description="Compute the metrics of top-N recommendation lists "
                    "(recommendation_report): REC has one row per recommended "
                    "(user, item) pair, with a score column or, without one, "
                    "the rank given by the row order within a user; HELD has "
                    "the held-out interactions, with optional graded "
                    "relevance.  CSV and TSV need a header line (.gz "
                    "accepted); Parquet needs pyarrow.")
    p.add_argument("rec", metavar="REC", help="the lists: CSV, TSV or Parquet")
    p.add_argument("held", metavar="HELD",
                   help="the held-out interactions: CSV, TSV or Parquet")
    p.add_argument("--train", metavar="FILE", default=None,
                   help="training interactions (user, item): the popularity of "
                        "novelty@K, arp@K and long_tail@K, and catalog items")
    p.add_argument("-k", type=positive_int, default=10,
                   help="cutoff of the default metrics (default 10)")
    p.add_argument("-m", "--metric", action="append", metavar="METRIC",
                   help="metric, repeatable: accuracy metrics named as "
                        f"get_scorer_names(): {valid_names_text(scores='order')}; "
                        "beyond-accuracy metrics "
                        f"{', '.join(f'{b}@K' for b in CLI_BEYOND)} "
                        "(default: "
                        f"{' '.join(m.format(k='K') for m in DEFAULT_METRICS)}"
                        " with K from -k)")
    p.add_argument("--n-items", type=positive_int, default=None, metavar="N",
                   help="catalog size (default: the distinct items of the "
                        "files)")
    p.add_argument("--users", choices=USERS, default=USERS[0],
                   help="the users averaged: with a held-out item (default), "
                        "with a list, or both")
    p.add_argument("--convention", choices=CONVENTIONS, default=None,
                   help="another library's numbers by name (default: this "
                        "library's rules)")
    p.add_argument("--confidence", type=level, default=None, metavar="LEVEL",
                   help="bootstrap intervals over the users at this level, in "
                        "(0, 1) (default: none)")
    p.add_argument("--n-resamples", type=positive_int, default=1000,
                   metavar="N", help="bootstrap resamples (default 1000)")
    p.add_argument("--seed", type=nonnegative_int, default=0,
                   help="random seed of the resamples (default 0)")
    p.add_argument("--user-col", default="user", metavar="COL",
                   help="column of the user ids in every file (default user)")
    p.add_argument("--item-col", default="item", metavar="COL",
                   help="column of the item ids in every file (default item)")
    p.add_argument("--score-col", default=None, metavar="COL",
                   help="score column of REC (default: 'score' if present, "
                        "else the row order is the rank)")
    p.add_argument("--relevance-col", default=None, metavar="COL",
                   help="gain column of HELD (default: 'relevance' if present, "
                        "else 1)")
    p.add_argument("--format", choices=("table", "json", "csv"), default="table",
                   help="output format (default table, as evaluate); json and "
                        "csv also give n_users (the users evaluated, per metric "
                        "where the report counts them so) and n_items (the "
                        "catalog size); json is machine-readable (NaN as null)")
    p.add_argument("--delimiter", type=delimiter, default=None, metavar="CHAR",
                   help="field separator of the text files (default: tab for "
                        ".tsv, comma for .csv, else guessed from the header)")
    p.add_argument("--chunk-rows", type=positive_int, default=1_000_000,
                   metavar="N", help="rows read at a time (default 1000000)")
    add_quiet_option(p)
    p.set_defaults(handler=run)


def _optional_column(path, given, default, args):
    """The column named by an option, else ``default`` if the file has it."""
    if given is not None:
        return given
    return default if default in file_columns(path, args.delimiter) else None


def _read(path, extra, args, progress):
    """``(table, {role: array})`` of a file: user, item and ``extra`` columns."""
    columns = [Column("user-col", args.user_col), Column("item-col", args.item_col),
               *extra]
    return read_columns(path, columns, delimiter=args.delimiter,
                        chunk_rows=args.chunk_rows, progress=progress.rows(path))


def _one_id_kind(files):
    """Ids compared across the files: as text (as written) unless every
    file's ids are numbers."""
    for role in ("user-col", "item-col"):
        kinds = {values[role].dtype.kind in "biuf" for _, values in files}
        if len(kinds) > 1:
            for table, values in files:
                if values[role].dtype.kind in "biuf":
                    column = next(c for c in table.columns if c.role == role)
                    values[role] = table.text_column(column)


def _counts(result, rec, held, train, args):
    """``(n_users, n_items, {metric: n_users})``: the users evaluated and the
    catalog size, as ``recommendation_report`` counted them where its
    result carries them (``n_users``, ``n_items``, ``n_users_of``); else
    counted here: the users ``--users`` names, and ``--n-items`` or the
    distinct items of the files."""
    if hasattr(result, "n_items") and hasattr(result, "n_users"):
        return (result.n_users, result.n_items,
                dict(getattr(result, "n_users_of", None) or {}))
    import pandas as pd

    def distinct(arrays):
        return len(pd.unique(np.concatenate(arrays))) if arrays else 0

    lists, held_users = rec["user-col"], held["user-col"]
    n_users = {"held_out": distinct([held_users]),
               "recommended": distinct([lists]),
               "union": distinct([lists, held_users])}[args.users]
    items = [f["item-col"] for f in (rec, held, train) if f is not None]
    return n_users, args.n_items or distinct(items), {}


def _library_error(exc):
    """The library's error about an argument, said in the command's terms."""
    if exc.argument == "train":
        return UsageError(f"--train FILE {exc.problem}")
    if exc.argument == "item_features":
        return UsageError(f"an item-features table {exc.problem} The command "
                          "line reads none: use sklearn_rankeval."
                          "recommendation_report(..., item_features=...) in "
                          "Python.")
    return UsageError(str(exc))


def run(args):
    """The metrics of top-N lists against held-out (and training) interactions."""
    from .. import recommendation_report

    names = None if not args.metric else list(dict.fromkeys(args.metric))
    score = _optional_column(args.rec, args.score_col, "score", args)
    relevance = _optional_column(args.held, args.relevance_col, "relevance", args)
    progress = progress_of(args)
    files = [_read(args.rec, [Column("score-col", score, True)] if score else [],
                   args, progress),
             _read(args.held, [Column("relevance-col", relevance, True)]
                   if relevance else [], args, progress)]
    if args.train is not None:
        files.append(_read(args.train, [], args, progress))
    progress.close()
    _one_id_kind(files)
    rec, held = files[0][1], files[1][1]
    train = files[2][1] if args.train is not None else None
    try:
        with relayed_warnings("evaluate-recommendations"):
            result = recommendation_report(
                rec, held, k=args.k, metrics=names, train=train,
                n_items=args.n_items, users=args.users, user="user-col",
                item="item-col", score="score-col" if score else None,
                relevance="relevance-col" if relevance else None,
                convention=args.convention, confidence=args.confidence,
                n_resamples=args.n_resamples, random_state=args.seed,
                output="text" if args.format == "table" else "dict")
    except InvalidArgumentError as exc:
        raise _library_error(exc) from None
    except (ValueError, TypeError) as exc:
        raise UsageError(str(exc)) from None
    if args.format == "table":
        sys.stdout.write(result + "\n")
        return 0
    n_users, n_items, per_metric = _counts(result, rec, held, train, args)
    if args.format == "json":
        doc = {"recommended": str(args.rec), "held_out": str(args.held),
               "train": None if args.train is None else str(args.train),
               "k": args.k, "users": args.users, "n_users": n_users,
               "n_items": n_items, "convention": args.convention,
               "confidence": args.confidence, "metrics": dict(result)}
        if per_metric:
            doc["n_users_per_metric"] = per_metric
        write_json(doc)
        return 0
    with_ci = any(isinstance(v, dict) for v in result.values())
    head = ["metric", "value", *(["ci_low", "ci_high"] if with_ci else []),
            "n_users", "n_items"]
    rows = []
    for name, v in result.items():
        v = v if isinstance(v, dict) else {"value": v}
        cells = [csv_number(v.get(c)) for c in ("value", "ci_low", "ci_high")
                 if c == "value" or with_ci]
        rows.append([name, *cells, per_metric.get(name, n_users), n_items])
    write_csv(head, rows)
    return 0
