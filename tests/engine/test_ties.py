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
