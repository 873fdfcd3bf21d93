"""The batches of a :class:`~sklearn_rankeval.RankingAccumulator`, read
through the one input door.

What a batch is (:func:`batch_layout`: the door's
:func:`~sklearn_rankeval._engine.layout_of`, and whether groups come with
it), its rows as the door checks them (:func:`batch_rows`:
:func:`~sklearn_rankeval._engine.check_inputs`, then the ids every held
row carries), and the rows held between batches (:func:`concat_rows`,
:func:`take_rows`: the weights of held rows travel with them, filled with
ones where one batch has weights and the other none).  The accumulator's
state -- the ids seen, its window, the partials it exchanges -- is
:mod:`._accumulator_state`'s.
"""

import numpy as np

from .._engine import (
    check_group_ids,
    check_inputs,
    check_length,
    group_ids_array,
    layout_of,
)

__all__ = ["BATCHES", "COLUMNS", "LONG", "QUERIES", "batch_layout", "batch_rows",
           "concat_rows", "on_host", "row_columns", "take_rows"]

#: The optional columns a batch may carry (read by the input door's readers):
#: the exposure metrics' sampled rankings, items and item groups, the
#: diversity metrics' intent weights.
COLUMNS = ("samples", "items", "item_groups", "intent_weights")

#: The layouts of an accumulator's batches, as its messages name them.
QUERIES = "2-D (one query per row)"
LONG = "1-D"
#: the layout of 1-D batches without groups (pooled metrics only)
BATCHES = "1-D without groups (one group per batch)"


def batch_layout(y_true, y_score, labels, *, pooled):
    """The layout of a batch: :data:`QUERIES` (the door's ``"2d"`` and
    ``"multiclass"`` layouts), :data:`BATCHES` (1-D rows that are a group
    of their own: ``pooled``, a batch without groups of an accumulator of
    pooled metrics only) or :data:`LONG`."""
    if layout_of(y_true, y_score, labels) != "long":
        return QUERIES
    return BATCHES if pooled else LONG


def batch_rows(y_true, y_score, groups, sample_weight, *, pos_label, columns=None,
               per_intent=False):
    """Checked 1-D rows (as arrays) of a batch whose rows are held, before
    any state change: the input door's one check (labels read, lengths,
    weights, the optional ``columns``), then the ids every held row carries.
    ``{"y_true", "y_score", "groups", "sample_weight", *COLUMNS}``.

    ``per_intent``: grades per intent (2-D ``y_true``) are held as the door
    read them; intent weights are held one row per row (the door's reading
    of a vector given for every row); the id columns are held as given (the
    door's codes are the batch's own: the rows of several batches are
    encoded together when evaluated)."""
    columns = {name: value for name, value in (columns or {}).items()
               if value is not None}
    checked = check_inputs(
        y_true, y_score, groups=groups, sample_weight=sample_weight,
        pos_label=pos_label, per_intent=per_intent, **columns)
    layout, y_true, y_score, _, w = checked
    if layout != "long":
        raise ValueError(
            f"y_score must be 1-D (one score per row) with groups, got shape "
            f"{tuple(y_score.shape)}.")
    ids = group_ids_array(groups)
    check_length(ids.shape, y_score.shape[0])
    check_group_ids(ids)
    grades = checked.columns.get("intent_grades")
    rows = {"y_true": np.asarray(y_true) if grades is None else grades,
            "y_score": y_score, "groups": ids, "sample_weight": w}
    for name in COLUMNS:
        value = columns.get(name)
        if name == "intent_weights" and value is not None:
            value = np.asarray(checked.columns[name])
        elif value is not None:
            value = np.asarray(value.to_numpy() if hasattr(value, "to_numpy")
                               else value)
        rows[name] = value
    return rows


def row_columns(rows):
    """The optional columns of held ``rows`` (``{name: values}``, those given)."""
    return {name: rows[name] for name in COLUMNS if rows.get(name) is not None}


def concat_rows(*parts):
    """The held rows of ``parts`` (None: no rows) as one set of rows, or
    None.  Where some have weights and others none, those get ones."""
    parts = [rows for rows in parts if rows is not None]
    if not parts:
        return None
    if len(parts) == 1:
        return parts[0]
    for name in COLUMNS:
        given = [rows.get(name) is not None for rows in parts]
        if any(given) and not all(given):
            raise ValueError(
                f"{name}: given with some batches and not with others; the rows "
                f"of one group are evaluated together, so every batch must give "
                f"{name}= or none.")
    if any(rows["sample_weight"] is None for rows in parts) and not all(
            rows["sample_weight"] is None for rows in parts):
        parts = [{**rows, "sample_weight": np.ones(rows["y_score"].shape[0])}
                 if rows["sample_weight"] is None else rows for rows in parts]
    return {key: None if parts[0][key] is None
            else np.concatenate([rows[key] for rows in parts])
            for key in parts[0]}


def take_rows(rows, mask):
    """The rows of ``rows`` where ``mask``."""
    return {key: None if v is None else v[mask] for key, v in rows.items()}


def on_host(evaluated):
    """The accumulator's state lives on the host: the per-group partials of
    an Array API batch (computed on its device) are copied there, never its
    rows."""
    info, parts = evaluated
    return info.to_numpy(), {name: p.to_numpy() for name, p in parts.items()}
