"""The ``rankeval`` command line (also ``python -m sklearn_rankeval``).

Subcommands:

* ``rankeval demo``: fit click models on a synthetic click log, tune one with
  ``GridSearchCV`` on the GAUC scorer, print every metric for both, and a
  multiclass ranking of the digits dataset; ``--out DIR`` writes the three
  displays as PNG files (needs matplotlib).
* ``rankeval trec QRELS RUN``: trec_eval's measures and output format.
* ``rankeval evaluate FILE``: the metrics of a CSV, TSV or Parquet file of
  predictions, as a table, JSON or CSV.
* ``rankeval compare FILE --score A --score B ...`` or ``rankeval compare
  QRELS RUN_A RUN_B ...``: ``compare_rankings``' table of several models.
* ``rankeval evaluate-recommendations REC HELD [--train T]``: the metrics of
  top-N lists (``recommendation_report``) against held-out interactions.

Bad input files give a one-line message naming the file, the line and the
problem, and exit status 2.
"""

import argparse
import json
import math
import os
import sys
import time
import warnings
from pathlib import Path

import numpy as np

from .._metrics import DEFAULT_METRICS, RECALL_LEVELS, valid_names_text
from .._recommend import BEYOND, USERS
from .._recommend import DEFAULT as DEFAULT_RECOMMEND
from .._recommend import NAMES as RECOMMEND_CONVENTIONS
from ._io import InputFileError
from ._progress import add_quiet_option, progress_of
from ._trec import TrecError

__all__ = ["main"]

EXIT_OK = 0
EXIT_BAD_INPUT = 2


class UsageError(ValueError):
    """A bad option value found after parsing (unknown metric name, ...)."""


# ---------------------------------------------------------------------------
# demo
# ---------------------------------------------------------------------------
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
_DEMO_C_GRID = (0.001, 0.01, 0.1, 1.0)
_DEMO_PNGS = ("grouped_roc.png", "interpolated_pr.png", "eleven_point.png")
_PLOT_HINT = 'pip install "sklearn-rankeval[plot]"'


def _click_metrics(y, score, pred, groups):
    """Every demo metric of one model on the test users."""
    from sklearn.metrics import roc_auc_score

    from .. import f_alpha_score, ranking_report

    values = {"AUC (global)": roc_auc_score(y, score)}
    report = ranking_report(y, score, groups=groups,
                            metrics=[name for _, name in _CLICK_ROWS[1:]],
                            output_dict=True)
    values.update((row, report[name]) for row, name in _CLICK_ROWS[1:])
    values["F1"] = f_alpha_score(y, pred, zero_division=0.0)
    values["F-alpha (alpha=0.25)"] = f_alpha_score(y, pred, alpha=0.25,
                                                   zero_division=0.0)
    return values


def _table(title, columns, rows, digits=4):
    width = max(len(r) for r in rows) + 2
    out = [title] if title else []
    out.append(" " * width + "".join(f"{c:>22s}" for c in columns))
    for name, values in rows.items():
        out.append(f"{name:<{width}s}"
                   + "".join(f"{v:22.{digits}f}" for v in values))
    return "\n".join(out)


def _fit_click_models(X, y, groups, train):
    """The activity-only model, and the all-features model tuned on GAUC."""
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
    return activity, search


#: 5.5 x 5 inches at 180 dpi: 990 x 900 pixels, sharp on slides
_DEMO_DPI = 180


def _write_pngs(out_dir, y, scores, groups):
    """Write the three displays, both models on each; return the paths."""
    from matplotlib.figure import Figure

    from .. import (
        ElevenPointDisplay,
        GroupedRocCurveDisplay,
        InterpolatedPrecisionRecallDisplay,
    )

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    charts = [
        (GroupedRocCurveDisplay, {}, "ROC curve within each user (median)"),
        (InterpolatedPrecisionRecallDisplay, {},
         "Interpolated precision-recall, mean over users"),
        (ElevenPointDisplay, {}, "11-point interpolated precision"),
    ]
    paths = []
    for filename, (display, kwargs, title) in zip(_DEMO_PNGS, charts):
        fig = Figure(figsize=(5.5, 5), layout="constrained")
        ax = fig.subplots()
        for name, score in scores.items():
            display.from_predictions(y, score, groups=groups, name=name, ax=ax,
                                     **kwargs)
        ax.set_title(title)
        path = out_dir / filename
        fig.savefig(path, dpi=_DEMO_DPI)
        paths.append(path)
    return paths


def demo(args):
    """Fit two click models and print every metric for both."""
    from sklearn.datasets import load_digits
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GroupShuffleSplit, train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from threadpoolctl import threadpool_limits

    from .. import (
        hit_rate_score,
        mean_average_precision_score,
        mean_reciprocal_rank_score,
        ndcg_score,
    )
    from ..datasets import make_click_log

    t0 = time.perf_counter()
    X, y, groups = make_click_log(n_users=args.n_users, random_state=args.seed)
    train, test = next(GroupShuffleSplit(test_size=0.5, random_state=args.seed)
                       .split(X, y, groups))
    activity, search = _fit_click_models(X, y, groups, train)
    X_test, y_test, g_test = X[test], y[test], groups[test]
    models = {
        "activity only": (activity, X_test[:, [0]]),
        "all features, tuned": (search.best_estimator_, X_test),
    }
    rows, scores = {}, {}
    for name, (model, features) in models.items():
        scores[name] = model.predict_proba(features)[:, 1]
        metrics = _click_metrics(y_test, scores[name], model.predict(features),
                                 g_test)
        for metric, value in metrics.items():
            rows.setdefault(metric, []).append(value)
    print(f"Click log (sklearn_rankeval.datasets.make_click_log): "
          f"{len(np.unique(groups))} users,\n{len(y)} impressions, "
          f"{y.mean():.1%} clicks; half of the users held out for testing.")
    print(f"LogisticRegression tuned by GridSearchCV on the GAUC scorer, "
          f"GroupKFold(5),\nC in {list(_DEMO_C_GRID)}: best "
          f"C={search.best_params_['C']}, cross-validated GAUC "
          f"{search.best_score_:.4f}.\n")
    print(_table("", list(models), rows))
    print("\nThe user-activity feature separates active from inactive users "
          "(high global AUC)\nbut cannot rank one user's items: its GAUC is 0.5.")

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
    print("\n" + _table("Digits (sklearn.datasets.load_digits) as a multiclass "
                        "ranking (true class among 10):",
                        ["scaled LogisticRegression"],
                        {k: [v] for k, v in mc.items()}))
    print()
    _demo_plots(args.out, y_test, scores, g_test)
    print(f"done in {time.perf_counter() - t0:.1f} s")
    return EXIT_OK


def _demo_plots(out, y, scores, groups):
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print(f"The three displays (PNG files) need matplotlib: {_PLOT_HINT}")
        return
    if out is None:
        print("Add --out DIR to write the three displays as PNG files.")
        return
    for path in _write_pngs(out, y, scores, groups):
        print(f"wrote {path}")


# ---------------------------------------------------------------------------
# trec
# ---------------------------------------------------------------------------
def trec(args):
    """trec_eval's measures for a qrels file and a run file."""
    from . import _trec

    progress = progress_of(args)
    qrels = _trec.read_qrels(args.qrels, progress=progress.rows(args.qrels))
    run, run_id = _trec.read_run(args.run, progress=progress.rows(args.run))
    progress.close()
    measures = _trec.parse_measures(args.measure)
    arrays = _trec.build_arrays(
        qrels, run, relevance_level=args.level, max_docs=args.max_docs,
        complete=args.complete, run_id=run_id, judged_only=args.judged_only,
    )
    rows = _trec.evaluate(arrays, measures, per_query=args.per_query,
                          recall_levels=args.recall_levels,
                          num_docs=args.num_docs)
    lines = _trec.format_lines(arrays, rows, digits=args.digits,
                               summary=not args.no_summary)
    sys.stdout.write("".join(line + "\n" for line in lines))
    return EXIT_OK


# ---------------------------------------------------------------------------
# evaluate
# ---------------------------------------------------------------------------
def _check_metric(name):
    """A scorer name such as ``map@10`` is known, or a usage error."""
    from .._metrics import read_metric_name, valid_names_text

    try:
        known = read_metric_name(name) is not None
    except ValueError as exc:  # an ir_measures name with no equivalent: why
        raise UsageError(str(exc)) from None
    if not known:
        raise UsageError(f"unknown metric {name!r}; the metrics are "
                         f"{valid_names_text(extra=('f_alpha',))}")


def _json_value(value):
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return None if math.isnan(value) else float(value)
    if isinstance(value, np.str_):
        return str(value)
    return value


def _f_alpha_from_counts(tp, fp, fn):
    """F1 of binary predictions from their counts (0 when undefined), as
    ``f_alpha_score(..., zero_division=0)`` computes it."""
    den = 2 * tp + fp + fn
    return 2 * tp / den if den else 0.0


def _accumulate_file(args, names):
    """Read the file chunk by chunk into a RankingAccumulator.

    Returns ``({name: value}, per-group dict or None, n_rows, n_groups)``.
    Memory is bounded by ``--chunk-rows`` rows plus, per group, its partial
    results (``--per-group``) or nothing (the sums of each average); with
    ``--group-rows any`` (the default: no assumption on the order of the
    rows) every row is held until the end, as a one-shot call would.
    """
    from .. import RankingAccumulator
    from ._io import iter_table

    ranking = [name for name in names if name != "f_alpha"]
    if "f_alpha" in names and args.threshold is None:
        raise UsageError("metric 'f_alpha' scores binary predictions: pass "
                         "--threshold T (predicted relevant when score >= T)")
    acc = (RankingAccumulator(ranking, group_rows=args.group_rows,
                              keep_groups=args.per_group) if ranking else None)
    counts = np.zeros(3, dtype=np.int64)  # tp, fp, fn of f_alpha
    n_rows = 0
    progress = progress_of(args)
    for groups, y_true, y_score in iter_table(
            args.file, group=args.group, label=args.label, score=args.score,
            delimiter=args.delimiter, chunk_rows=args.chunk_rows,
            progress=progress.rows(args.file)):
        n_rows += len(y_true)
        if acc is not None:
            try:
                acc.update(y_true, y_score, groups=groups)
            except ValueError as exc:  # e.g. the order of --group-rows sorted
                raise InputFileError(args.file, str(exc)) from None
        if "f_alpha" in names:
            rel, pred = y_true > 0, y_score >= args.threshold
            counts += [np.sum(rel & pred), np.sum(~rel & pred), np.sum(rel & ~pred)]
    progress.close()
    summary, per, n_groups = {}, None, 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # undefined metrics come back as NaN
        values = acc.result() if acc is not None else {}
        if acc is not None:
            n_groups = acc.n_groups_
            if args.per_group:
                per = acc.per_group(output="dict")
    for name in names:
        summary[name] = (_f_alpha_from_counts(*counts.tolist())
                         if name == "f_alpha" else values[name])
    return summary, per, n_rows, n_groups


def _engine_file(args, names):
    """``--engine spark|dask``: a Parquet path (folder, glob) on that engine."""
    import importlib

    if "f_alpha" in names:
        raise UsageError("metric 'f_alpha' is not available with --engine")
    module = importlib.import_module(f"sklearn_rankeval.{args.engine}")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # undefined metrics come back as NaN
            return module._evaluate_parquet(
                args.file, y_true=args.label, y_score=args.score, groups=args.group,
                metrics=names, per_group=args.per_group)
    except (ValueError, TypeError) as exc:
        raise InputFileError(args.file, str(exc)) from None


def evaluate(args):
    """The metrics of a file of predictions."""
    names = list(dict.fromkeys(args.metric or DEFAULT_METRICS))
    for name in names:  # unknown names fail before the file is read
        if name != "f_alpha":
            _check_metric(name)
    run = _engine_file if args.engine else _accumulate_file
    summary, frame, n_rows, n_groups = run(args, names)
    per = ids = None
    if frame is not None:
        ids = frame["group"]
        per = {name: frame[name] for name in names if name in frame}
    out = sys.stdout
    if args.format == "json":
        doc = {"file": str(args.file), "n_rows": n_rows, "n_groups": n_groups,
               "metrics": {k: _json_value(v) for k, v in summary.items()}}
        if per is not None:
            doc["per_group"] = [
                {"group": _json_value(g),
                 **{k: _json_value(v[i]) for k, v in per.items()}}
                for i, g in enumerate(ids)
            ]
        json.dump(doc, out, indent=2, allow_nan=False)
        out.write("\n")
    elif args.format == "csv":
        import csv

        writer = csv.writer(out, lineterminator="\n")
        if per is None:
            writer.writerow(["metric", "value"])
            writer.writerows([k, repr(float(v))] for k, v in summary.items())
        else:
            writer.writerow(["group", *per])
            writer.writerows([g, *(repr(float(v[i])) for v in per.values())]
                             for i, g in enumerate(ids))
    else:
        print(f"{args.file}: {n_rows} rows, {n_groups} groups")
        width = max(len(k) for k in summary) + 2
        for k, v in summary.items():
            print(f"{k:<{width}s}{v:>12.{args.digits}f}")
        if per is not None:
            cols = list(per)
            gw = max(8, *(len(str(g)) for g in ids)) + 2
            cw = max(12, *(len(c) + 2 for c in cols))
            print("\n" + f"{'group':<{gw}s}" + "".join(f"{c:>{cw}s}" for c in cols))
            for i, g in enumerate(ids):
                print(f"{str(g):<{gw}s}" + "".join(
                    f"{per[c][i]:>{cw}.{args.digits}f}" for c in cols))
    return EXIT_OK


# ---------------------------------------------------------------------------
# evaluate-recommendations
# ---------------------------------------------------------------------------
#: The beyond-accuracy metrics of the command line (ild@K needs item
#: features, which only the Python API takes).
_CLI_BEYOND = tuple(name for name in BEYOND if name != "ild")


def _read_columns(path, columns, numbers, args, progress):
    """``{role: array}`` of a file read in ``--chunk-rows`` chunks.

    Id columns whose chunks differ (integers in one, text in another) are
    read as text.
    """
    from ._io import iter_columns

    chunks = list(iter_columns(path, columns, numbers=numbers,
                               delimiter=args.delimiter,
                               chunk_rows=args.chunk_rows,
                               progress=progress.rows(path)))
    out = {}
    for role in columns:
        parts = [chunk[role] for chunk in chunks]
        if len({p.dtype.kind in "iu" for p in parts}) > 1:
            parts = [p.astype(str) for p in parts]
        out[role] = np.concatenate(parts)
    return out


def _optional_column(path, given, default, args):
    """The column named by an option, else ``default`` if the file has it."""
    from ._io import file_columns

    if given is not None:
        return given
    return default if default in file_columns(path, args.delimiter) else None


def evaluate_recommendations(args):
    """The metrics of top-N lists against held-out (and training) interactions."""
    from .. import recommendation_report

    names = None if not args.metric else list(dict.fromkeys(args.metric))
    for name in names or ():  # unknown names fail before the files are read
        if name.partition("@")[0] not in BEYOND:
            _check_metric(name)
    ids = {"user-col": args.user_col, "item-col": args.item_col}
    score = _optional_column(args.rec, args.score_col, "score", args)
    relevance = _optional_column(args.held, args.relevance_col, "relevance", args)
    progress = progress_of(args)
    rec = _read_columns(args.rec, {**ids, **({"score-col": score} if score else {})},
                        {"score-col": True}, args, progress)
    held = _read_columns(args.held, {**ids, **(
        {"relevance-col": relevance} if relevance else {})},
        {"relevance-col": False}, args, progress)
    train = (None if args.train is None
             else _read_columns(args.train, ids, {}, args, progress))
    progress.close()
    frames = [f for f in (rec, held, train) if f is not None]
    for role in ids:  # one id type across the files: text unless all integers
        if len({f[role].dtype.kind in "iu" for f in frames}) > 1:
            for f in frames:
                f[role] = f[role].astype(str)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # undefined metrics come back as NaN
            result = recommendation_report(
                rec, held, k=args.k, metrics=names, train=train,
                n_items=args.n_items, users=args.users, user="user-col",
                item="item-col", score="score-col" if score else None,
                relevance="relevance-col" if relevance else None,
                convention=args.convention, confidence=args.confidence,
                n_resamples=args.n_resamples, random_state=args.seed,
                output="text" if args.format == "table" else "dict")
    except (ValueError, TypeError) as exc:
        message = str(exc)
        if "train=" in message:
            message += " Pass --train FILE."
        elif "item_features=" in message:
            message += (" The command line reads no item features: compute it "
                        "with sklearn_rankeval.recommendation_report in Python.")
        raise UsageError(message) from None
    out = sys.stdout
    if args.format == "json":
        doc = {"recommended": str(args.rec), "held_out": str(args.held),
               "train": None if args.train is None else str(args.train),
               "k": args.k, "users": args.users, "n_items": args.n_items,
               "convention": args.convention, "confidence": args.confidence,
               "metrics": {k: ({c: _json_value(x) for c, x in v.items()}
                               if isinstance(v, dict) else _json_value(v))
                           for k, v in result.items()}}
        json.dump(doc, out, indent=2, allow_nan=False)
        out.write("\n")
    elif args.format == "csv":
        import csv

        writer = csv.writer(out, lineterminator="\n")
        with_ci = any(isinstance(v, dict) for v in result.values())
        writer.writerow(["metric", "value"] + (["ci_low", "ci_high"]
                                               if with_ci else []))
        for k, v in result.items():
            v = v if isinstance(v, dict) else {"value": v}
            writer.writerow([k] + [repr(float(v[c])) if c in v else ""
                                   for c in ("value", "ci_low", "ci_high")
                                   if c == "value" or with_ci])
    else:
        out.write(result + "\n")
    return EXIT_OK


# ---------------------------------------------------------------------------
# compare
# ---------------------------------------------------------------------------
_COMPARE_DESCRIPTION = """\
Compare several models' rankings of the same items, group by group, and print
compare_rankings' table: for each metric and model the value, the difference
to the baseline with its paired bootstrap interval, the p-value of a paired
test over groups, the p-value adjusted over models x metrics, and the groups
won, tied and lost.

  rankeval compare FILE --group COL --label COL --score A --score B ...
      A CSV, TSV or Parquet file with one row per item and one score column
      per model (named by the column).
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


def _compare_file(args):
    """``(y_true, {column: scores}, groups)`` of a file with several score columns."""
    from ._io import read_table

    if len(args.inputs) != 1:
        raise UsageError("with --score, give one FILE (the TREC form is "
                         "QRELS RUN_A RUN_B ... without --score)")
    if args.group is None or args.label is None:
        raise UsageError("FILE needs --group COL and --label COL")
    columns = args.score
    if len(columns) < 2:
        raise UsageError("give at least two --score columns to compare")
    if len(set(columns)) < len(columns):
        raise UsageError(f"a --score column is given twice: {' '.join(columns)}")
    path = args.inputs[0]
    scores = {}
    for column in columns:
        groups, y_true, scores[column] = read_table(
            path, group=args.group, label=args.label, score=column,
            delimiter=args.delimiter)
    return y_true, scores, groups


def _trec_names(paths, tags):
    """The runs' tags; the file names (then paths) where those repeat."""
    for names in (tags, [Path(p).name for p in paths], list(paths)):
        if None not in names and len(set(names)) == len(names):
            return names
    return [f"{i}: {p}" for i, p in enumerate(paths)]


def _compare_trec(args):
    """Aligned long-layout arrays of TREC runs against qrels."""
    from ._trec import read_qrels, read_run, trec_order

    if args.group or args.label:
        raise UsageError("--group and --label go with a FILE and --score")
    if len(args.inputs) < 3:
        raise UsageError("give QRELS and at least two RUN files (or one FILE "
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
    groups, rel = [], []
    columns = [[] for _ in runs]
    for q in qids:
        judged = qrels[q]
        docs = sorted(set(judged).union(*(run.get(q, {}) for run in runs)))
        groups += [q] * len(docs)
        rel += [max(judged.get(d, 0), 0) for d in docs]
        for column, run in zip(columns, runs):
            order = trec_order(run.get(q, {}))
            # distinct decreasing scores in trec_eval's order; -inf: unretrieved
            position = {d: len(order) - i for i, d in enumerate(order)}
            column += [position.get(d, -np.inf) for d in docs]
    scores = {name: np.asarray(column, dtype=np.float64)
              for name, column in zip(names, columns)}
    return np.asarray(rel, dtype=np.float64), scores, np.asarray(groups)


def compare(args):
    """compare_rankings' table of several models (score columns or TREC runs)."""
    from .. import compare_rankings

    names = list(dict.fromkeys(args.metric or DEFAULT_METRICS))
    for name in names:  # unknown names fail before the files are read
        if name == "f_alpha":
            raise UsageError("metric 'f_alpha' scores binary predictions, not "
                             "rankings: it cannot be compared here")
        _check_metric(name)
    load = _compare_file if args.score else _compare_trec
    y_true, scores, groups = load(args)
    # the bootstrap's resamples, then the permutation test's sign flips
    draws = args.n_resamples * (2 if args.test == "permutation" else 1)
    try:
        with warnings.catch_warnings(), progress_of(args).resamples(draws):
            warnings.simplefilter("ignore")  # undefined metrics come back as NaN
            result = compare_rankings(
                y_true, scores, groups=groups, metrics=names,
                baseline=args.baseline, test=args.test,
                correction=None if args.correction == "none" else args.correction,
                confidence=args.confidence, n_resamples=args.n_resamples,
                random_state=args.seed,
                output="dict" if args.format == "json" else "text")
    except ValueError as exc:  # --baseline, --confidence, ...
        raise UsageError(str(exc)) from None
    if args.format == "json":
        doc = {"models": list(scores), "baseline": args.baseline or list(scores)[0],
               "n_groups": int(len(np.unique(groups))), "test": args.test,
               "correction": args.correction, "confidence": args.confidence,
               "n_resamples": args.n_resamples, "seed": args.seed,
               "metrics": {metric: {model: {k: _json_value(v) for k, v in r.items()}
                                    for model, r in by_model.items()}
                           for metric, by_model in result.items()}}
        json.dump(doc, sys.stdout, indent=2, allow_nan=False)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(result + "\n")
    return EXIT_OK


# ---------------------------------------------------------------------------
# parser and entry point
# ---------------------------------------------------------------------------
def _int_at_least(minimum):
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") \
                from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{text!r} is less than {minimum}")
        return value

    parse.__name__ = f"integer >= {minimum}"
    return parse


_positive_int = _int_at_least(1)
_nonnegative_int = _int_at_least(0)


_TREC_EPILOG = """\
measures (-m, trec_eval's names and syntax; default: the official set,
runid num_q num_ret num_rel num_rel_ret map gm_map Rprec bpref recip_rank
iprec_at_recall P, as trec_eval):
  runid num_q num_ret num_rel num_rel_ret map gm_map Rprec bpref recip_rank
  infAP gm_bpref binG set_P set_relative_P set_recall set_map
  num_nonrel_judged_ret
  iprec_at_recall[.L1,L2,...]   levels with at most 2 decimals (default 0.00..1.00)
  P[.K1,K2,...] recall[.K..] ndcg_cut[.K..] map_cut[.K..] relative_P[.K..]
                                cutoffs (default 5,10,15,20,30,100,200,500,1000)
  success[.K..] (1,5,10)  unj[.K..] (5,10,20)  Rprec_mult[.X..] (0.2,...,2.0)
  utility[.a,b,c,d] (1,-1,0,0)  set_F[.beta] (1)  11pt_avg[..L1,L2,...]
  rbp[.p=P] rbp_resid[.p=P] (p=0.9)  relstring[.N] (10; printed with -q only)
  ndcg[.L1=G1,L2=G2,...] G[..] ndcg_rel[..] Rndcg[..] dcg[..] ideal_dcg[..]
                                gain of each relevance level (default: the
                                level), e.g. ndcg.1=3,2=9,4=4.5
  gauc                          ROC AUC within each query (not trec_eval's;
                                the mean over the queries with both classes)
  Also accepted: the printed names (P_10, iprec_at_recall_0.50); official;
  all_trec (trec_eval's: every measure above but dcg, ideal_dcg, gauc); all.
  Cutoffs are read as trec_eval does (atol: ndcg_cut.23.4 is ndcg_cut_23).

As trec_eval: documents are ranked by score, ties by document id in decreasing
order; a judged document the run did not retrieve counts as relevant-not-
retrieved; run queries without judgments are ignored; a judged query without a
relevant document scores 0; the 'all' line is the mean over the queries (counts:
the sum).  iprec_at_recall and 11pt_avg reproduce trec_eval 10 (its test files
out.test*) by default, and trec_eval 9 / pytrec_eval with --trec-eval-9: they
differ in when a recall level counts as reached (lround(l*R) vs int(l*R+0.9)
relevant documents).
"""

_DEMO_DESCRIPTION = f"""\
Fit two click models on a synthetic click log (users with different base click
rates, sklearn_rankeval.datasets.make_click_log), tune one with GridSearchCV on
the GAUC scorer and GroupKFold, and print every metric for both (global AUC and
GAUC side by side); then rank the classes of sklearn's digits dataset.  Needs
no download.  With --out DIR it also writes the three displays as PNG files
({', '.join(_DEMO_PNGS)}); without --out it writes nothing.  The PNG files need
matplotlib ({_PLOT_HINT}); without it the demo prints the tables only.
"""


def _version():
    from .. import __version__

    return __version__


def _build_parser():
    parser = argparse.ArgumentParser(
        prog="rankeval",
        description="Grouped ranking metrics for scikit-learn: a demo, "
                    "trec_eval-compatible evaluation, and files of predictions.")
    parser.add_argument("--version", action="version",
                        version=f"rankeval (sklearn-rankeval) {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("demo", help="fit click models and print every metric",
                       description=_DEMO_DESCRIPTION,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", metavar="DIR", default=None,
                   help="write the three displays as PNG files to DIR "
                        "(created if needed; needs matplotlib)")
    p.add_argument("--n-users", type=_int_at_least(20), default=2000,
                   help="users in the synthetic click log (default 2000, at "
                        "least 20)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.set_defaults(func=demo)

    p = sub.add_parser(
        "trec", help="trec_eval-compatible evaluation of a TREC run",
        description="Evaluate a TREC run against qrels; print trec_eval's "
                    "output format: measure<TAB>query|all<TAB>value.",
        epilog=_TREC_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("qrels", metavar="QRELS",
                   help="qrels file: query iteration document relevance")
    p.add_argument("run", metavar="RUN",
                   help="run file: query Q0 document rank score tag")
    p.add_argument("-m", "--measure", action="append", metavar="MEASURE",
                   help="measure to print, repeatable, e.g. -m map -m P.5,10 "
                        "(default: all)")
    p.add_argument("-q", "--per-query", action="store_true",
                   help="also print the value of each query")
    p.add_argument("-c", "--complete", action="store_true",
                   help="average over every judged query, those missing from "
                        "the run scoring 0 (trec_eval -c)")
    p.add_argument("-M", "--max-docs", type=_positive_int, default=None,
                   metavar="N", help="evaluate the first N documents of each "
                                     "query only (trec_eval -M)")
    p.add_argument("-l", "--level", type=_nonnegative_int, default=1, metavar="N",
                   help="smallest relevance counted as relevant (default 1, "
                        "trec_eval -l)")
    p.add_argument("-n", "--no-summary", action="store_true",
                   help="do not print the 'all' lines (trec_eval -n)")
    p.add_argument("-J", "--judged-only", action="store_true",
                   help="remove the retrieved documents that are not judged "
                        "(absent from the qrels or judged negative) before "
                        "ranking (trec_eval -J)")
    p.add_argument("-N", "--num-docs", type=_nonnegative_int, default=0,
                   metavar="N",
                   help="documents in the collection, for utility's fourth "
                        "coefficient (default 0, trec_eval -N)")
    p.add_argument("--digits", type=_nonnegative_int, default=4, metavar="N",
                   help="decimals of the values (default 4, as trec_eval; "
                        "e.g. 12 for exact comparisons)")
    p.add_argument("--recall-levels", choices=RECALL_LEVELS,
                   default="trec_eval_10",
                   help="when iprec_at_recall / 11pt_avg count a recall level "
                        "l as reached with R relevant documents: trec_eval_10 "
                        "(default, lround(l*R), as trec_eval 10 and its test "
                        "files), trec_eval_9 (int(l*R+0.9), as trec_eval 9 and "
                        "pytrec_eval), exact (ceil(l*R))")
    p.add_argument("--trec-eval-9", dest="recall_levels", action="store_const",
                   const="trec_eval_9",
                   help="short for --recall-levels trec_eval_9 (pytrec_eval's "
                        "numbers)")
    add_quiet_option(p)
    p.set_defaults(func=trec)

    p = sub.add_parser(
        "evaluate", help="metrics of a CSV, TSV or Parquet file of predictions",
        description="Compute ranking metrics from a file with one row per "
                    "item: a group (query, user) column, a relevance label "
                    "column and a score column.  CSV and TSV need a header "
                    "line (.gz accepted); Parquet needs pyarrow "
                    '(pip install "sklearn-rankeval[parquet]").')
    p.add_argument("file", metavar="FILE", help="CSV, TSV or Parquet file")
    p.add_argument("--group", required=True, metavar="COL",
                   help="column of the group (query, user) ids")
    p.add_argument("--label", required=True, metavar="COL",
                   help="column of the relevance labels (>= 0; clicks 0/1 or "
                        "grades)")
    p.add_argument("--score", required=True, metavar="COL",
                   help="column of the predicted scores (-inf: not retrieved)")
    p.add_argument("-m", "--metric", action="append", metavar="METRIC",
                   help="metric, repeatable, named as get_scorer_names(): "
                        f"{valid_names_text(extra=('f_alpha',))} "
                        f"(default: {' '.join(DEFAULT_METRICS)})")
    p.add_argument("--format", choices=("table", "json", "csv"), default="table",
                   help="output format (default table); json is "
                        "machine-readable (NaN as null)")
    p.add_argument("--per-group", action="store_true",
                   help="also write the value of each group (csv: one row per "
                        "group instead of the summary)")
    p.add_argument("--threshold", type=float, default=None, metavar="T",
                   help="f_alpha: an item is predicted relevant when its score "
                        ">= T")
    p.add_argument("--delimiter", default=None, metavar="CHAR",
                   help="field separator of a text file (default: tab for "
                        ".tsv, comma for .csv, else guessed from the header)")
    p.add_argument("--digits", type=_nonnegative_int, default=4, metavar="N",
                   help="decimals in the table (default 4)")
    p.add_argument("--group-rows", choices=("any", "sorted"), default="any",
                   help="'sorted': the file is sorted by group id, so only the "
                        "open group is held between chunks and memory is bounded "
                        "by --chunk-rows; 'any' (default): rows in any order, "
                        "all held until the end")
    p.add_argument("--chunk-rows", type=_positive_int, default=1_000_000,
                   metavar="N", help="rows read at a time (default 1000000)")
    p.add_argument("--engine", choices=("spark", "dask"), default=None,
                   help="compute on Spark or Dask (FILE: a Parquet file, folder "
                        "or glob; needs the [spark] or [dask] extra); default: "
                        "in this process")
    add_quiet_option(p)
    p.set_defaults(func=evaluate)

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
    p.add_argument("--train", metavar="T", default=None,
                   help="training interactions (user, item): the popularity of "
                        "novelty@K, arp@K and long_tail@K, and catalog items")
    p.add_argument("-k", type=_positive_int, default=10,
                   help="cutoff of the default metrics (default 10)")
    p.add_argument("-m", "--metric", action="append", metavar="METRIC",
                   help="metric, repeatable: accuracy metrics named as "
                        f"get_scorer_names(): {valid_names_text(scores='order')}; "
                        "beyond-accuracy metrics "
                        f"{', '.join(f'{b}@K' for b in _CLI_BEYOND)} "
                        "(default: "
                        f"{' '.join(m.format(k='K') for m in DEFAULT_RECOMMEND)}"
                        " with K from -k)")
    p.add_argument("--n-items", type=_positive_int, default=None, metavar="N",
                   help="catalog size (default: the distinct items of the "
                        "files)")
    p.add_argument("--users", choices=USERS, default=USERS[0],
                   help="the users averaged: with a held-out item (default), "
                        "with a list, or both")
    p.add_argument("--convention", choices=RECOMMEND_CONVENTIONS, default=None,
                   help="another library's numbers by name (default: this "
                        "library's rules)")
    p.add_argument("--confidence", type=float, default=None, metavar="LEVEL",
                   help="bootstrap intervals over the users at this level, in "
                        "(0, 1) (default: none)")
    p.add_argument("--n-resamples", type=_positive_int, default=1000,
                   metavar="N", help="bootstrap resamples (default 1000)")
    p.add_argument("--seed", type=_nonnegative_int, default=0,
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
                   help="output format (default table, as evaluate); json is "
                        "machine-readable (NaN as null)")
    p.add_argument("--delimiter", default=None, metavar="CHAR",
                   help="field separator of the text files (default: tab for "
                        ".tsv, comma for .csv, else guessed from the header)")
    p.add_argument("--chunk-rows", type=_positive_int, default=1_000_000,
                   metavar="N", help="rows read at a time (default 1000000)")
    add_quiet_option(p)
    p.set_defaults(func=evaluate_recommendations)

    p = sub.add_parser(
        "compare", help="compare several models: differences, intervals, tests",
        description=_COMPARE_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inputs", nargs="+", metavar="INPUT",
                   help="a CSV, TSV or Parquet file with --score columns, or a "
                        "qrels file followed by two or more TREC run files")
    p.add_argument("--group", metavar="COL", help="FILE: column of the group ids")
    p.add_argument("--label", metavar="COL",
                   help="FILE: column of the relevance labels")
    p.add_argument("--score", action="append", metavar="COL",
                   help="FILE: a model's score column, repeatable (at least "
                        "two); the model is named by the column")
    p.add_argument("--delimiter", default=None, metavar="CHAR",
                   help="FILE: field separator of a text file")
    p.add_argument("-m", "--metric", action="append", metavar="METRIC",
                   help="metric, repeatable, named as get_scorer_names() "
                        f"(default: {' '.join(DEFAULT_METRICS)})")
    p.add_argument("--baseline", default=None, metavar="MODEL",
                   help="the model the others are compared with (default: "
                        "the first)")
    p.add_argument("--test", choices=("permutation", "t", "wilcoxon"),
                   default="permutation",
                   help="paired test over groups (default permutation)")
    p.add_argument("--correction", choices=("holm", "bonferroni", "fdr_bh", "none"),
                   default="holm",
                   help="adjustment of the p-values over models x metrics "
                        "(default holm)")
    p.add_argument("--confidence", type=float, default=0.95, metavar="LEVEL",
                   help="level of the bootstrap intervals, in (0, 1) "
                        "(default 0.95)")
    p.add_argument("--n-resamples", type=_positive_int, default=10000,
                   metavar="N", help="bootstrap resamples and random flips "
                                     "(default 10000)")
    p.add_argument("--seed", type=_nonnegative_int, default=0,
                   help="random seed (default 0: the same numbers every run)")
    p.add_argument("--format", choices=("table", "json"), default="table",
                   help="output format (default table); json: compare_rankings' "
                        "dict (NaN as null)")
    add_quiet_option(p)
    p.set_defaults(func=compare)
    return parser


def main(argv=None):
    """Entry point of the ``rankeval`` console script.

    Parameters
    ----------
    argv : list of str, default=None
        The arguments; None: ``sys.argv[1:]``.

    Returns
    -------
    status : int
        0 on success, 2 for bad arguments or a bad input file (after a
        one-line message on stderr).
    """
    parser = _build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, or a usage error already printed
        return exc.code if isinstance(exc.code, int) else EXIT_BAD_INPUT
    try:
        return args.func(args)
    except (InputFileError, TrecError, UsageError) as exc:
        sys.stdout.flush()
        print(f"rankeval {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # e.g. rankeval trec ... | head
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
