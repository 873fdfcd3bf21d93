"""Per-group frames as the statistics' input: ``compare_rankings`` and
``risk_report`` with ``y_true=None`` and ``{model: per-group frame}`` (as
``per_group_scores`` gives it, in memory or from Spark / Dask), so that a
distributed evaluation compares models on its collected per-group values.

A frame's group ids are its index, its ``group`` column, or (Spark and
Dask, which name it as the groups column) its first column.  It gives each
group's value of each metric, its ``weight`` (total
sample weight) and counts; it does not carry the per-group statistics of a
pooled (``"micro"``) average, nor the query weights of a weighted input:
those are refused, by name.
"""

import numpy as np

from .._core import InvalidArgumentError
from .._stats import GroupInfo, Partials

__all__ = ["parts_from_frames"]


def _to_pandas(frame, model):
    """A pandas DataFrame indexed by group id of one model's frame."""
    import pandas as pd

    if hasattr(frame, "toPandas"):  # Spark
        frame = frame.toPandas()
    elif hasattr(frame, "compute") and hasattr(frame, "npartitions"):  # Dask
        frame = frame.compute()
    elif hasattr(frame, "to_pandas") and not isinstance(frame, pd.DataFrame):
        frame = frame.to_pandas()  # polars
    elif isinstance(frame, dict):
        frame = pd.DataFrame(frame)
    if not isinstance(frame, pd.DataFrame):
        raise InvalidArgumentError(
            "y_scores", f"with y_true=None, each model maps to a per-group "
                        f"frame (as per_group_scores returns); model {model!r} "
                        f"has a {type(frame).__name__}.")
    if "group" in frame.columns:
        frame = frame.set_index("group")
    elif (frame.index.name is None and len(frame.columns)
          and frame.columns[0] not in ("n_items", "n_relevant", "weight")):
        # Spark's and Dask's frames: the groups column first, named as given
        frame = frame.set_index(frame.columns[0])
    return frame.sort_index()


def parts_from_frames(frames, parsed):
    """``(info, {model: {metric: Partials}})`` of per-group frames.

    Every frame must list the same groups; each metric must be a column of
    every frame, with a macro or weighted default average.
    """
    tables = {model: _to_pandas(f, model) for model, f in frames.items()}
    models = list(tables)
    first = tables[models[0]]
    for model in models[1:]:
        if not first.index.equals(tables[model].index):
            raise InvalidArgumentError(
                "y_scores", f"the per-group frames of models {models[0]!r} and "
                            f"{model!r} list different groups: the models must "
                            f"be scored on the same groups.")
    n = len(first)
    ones = np.ones(n)
    weight = (first["weight"].to_numpy(dtype=np.float64) if "weight" in first
              else ones)
    counts = {c: (first[c].to_numpy(dtype=np.int64) if c in first
                  else np.zeros(n, dtype=np.int64)) for c in ("n_items", "n_relevant")}
    info = GroupInfo(labels=first.index.to_numpy(), n_items=counts["n_items"],
                     n_relevant=counts["n_relevant"], weight=weight,
                     query_weight=ones, item_macro_weight=ones)
    parts = {}
    for model in models:
        table, by_name = tables[model], {}
        for name, spec, _ in parsed:
            if spec.default_average == "micro":
                raise InvalidArgumentError(
                    "metrics", f"{name!r} is pooled over groups (a micro "
                               f"average): a per-group frame does not carry "
                               f"its statistics; compare it from the rows.")
            if name not in table.columns:
                raise InvalidArgumentError(
                    "metrics", f"{name!r} is not a column of model {model!r}'s "
                               f"per-group frame.")
            v = table[name].to_numpy(dtype=np.float64)
            defined = ~np.isnan(v)
            by_name[name] = Partials(np.where(defined, v, 0.0), defined, None)
        parts[model] = by_name
    return info, parts
