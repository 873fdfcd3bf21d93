"""The one input type: built once by check_inputs, immutable, with a slot for
each kind of optional column (API.md, wave 5: one input door)."""

import dataclasses

import numpy as np
import pytest

from sklearn_rankeval._core import InvalidArgumentError
from sklearn_rankeval._engine import _checks
from sklearn_rankeval._engine._checks import RankingInput, check_inputs


def test_unpacks_as_the_arrays_the_engine_ranks():
    checked = check_inputs([1, 0, 1], [0.2, 0.3, 0.1], groups=["a", "a", "b"])
    layout, y, s, g, w = checked
    assert layout == "long" and w is None and list(g) == ["a", "a", "b"]
    assert checked.n_rows == 3 and dict(checked.columns) == {}
    with pytest.raises(dataclasses.FrozenInstanceError):
        checked.y_true = None
    with pytest.raises(TypeError):  # the columns cannot be changed either
        checked.columns["judged"] = None
    two_d = check_inputs([[1, 0], [0, 1]], [[0.5, 0.1], [0.2, 0.3]])
    assert two_d.layout == "2d" and two_d.n_rows == 4


@pytest.mark.parametrize("y, pos_label, expected", [
    ([True, False, True], None, [1, 0, 1]),
    ([1, -1, -1], None, [1, 0, 0]),
    ([-1, -1, -1], None, [0, 0, 0]),
    (["buy", "skip", "buy"], "buy", [1, 0, 1]),
    ([3, 0, 1], None, [3, 0, 1]),  # grades as given
])
def test_labels_are_read_once_at_the_door(y, pos_label, expected):
    checked = check_inputs(y, [0.3, 0.2, 0.1], pos_label=pos_label)
    assert np.asarray(checked.y_true).tolist() == expected


def test_optional_columns_are_read_by_their_reader():
    s = np.array([0.3, 0.2, 0.1])
    checked = check_inputs([1, 0, 1], s, judged=np.array([True, False, True]))
    assert checked.columns["judged"].tolist() == [True, False, True]
    with pytest.raises(InvalidArgumentError, match=r"judged must have the shape"):
        check_inputs([1, 0, 1], s, judged=np.array([True, False]))
    with pytest.raises(TypeError, match="judged must be an array of booleans"):
        check_inputs([1, 0, 1], s, judged=np.array([1, 0, 1]))
    with pytest.raises(TypeError, match="unexpected column"):
        check_inputs([1, 0, 1], s, intents=np.ones((3, 2)))


def test_a_new_kind_of_judgment_is_one_reader(monkeypatch):
    # what the diversity issue needs: grades per intent, one reader here
    def read_intents(value, checked):
        grades = np.asarray(value, dtype=float)
        if grades.ndim != 2 or grades.shape[0] != checked.n_rows:
            raise InvalidArgumentError(
                "intents", f"must have one row per item, got {grades.shape}.")
        return grades

    monkeypatch.setitem(_checks.COLUMN_READERS, "intents", read_intents)
    grades = np.array([[1, 0], [0, 0], [0, 2]])
    checked = check_inputs([1, 0, 1], [0.3, 0.2, 0.1], groups=[0, 0, 0],
                           intents=grades)
    assert isinstance(checked, RankingInput)
    assert checked.columns["intents"].tolist() == grades.tolist()
    with pytest.raises(InvalidArgumentError, match="one row per item"):
        check_inputs([1, 0, 1], [0.3, 0.2, 0.1], intents=np.ones(3))
