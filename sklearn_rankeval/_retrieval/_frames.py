"""A run and its qrels as checked arrays, before any hygiene or ranking.

The frames these tools pass around: a run ``(query_id, doc_id, score)`` and
qrels ``(query_id, doc_id, relevance)`` (or several judge columns), pandas
DataFrames whose column names :func:`check_columns` reads.  Each column is
read once here: ids must be all integers or all strings (the two frames
alike), scores and labels finite numbers, a label never negative, and a
(query, document) pair judged twice must carry one label.  The ids are then
encoded once, jointly for both frames (:func:`encode_ids`), so that the rest
of the wing works on integer codes.
"""

from dataclasses import dataclass

import numpy as np

from .._core import InvalidArgumentError

__all__ = ["COLUMNS", "Frames", "check_columns", "encode_ids", "id_kind",
           "read_frames"]

#: The columns a run and qrels have, by their default names.
COLUMNS = {"query_id": "query_id", "doc_id": "doc_id", "score": "score",
           "relevance": "relevance"}
#: Other libraries' names of a role, read when the frame lacks the default
#: name and ``columns`` does not name the role: PyTerrier's frames (``qid``,
#: ``docno``, ``label``), trec-tools' and BEIR's (``q_id``, ``docid``), a
#: qrels ``score`` (ranx, BEIR's TSV).
ALIASES = {"query_id": ("qid", "q_id"), "doc_id": ("docno", "docid"),
           "score": (), "relevance": ("label", "score")}


def check_columns(columns):
    """``columns``: the user's names of the canonical columns, checked
    (``"given"``: the roles the user named)."""
    if columns is None:
        return {**COLUMNS, "given": ()}
    if not isinstance(columns, dict):
        raise InvalidArgumentError(
            "columns", f"must be a dict from {sorted(COLUMNS)} to the frames' "
                       f"column names, got {type(columns).__name__}.")
    unknown = sorted(set(columns) - set(COLUMNS))
    if unknown:
        raise InvalidArgumentError(
            "columns", f"names unknown columns {unknown}; its keys are "
                       f"{sorted(COLUMNS)}.")
    return {**COLUMNS, **columns, "given": tuple(columns)}


def _frame(frame, argument):
    """A DataFrame of ``frame``: a DataFrame, a dict of columns, or an
    iterable of named tuples (ir_datasets' ``qrels_iter()`` and
    ``scoreddocs_iter()``)."""
    import pandas as pd

    if isinstance(frame, dict):
        frame = pd.DataFrame(frame)
    elif not isinstance(frame, (pd.DataFrame, str, bytes)) and hasattr(
            frame, "__iter__"):
        rows = list(frame)
        if rows and isinstance(rows[0], tuple) and hasattr(rows[0], "_fields"):
            frame = pd.DataFrame(rows, columns=list(rows[0]._fields))
    if not isinstance(frame, pd.DataFrame):
        raise InvalidArgumentError(
            argument, f"must be a pandas DataFrame, got {type(frame).__name__}.")
    return frame


def _column(frame, name, argument, role, given=()):
    if name not in frame.columns and role not in given:
        name = next((a for a in ALIASES.get(role, ()) if a in frame.columns),
                    name)
    if name not in frame.columns:
        raise InvalidArgumentError(
            argument, f"has no column {name!r} ({role}); its columns are "
                      f"{list(map(str, frame.columns))}. Name it with "
                      f"columns={{{role!r}: ...}}.")
    return frame[name]


def id_kind(values, where):
    """``"int"`` or ``"str"``: the kind of the ids ``values`` (a Series or
    array); anything else (missing, float or mixed ids) is refused."""
    import pandas as pd

    values = values.to_numpy() if hasattr(values, "to_numpy") else np.asarray(
        values)
    if values.dtype.kind in "iu":
        return "int"
    if values.dtype.kind == "U":
        return "str"
    kind = pd.api.types.infer_dtype(values, skipna=False)
    if kind == "integer":
        return "int"
    if kind == "string":
        return "str"
    if kind == "empty":
        return None
    argument, column = where
    problem = {"mixed-integer": "mixes integer and string ids",
               "mixed": "mixes ids of several types or has missing ids",
               "floating": "holds floating-point ids (or missing ones)",
               "mixed-integer-float": "holds floating-point ids (or missing "
                                      "ones)"}.get(
        kind, f"holds ids of type {kind!r}")
    raise InvalidArgumentError(
        argument, f"column {column!r} {problem}: ids must be all integers or "
                  f"all strings (convert them, e.g. .astype(str)).")


def _same_kind(kinds, what):
    """Refuse ids of one role that are integers in one place and strings in
    another (``kinds``: ``[(kind, argument, column)]``)."""
    seen = [(k, a, c) for k, a, c in kinds if k is not None]
    for kind, argument, column in seen[1:]:
        if kind != seen[0][0]:
            raise InvalidArgumentError(
                argument, f"column {column!r} holds {kind} {what} ids but "
                          f"{seen[0][1]} column {seen[0][2]!r} holds "
                          f"{seen[0][0]} ones: the two must be of one type "
                          f"(an id 7 and an id '7' are different ids).")


def _numbers(series, argument, column, *, labels):
    values = series.to_numpy()
    if values.dtype.kind not in "biuf":
        try:
            values = values.astype(np.float64)
        except (TypeError, ValueError):
            raise InvalidArgumentError(
                argument, f"column {column!r} must hold numbers, got "
                          f"{series.dtype}.") from None
    values = values.astype(np.float64, copy=False)
    bad = np.isnan(values) | (np.isinf(values) if labels else False)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InvalidArgumentError(
            argument, f"column {column!r} holds {values[i]} at row {i}: "
                      f"{'labels' if labels else 'scores'} must be "
                      f"{'finite numbers' if labels else 'numbers (not NaN)'}.",
            value=float(values[i]))
    if labels and (values < 0).any():
        i = int(np.flatnonzero(values < 0)[0])
        raise InvalidArgumentError(
            argument, f"column {column!r} holds the negative label "
                      f"{values[i]:g} at row {i}: labels must be >= 0 "
                      f"(leave unjudged documents out of the qrels).",
            value=float(values[i]))
    return values


@dataclass(frozen=True)
class Frames:
    """The checked columns of a run and its qrels (NumPy arrays).

    ``labels`` is ``(n_qrels,)``, or ``(n_qrels, n_judges)`` with judges;
    ``run_q``/``run_d``, ``qrels_q``/``qrels_d`` the raw ids.
    """

    run_q: np.ndarray
    run_d: np.ndarray
    score: np.ndarray
    qrels_q: np.ndarray
    qrels_d: np.ndarray
    labels: np.ndarray
    query_kind: str
    doc_kind: str


def read_frames(run, qrels, columns, judges=None):
    """The checked :class:`Frames` of ``run`` and ``qrels``."""
    run, qrels = _frame(run, "run"), _frame(qrels, "qrels")
    q, d, given = columns["query_id"], columns["doc_id"], columns["given"]
    run_q = _column(run, q, "run", "query_id", given)
    run_d = _column(run, d, "run", "doc_id", given)
    score = _column(run, columns["score"], "run", "score", given)
    score = _numbers(score, "run", score.name, labels=False)
    qrels_q = _column(qrels, q, "qrels", "query_id", given)
    qrels_d = _column(qrels, d, "qrels", "doc_id", given)
    if judges is None:
        labels = _column(qrels, columns["relevance"], "qrels", "relevance",
                         given)
        labels = _numbers(labels, "qrels", labels.name, labels=True)
    else:
        judges = [judges] if isinstance(judges, str) else list(judges)
        if not judges:
            raise InvalidArgumentError("judges", "must name at least one column.")
        labels = np.column_stack([
            _numbers(_column(qrels, name, "judges", name), "judges", name,
                     labels=True) for name in judges])
    query_kinds = [(id_kind(c, (a, c.name)), a, c.name)
                   for a, c in (("run", run_q), ("qrels", qrels_q))]
    doc_kinds = [(id_kind(c, (a, c.name)), a, c.name)
                 for a, c in (("run", run_d), ("qrels", qrels_d))]
    _same_kind(query_kinds, "query")
    _same_kind(doc_kinds, "document")
    return Frames(run_q=run_q.to_numpy(), run_d=run_d.to_numpy(), score=score,
                  qrels_q=qrels_q.to_numpy(), qrels_d=qrels_d.to_numpy(),
                  labels=labels,
                  query_kind=next((k for k, *_ in query_kinds if k), "str"),
                  doc_kind=next((k for k, *_ in doc_kinds if k), "str"))


def encode_ids(*arrays):
    """Joint integer codes of the ids of several arrays: ``(codes per
    array, uniques)`` (a hash factorization, in order of appearance)."""
    import pandas as pd

    sizes = [len(a) for a in arrays]
    codes, uniques = pd.factorize(np.concatenate(arrays) if len(arrays) > 1
                                  else arrays[0])
    codes = codes.astype(np.int64, copy=False)
    return np.split(codes, np.cumsum(sizes)[:-1]), np.asarray(uniques)
