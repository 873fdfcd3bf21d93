"""The ranking engine shared by every grouped metric: one contract.

``rank(layout, y_true, y_score, groups, w) -> RankedGroups``

* :mod:`._checks` -- :func:`check_inputs`, the one input check (any Array
  API namespace), which reads the layout from the shapes and encodes
  multiclass labels;
* :mod:`._group_ids` -- group ids to slots in the sorted order of the ids
  (integer ids by offset, Categorical codes as they are, other ids hashed
  once), and back;
* :mod:`._ranked` -- :class:`RankedGroups`, the canonical form (the tie
  blocks of every group, in rank order), built once and complete;
* the rankers that build it:

  - :mod:`._compiled` -- NumPy input of every layout: the compiled grouped
    pass (``_grouped.pyx``, Cython with OpenMP): a counting sort by group,
    then per group its relevant rows sorted and the others counted, the
    merged blocks and the statistics of the metrics asked for
    (:mod:`._native`); :mod:`._multiclass` builds the multiclass blocks from
    its counts;
  - :mod:`._generic` -- any Array API namespace (the namespace's own sorts);

* :mod:`._chunks` -- chunks of whole groups (``working_memory``);
* :mod:`._rows` -- :class:`GroupedRows`, the rows of each group unranked
  (the CTR metrics), from the same counting sort.

Any of the four input layouts (grouped rows with ``groups``, one row per
query, multiclass probabilities, one ranking) becomes one
:class:`RankedGroups`; the metrics are computed from block-level counts only,
with no Python loop over groups or rows.
"""

import numpy as np

from .._core import xpx
from ._checks import check_inputs, encode_classes
from ._chunks import chunk_rows, ranked_chunks
from ._compiled import rank_compiled
from ._generic import rank_generic
from ._group_ids import (
    check_group_ids,
    check_length,
    encode_groups,
    encode_rows,
    group_ids_array,
)
from ._multiclass import rank_multiclass
from ._native import supported as native_supported
from ._ranked import RankedGroups, discount_cumsum, discounts
from ._rows import GroupedRows, grouped_rows

__all__ = [
    "ENGINE_PATH",
    "GroupedRows",
    "RankedGroups",
    "check_group_ids",
    "check_inputs",
    "chunk_rows",
    "discount_cumsum",
    "discounts",
    "encode_classes",
    "encode_groups",
    "encode_rows",
    "group_ids_array",
    "grouped_rows",
    "native_supported",
    "rank",
    "rank_checked",
    "rank_groups",
    "ranked_chunks",
]

#: The ranker of NumPy input: ``"compiled"`` (the compiled grouped pass) or
#: ``"generic"`` (the Array API ranker on NumPy).  The tests run each.
ENGINE_PATH = "compiled"

# names kept for the modules that import them
_check_length = check_length
_encode_groups = encode_groups


def rank_groups(y_true, y_score, *, groups=None, sample_weight=None, labels=None,
                merge=True):
    """Validate the inputs of a ranking metric and build its :class:`RankedGroups`.

    The layout is read from the shapes: 1-D ``y_score`` is the long layout
    (one ranking when ``groups`` is None); 2-D ``y_score`` with 2-D ``y_true``
    is one row per query; 2-D ``y_score`` with 1-D ``y_true`` is multiclass.
    ``labels`` is only used by the multiclass layout.  ``merge=False`` keeps
    every tie block (curves have one point per block), see :func:`rank`.
    """
    return rank(*check_inputs(y_true, y_score, groups=groups,
                              sample_weight=sample_weight, labels=labels),
                merge=merge)


def rank(layout, y_true, y_score, groups, w, *, relabel=None, merge=False,
         native=()):
    """:class:`RankedGroups` of inputs checked by :func:`check_inputs`.

    ``relabel`` maps the labels the ranking gives its groups (sorted ids;
    row indices of 2-D input) to the labels to report (the ids of a chunk,
    :mod:`._chunks`).  ``merge`` merges the consecutive blocks of a group
    that hold no relevant item (:func:`._generic.from_rows`): the registry's
    metrics give the same values on fewer blocks.  ``native``: statistics
    for the compiled pass to compute itself (``(name, options)`` pairs,
    :mod:`._native`; NumPy input).
    """
    xp = xpx.namespace_of(y_score)
    compiled = xp is np and ENGINE_PATH == "compiled"
    if layout == "multiclass" and compiled:
        return rank_multiclass(y_true, y_score, w, relabel=relabel)
    if compiled:
        return rank_compiled(layout, y_true, y_score, groups, w, relabel=relabel,
                             merge=merge, native=native)
    if layout != "long":  # one query per row: rows of one size
        query_weights = w
        n_queries, n_items = y_score.shape
        if layout == "multiclass":  # the true class is the one relevant item
            cols = xpx.arange(xp, n_items, xpx.device_of(y_score))
            y_true = xpx.astype(xp, xp.reshape(y_true, (-1, 1))
                                == xp.reshape(cols, (1, -1)), xp.float64)
        y_true = xp.reshape(y_true, (-1,))
        y_score = xp.reshape(y_score, (-1,))
        rows = xpx.arange(xp, n_queries, xpx.device_of(y_score))
        return rank_generic(y_true, y_score, xp.repeat(rows, n_items), None, xp=xp,
                            device=xpx.device_of(y_score), relabel=relabel,
                            query_weights=query_weights, merge=merge)
    if xp is not np:
        return rank_generic(y_true, y_score, groups, w, xp=xp,
                            device=xpx.device_of(y_score), relabel=relabel,
                            merge=merge)
    n = y_score.shape[0]
    if groups is None:
        codes = np.zeros(n, dtype=np.int64)

        def decode(c):
            return np.zeros(len(c), dtype=int)
    else:
        codes, decode = encode_groups(groups, n)
    if relabel is not None:
        decode = _compose(relabel, decode)
    return rank_generic(y_true, y_score, codes, w, xp=np, device=None,
                        relabel=decode, merge=merge)


def _compose(outer, inner):
    return lambda c: outer(inner(c))


#: The former name of :func:`rank`.
rank_checked = rank
