"""The group count in ``rankeval evaluate``'s header: the distinct ids of
the file, read off the engine's encoding of them (issue 37: no sort)."""

import json

import numpy as np
import pytest

from sklearn_rankeval._cli import main


@pytest.mark.parametrize("kind", ["sparse ints", "negative ints", "strings"])
@pytest.mark.parametrize("group_rows", ["any", "sorted"])
def test_the_header_counts_the_distinct_group_ids(tmp_path, capsys, kind,
                                                  group_rows):
    rng = np.random.default_rng(0)
    ids = rng.choice(100_000, 300, replace=False) * 7  # sparse, unordered
    if kind == "negative ints":
        ids = ids - 350_000
    g = np.repeat(ids, rng.integers(1, 6, ids.shape[0]))
    if group_rows == "any":
        g = rng.permutation(g)
    if kind == "strings":
        g = np.array([f"u{v}" for v in g])
    y = rng.integers(0, 2, g.shape[0])
    s = rng.random(g.shape[0])
    path = tmp_path / "preds.csv"
    with open(path, "w") as fh:
        fh.write("user,click,p\n")
        fh.writelines(f"{a},{b},{c:.6f}\n" for a, b, c in zip(g, y, s))
    assert main(["evaluate", str(path), "--group", "user", "--label", "click",
                 "--score", "p", "--format", "json", "-m", "gauc",
                 "--group-rows", group_rows]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["n_rows"] == g.shape[0]
    assert doc["n_groups"] == len(set(g.tolist())) == 300
