"""The ranking engine shared by every grouped metric: one contract.

``rank(layout, y_true, y_score, groups, w) -> RankedGroups``

* :mod:`._checks` -- :func:`check_inputs`, the one input check (any Array
  API namespace), which reads the layout from the shapes and encodes
  multiclass labels;
* :mod:`._group_ids` -- group ids to slots in the sorted order of the ids
  (integer ids by offset, Categorical codes as they are, other ids hashed
  once), and back;
* :mod:`._ranked` -- :class:`RankedGroups`, the canonical form (the tie
  blocks of every group, in rank order), built once and complete, with its
  second view: the rows of the same groups unranked (``rg.unranked``,
  :mod:`._rows`);
* the rankers that build it:

  - :mod:`._compiled` -- NumPy input of every layout: the compiled grouped
    pass (``_grouped.pyx``, Cython with OpenMP): a counting sort by group,
    then per group its relevant rows sorted and the others counted, the
    merged blocks and the statistics of the metrics asked for
    (:mod:`._native`); :mod:`._multiclass` builds the multiclass blocks from
    its counts;
  - :mod:`._generic` -- any Array API namespace (the namespace's own sorts);

* :mod:`._dispatch` -- :func:`rank`: which ranker builds an input's
  :class:`RankedGroups` (``ENGINE_PATH``, switched by the tests);
* :mod:`._chunks` -- chunks of whole groups (``working_memory``);
* :mod:`._ties` -- :func:`tie_blocks`, the one rule of tied rows (the
  blocks of every group, in an order the caller ranks by);
* :mod:`._rows` -- ``UnrankedRows``, that second view (read by the CTR
  metrics), from the same pass and the same encoding of the groups;
* :mod:`._native` -- :class:`Statistic`, a statistic for the compiled pass
  as a metric's registry entry declares it;
* :mod:`._intents` -- :func:`intent_pass`, the compiled pass of the
  diversity metrics over rows already in rank order (grades per intent).

Any of the four input layouts (grouped rows with ``groups``, one row per
query, multiclass probabilities, one ranking) becomes one
:class:`RankedGroups`; the ranking metrics are computed from block-level
counts only, the metrics of the rows from its unranked view, with no Python
loop over groups or rows.  The engine knows no metric: the statistics its
compiled pass computes are named by the metrics' registry entries and
handed to it as :class:`Statistic` records.
"""

from ._checks import check_inputs, encode_classes, layout_of
from ._chunks import chunk_rows, ranked_chunks
from ._dispatch import rank, rank_groups
from ._group_ids import (
    check_group_ids,
    check_length,
    encode_groups,
    encode_rows,
    group_ids_array,
)
from ._intents import intent_pass
from ._native import Statistic
from ._ranked import RankedGroups, discount_cumsum
from ._ties import (
    TieBlocks,
    docno_codes,
    docno_order,
    grouped_descending,
    known_distinct,
    tie_blocks,
)

__all__ = [
    "RankedGroups",
    "Statistic",
    "check_group_ids",
    "check_length",
    "check_inputs",
    "chunk_rows",
    "discount_cumsum",
    "docno_codes",
    "docno_order",
    "encode_classes",
    "encode_groups",
    "encode_rows",
    "group_ids_array",
    "grouped_descending",
    "intent_pass",
    "known_distinct",
    "layout_of",
    "rank",
    "rank_groups",
    "ranked_chunks",
    "tie_blocks",
    "TieBlocks",
]
