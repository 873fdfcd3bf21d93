"""The compiled pass of the diversity metrics: :func:`intent_pass`.

Rows already in rank order (group after group; within a group score
descending, tied rows together), grades per intent: per group, on OpenMP
threads, one call of ``_grouped.intent_pass`` computes the intent weights,
the cascade value (the expected value over the orders of each tie block),
and the greedy or the exact ideal (branch and bound with a node budget per
group), as ``_intent_kernels.pxd`` writes them.  No Python loop over
groups.  Each group writes its own slots: any number of threads gives the
same bits.
"""

from typing import NamedTuple

import numpy as np

from ._compiled import _grouped

__all__ = ["IDEALS", "IntentPass", "MIN_PARALLEL_ROWS", "intent_pass"]

#: The ideals the pass computes, by name (the kernel's code).
IDEALS = {None: 0, "greedy": 1, "exact": 2}
#: Rows from which the pass runs on the threads OpenMP allows (below, one;
#: the exact ideal's search always runs on them): its work per row is far
#: above the ranking pass's, so threads pay off on smaller inputs than there
#: (benchmarks/README.md, "Diversity").
MIN_PARALLEL_ROWS = 200_000


class IntentPass(NamedTuple):
    """The pass's output, one entry (row) per group.

    value : (n_groups,) the cascade value
    ideal : (n_groups,) the ideal asked for (0 when none)
    proven : (n_groups,) bool, False where the exact search stopped at its
        budget (its ideal: the best order found, never below greedy's)
    weights : (n_groups, n_intents) the intent weights over the present intents
    present : (n_groups, n_intents) bool, the intent has a relevant item
    covered : (n_groups, n_intents) or None, the probability (over the orders
        of the tie blocks) that the intent has a relevant item in the top
        ``cover_k`` (0 for an intent not present)
    top : (n_groups, n_intents) or None, each intent's largest grade
    """

    value: np.ndarray
    ideal: np.ndarray
    proven: np.ndarray
    weights: np.ndarray
    present: np.ndarray
    covered: object = None
    top: object = None


def intent_pass(grades, scores, sizes, discounts, *, alpha, k=None,
                weights=None, priority=None, ideal=None, budget=0,
                cover=False, cover_k=None, top=False, n_threads=None):
    """Each group's diversity statistics (:class:`IntentPass`).

    Parameters
    ----------
    grades : (n_rows, n_intents) float64, >= 0, in rank order
    scores : (n_rows,) float64 (``-inf``: not retrieved)
    sizes : (n_groups,) int64, each group's rows
    discounts : (n,) float64, the discount of each 0-based rank, ``n`` at
        least the largest group's size
    alpha : float, the novelty parameter (a gain times ``1 - alpha`` per
        relevant item of its intent above it)
    k : int or None, the cutoff
    weights : (n_groups, n_intents) or None (equal), the intent weights
    priority : (n_rows,) int64 or None, which row a greedy tie goes to (the
        larger; None: the larger grade vector, lexicographically)
    ideal : None, "greedy" or "exact"
    budget : int, the exact search's nodes per group
    cover : bool, whether to compute ``covered`` (at cutoff ``cover_k``)
    cover_k : int or None, the coverage's cutoff
    top : bool, whether to compute ``top``
    n_threads : int or None (by the number of rows and the ideal)
    """
    grades = np.ascontiguousarray(grades, dtype=np.float64)
    n_rows, n_intents = grades.shape
    sizes = np.asarray(sizes, dtype=np.int64)
    n_groups = sizes.shape[0]
    starts = np.zeros(n_groups + 1, dtype=np.int64)
    np.cumsum(sizes, out=starts[1:])
    raw = (np.zeros((0, n_intents)) if weights is None
           else np.ascontiguousarray(weights, dtype=np.float64))
    prio = (np.zeros(0, dtype=np.int64) if priority is None
            else np.ascontiguousarray(priority, dtype=np.int64))
    disc = np.ascontiguousarray(discounts, dtype=np.float64)
    if disc.shape[0] < max(int(sizes.max()) if n_groups else 0, 1):
        raise ValueError("discounts: one per rank of the largest group needed")
    if n_threads is None:  # (the exact search: work enough on any input)
        n_threads = (1 if n_rows < MIN_PARALLEL_ROWS and ideal != "exact"
                     else max(int(_grouped.max_threads()), 1))
    none = np.zeros((0, n_intents))
    out = IntentPass(np.zeros(n_groups), np.zeros(n_groups),
                     np.ones(n_groups, dtype=np.uint8),
                     np.zeros((n_groups, n_intents)),
                     np.zeros((n_groups, n_intents), dtype=np.uint8),
                     np.zeros((n_groups, n_intents)) if cover else none,
                     np.zeros((n_groups, n_intents)) if top else none)
    _grouped.intent_pass(grades, np.ascontiguousarray(scores, dtype=np.float64),
                         starts, raw, prio, disc, 1.0 - alpha,
                         -1 if k is None else int(k), IDEALS[ideal], int(budget),
                         out.value, out.ideal, out.proven, out.weights,
                         out.present, -1 if cover_k is None else int(cover_k),
                         out.covered, out.top, int(n_threads))
    return out._replace(proven=out.proven.astype(bool),
                        present=out.present.astype(bool),
                        covered=out.covered if cover else None,
                        top=out.top if top else None)
