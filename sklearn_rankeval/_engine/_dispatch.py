"""Which ranker builds the :class:`~._ranked.RankedGroups` of an input:
:func:`rank` and :func:`rank_groups`, and the setting :data:`ENGINE_PATH`
that the tests switch to run every metric through each ranker."""

import numpy as np

from .._core import xpx
from ._checks import check_inputs
from ._compiled import rank_compiled
from ._generic import rank_generic
from ._group_ids import encode_groups
from ._multiclass import rank_multiclass

__all__ = ["ENGINE_PATH", "compiled_path", "rank", "rank_groups"]

#: The ranker of NumPy input: ``"compiled"`` (the compiled grouped pass) or
#: ``"generic"`` (the Array API ranker on NumPy).  The tests run each.
ENGINE_PATH = "compiled"

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
         native=None, probabilities=None):
    """:class:`RankedGroups` of inputs checked by :func:`check_inputs`.

    ``relabel`` maps the labels the ranking gives its groups (sorted ids;
    row indices of 2-D input) to the labels to report (the ids of a chunk,
    :mod:`._chunks`).  ``merge`` merges the consecutive blocks of a group
    that hold no relevant item (:func:`._generic.from_rows`): the registry's
    metrics give the same values on fewer blocks.  ``native``: statistics
    for the compiled pass to compute itself (:class:`~._native.Statistic`
    records, None for a metric without one; NumPy input).  The ranking has
    its unranked view (:attr:`~._ranked.RankedGroups.unranked`), whose
    ``probabilities`` are ``probabilities`` (same shape as ``y_score``:
    recalibrated scores), else the scores.
    """
    xp = xpx.namespace_of(y_score)
    compiled = compiled_path(y_score)
    if layout == "multiclass" and compiled:
        return rank_multiclass(y_true, y_score, w, relabel=relabel)
    if compiled:
        return rank_compiled(layout, y_true, y_score, groups, w, relabel=relabel,
                             merge=merge, native=native,
                             probabilities=probabilities)
    if layout != "long":  # one query per row: rows of one size
        query_weights = w
        n_queries, n_items = y_score.shape
        if layout == "multiclass":  # the true class is the one relevant item
            cols = xpx.arange(xp, n_items, xpx.device_of(y_score))
            y_true = xpx.astype(xp, xp.reshape(y_true, (-1, 1))
                                == xp.reshape(cols, (1, -1)), xp.float64)
        y_true = xp.reshape(y_true, (-1,))
        y_score = xp.reshape(y_score, (-1,))
        if probabilities is not None:
            probabilities = xp.reshape(probabilities, (-1,))
        rows = xpx.arange(xp, n_queries, xpx.device_of(y_score))
        rg = rank_generic(y_true, y_score, xp.repeat(rows, n_items), None, xp=xp,
                          device=xpx.device_of(y_score), relabel=relabel,
                          query_weights=query_weights, merge=merge,
                          probabilities=probabilities)
        if layout == "multiclass":  # no probability per item: no unranked view
            rg.unranked = None  # (nor rows of the call in rank order)
            rg.set_rank_order(None)
        return rg
    if xp is not np:
        return rank_generic(y_true, y_score, groups, w, xp=xp,
                            device=xpx.device_of(y_score), relabel=relabel,
                            merge=merge, probabilities=probabilities)
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
                        relabel=decode, merge=merge, probabilities=probabilities)


def _compose(outer, inner):
    return lambda c: outer(inner(c))




def compiled_path(y_score):
    """Whether NumPy input ``y_score`` goes through the compiled pass."""
    return isinstance(y_score, np.ndarray) and ENGINE_PATH == "compiled"
