"""The one rule of tied rows (_engine/_ties.py), against the definition
written plainly: a tie block is a maximal run of one group's rows with equal
scores, in rank order."""

import itertools

import numpy as np
import pytest

from sklearn_rankeval._engine import tie_blocks


def _blocks_by_definition(group, score, perm):
    """(block of each sorted row, first, start, size, group) by walking the
    ranked rows group by group, run by run."""
    rows = [(int(group[i]), float(score[i])) for i in perm]
    block_of, first, start, size, owner = [], [], [], [], []
    j = 0
    for g, in_group in itertools.groupby(rows, key=lambda r: r[0]):
        rank = 0
        for _, run in itertools.groupby(in_group, key=lambda r: r[1]):
            m = len(list(run))
            first.append(j)
            start.append(rank)
            size.append(m)
            owner.append(g)
            block_of += [len(first) - 1] * m
            j += m
            rank += m
    return block_of, first, start, size, owner


@pytest.mark.parametrize("seed", range(5))
def test_blocks_are_the_runs_of_equal_scores_of_each_group(seed):
    rng = np.random.default_rng(seed)
    n = 200
    group = rng.integers(0, 12, n)
    score = rng.integers(0, 5, n).astype(float)
    score[rng.random(n) < 0.1] = -np.inf  # unretrieved rows tie with each other
    perm = np.lexsort((-score, group))
    got = tie_blocks(group, score, perm)
    block, first, start, size, owner = _blocks_by_definition(group, score, perm)
    assert got.perm is perm
    assert got.block.tolist() == block
    assert got.first.tolist() == first
    assert got.start.tolist() == start
    assert got.size.tolist() == size
    assert got.group.tolist() == owner


def test_no_rows_no_blocks():
    empty = np.zeros(0, dtype=np.int64)
    got = tie_blocks(empty, np.zeros(0), empty)
    assert [len(x) for x in got] == [0] * 6


def _trec_eval_order(scores, docs):
    """trec_eval's order written plainly (form_res_rels.c): document ids in
    decreasing strcmp order, then a stable sort by decreasing score."""
    rows = sorted(range(len(docs)), key=lambda i: docs[i], reverse=True)
    return sorted(rows, key=lambda i: -scores[i])


@pytest.mark.parametrize("seed", range(5))
def test_docno_order_is_trec_evals_order_in_each_group(seed):
    from sklearn_rankeval._engine import docno_codes, docno_order

    rng = np.random.default_rng(seed)
    n = 120
    group = np.sort(rng.integers(0, 6, n))
    score = rng.integers(0, 4, n).astype(float)
    docs = np.array([f"d{rng.integers(0, 40)}" for _ in range(n)])
    order = docno_order(score, docno_codes(docs), group)
    expected = []
    for g in np.unique(group):
        rows = np.flatnonzero(group == g)
        expected += rows[_trec_eval_order(score[rows].tolist(),
                                          docs[rows].tolist())].tolist()
    assert order.tolist() == expected


def test_docno_ties_of_2d_scores_rank_each_row_as_trec_eval():
    from sklearn_rankeval._metrics import tie_free_scores

    rng = np.random.default_rng(3)
    score = rng.integers(0, 3, (7, 9)).astype(float)
    docs = np.array([[f"x{rng.integers(0, 20)}" for _ in range(9)]
                     for _ in range(7)])
    out = tie_free_scores(score, "docno", docs)
    for i in range(7):
        order = _trec_eval_order(score[i].tolist(), docs[i].tolist())
        # distinct decreasing scores in trec_eval's order
        assert np.all(np.diff(out[i, order]) < 0)


def _has_tie_by_definition(score, groups):
    """Whether two retrieved rows (score > -inf) of one group share a score,
    by a dictionary of the (group, score) pairs seen."""
    seen = set()
    for i, s in enumerate(np.asarray(score, dtype=float).reshape(-1)):
        if s == -np.inf:
            continue
        key = (None if groups is None else groups[i], s)
        if key in seen:
            return True
        seen.add(key)
    return False


@pytest.mark.parametrize("seed", range(60))
def test_known_distinct_never_misses_a_tie(seed):
    """True only where no group holds a tie (and True for the cases it
    promises: ranks, lists in rank order), on random scores of every kind."""
    from sklearn_rankeval._engine import known_distinct

    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, 40))
    kind = seed % 6
    groups = np.sort(rng.integers(0, 5, n)) if seed % 2 else rng.integers(0, 5, n)
    if kind == 0:  # ranks of one ranking
        score = rng.permutation(n).astype(float) - 3
    elif kind == 1:  # integers with repeats possible
        score = rng.integers(0, n + 2, n).astype(np.int64)
    elif kind == 2:  # lists in order: minus the rank within the group
        order = np.argsort(groups, kind="stable")
        groups = groups[order]
        score = -(np.arange(n) - np.searchsorted(groups, groups)).astype(float)
    elif kind == 3:  # floats, some -inf, some +inf
        score = rng.normal(size=n)
        score[rng.random(n) < 0.2] = -np.inf
        score[rng.random(n) < 0.1] = np.inf
    elif kind == 4:  # half-integers
        score = rng.integers(0, 2 * n + 1, n) / 2
    else:  # a tie planted in one group of lists in order
        groups = np.sort(groups)
        score = -(np.arange(n) - np.searchsorted(groups, groups)).astype(float)
        if n > 3:
            score[1] = score[0] if groups[1] == groups[0] else score[1]
    for g in (None, groups, np.char.add("u", groups.astype(str))):
        tie = _has_tie_by_definition(score, g)
        got = known_distinct(score, g)
        if tie:
            assert got is False or got == np.False_
        if kind == 0 or (kind in (2, 5) and g is not None and not tie):
            assert got, (kind, g is None)


@pytest.mark.parametrize("seed", range(6))
def test_docno_order_packed_key_is_the_three_keys_lexsort(seed):
    """The packed key's order is ``np.lexsort`` of (code descending, score
    descending, group): on integer and float scores with ``-inf``, repeated
    codes, negative groups, and codes too wide to pack (the lexsort path)."""
    from sklearn_rankeval._engine import docno_order

    rng = np.random.default_rng(seed)
    n = 400
    group = rng.integers(-3, 9, n)
    codes = rng.integers(0, 50, n)
    for score in (rng.integers(-2, 3, n), rng.normal(size=n).round(1),
                  np.where(rng.random(n) < 0.2, -np.inf,
                           rng.integers(0, 4, n).astype(np.float32))):
        for g in (group, None):
            keys = [-codes, -np.asarray(score, dtype=np.float64)]
            keys += [] if g is None else [g]
            expected = np.lexsort(keys)
            np.testing.assert_array_equal(docno_order(score, codes, g), expected)
        wide = codes + (1 << 62)  # no room to pack: the three keys' lexsort
        np.testing.assert_array_equal(
            docno_order(score, wide, group),
            np.lexsort([-wide, -np.asarray(score, dtype=np.float64), group]))


def test_docno_codes_read_str_objects_as_text():
    from sklearn_rankeval._engine import docno_codes

    ids = ["d10", "d9", "é", "D1", "d10", "a"]
    as_text = docno_codes(np.array(ids))
    objects = np.empty(len(ids), dtype=object)
    objects[:] = ids
    np.testing.assert_array_equal(docno_codes(objects), as_text)
    # code point order: "D1" < "a" < "d10" < "d9" < "é"
    np.testing.assert_array_equal(as_text, [2, 3, 4, 0, 2, 1])
    # other Python objects compare as their text
    mixed = np.array([10, "9", 1], dtype=object)
    np.testing.assert_array_equal(docno_codes(mixed), [1, 2, 0])
