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


def test_judged_and_docno_refusals_name_the_column():
    s = np.array([0.3, 0.2, 0.1])
    ids = np.array(["d3", "d1", "d2"], dtype=object)
    checked = check_inputs([1, 0, 1], s, docno=ids)
    assert checked.columns["docno"].tolist() == ["d3", "d1", "d2"]
    with pytest.raises(InvalidArgumentError,
                       match=r"^docno must have the shape of y_score \(3,\), got "
                             r"\(2,\)\.$"):
        check_inputs([1, 0, 1], s, docno=["d1", "d2"])
    # judged needs per-item labels: multiclass labels have another shape
    with pytest.raises(InvalidArgumentError,
                       match=r"^judged needs y_true of the shape of y_score "
                             r"\(2, 2\) \(no multiclass input\), got \(2,\)\.$"):
        check_inputs([0, 1], [[0.1, 0.2], [0.3, 0.4]],
                     judged=np.ones((2, 2), dtype=bool))


def test_positions_are_read_by_the_doors_reader():
    # a click log's column: 1-based integer ranks, integral floats accepted
    checked = check_inputs([1, 0, 1], [0.3, 0.2, 0.1],
                           positions=np.array([1.0, 2.0, 3.0]))
    ranks = checked.columns["positions"]
    assert ranks.dtype == np.int64 and ranks.tolist() == [1, 2, 3]
    for bad, match in [([0, 1, 2], "got 0"), ([1, 1.5, 2], "got 1.5"),
                       ([1, 2], r"one rank per row of clicks \(3\), got shape "
                                r"\(2,\)"),
                       ([[1], [2], [3]], "be 1-D, got an array")]:
        with pytest.raises(ValueError, match=f"^positions .*{match}"):
            check_inputs([1, 0, 1], [0.3, 0.2, 0.1], positions=bad)
    # the caller's name of y_true in the messages of the long layout
    with pytest.raises(ValueError, match=r"^clicks and y_score have inconsistent "
                                         r"lengths: 3 and 2\.$"):
        check_inputs([1, 0, 1], [0.5, 0.2], true_name="clicks")


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


def test_the_score_is_named_as_the_caller_names_it():
    with pytest.raises(ValueError, match=r"^y_score contains NaN\.$"):
        check_inputs([1, 0], [0.5, np.nan])
    with pytest.raises(ValueError, match=r"^y_prob contains NaN\.$"):
        check_inputs([1, 0], [0.5, np.nan], score_name="y_prob")
    with pytest.raises(ValueError, match=r"^y_true and y_score have inconsistent "
                                         r"lengths: 3 and 2\.$"):
        check_inputs([1, 0, 1], [0.5, 0.2])
    with pytest.raises(ValueError, match="^y_true must be 1-D when y_score is 1-D"):
        check_inputs([[1, 0]], [0.5, 0.2])


@pytest.mark.parametrize("y, labels, expected", [
    # class labels -> the column of each sample's class, as
    # sklearn.metrics.top_k_accuracy_score reads them
    ([10, 30, 20, 10], None, [0, 2, 1, 0]),
    (["b", "a", "c"], None, [1, 0, 2]),
    ([30, 10], [30, 20, 10], [0, 2]),  # labels in column order, not sorted
    ([2, 0, 1], [0, 1, 2], [2, 0, 1]),  # 0..C-1: the labels are the columns
    ([True, False, True], None, None),  # two classes, three columns: refused
])
def test_multiclass_labels_become_columns(y, labels, expected):
    scores = np.full((len(y), 3), 1 / 3)
    if expected is None:
        with pytest.raises(ValueError, match="2 distinct classes but y_score has 3"):
            check_inputs(y, scores, labels=labels)
        return
    checked = check_inputs(y, scores, labels=labels)
    assert checked.layout == "multiclass"
    assert np.asarray(checked.y_true).tolist() == expected


@pytest.mark.parametrize("y, labels, match", [
    ([0, 1, 5], [0, 1, 2], "labels that are not in labels"),
    ([0, 1, -1], [0, 1, 2], "labels that are not in labels"),
    (["a", "b", "z"], ["a", "b", "c"], "labels that are not in labels"),
    ([0, 1, 2], [0, 1], r"one class per column of y_score \(3\), got shape \(2,\)"),
    ([0, 1, 2], [0, 1, 1], "labels must be unique"),
])
def test_multiclass_bad_labels(y, labels, match):
    with pytest.raises(ValueError, match=match):
        check_inputs(y, np.full((3, 3), 1 / 3), labels=labels)


def test_groups_with_2d_scores_are_refused():
    with pytest.raises(ValueError, match="groups must be None when y_score is 2-D"):
        check_inputs([[1, 0]], [[0.5, 0.2]], groups=[1])
    with pytest.raises(ValueError, match=r"must have the same shape, got \(1, 2\) and "
                                         r"\(1, 3\)"):
        check_inputs([[1, 0]], [[0.5, 0.2, 0.1]])
    with pytest.raises(ValueError, match="y_true must be 2-D of shape"):
        check_inputs([1, 0, 1], [[0.5, 0.2]])


def test_two_d_weights_are_checked_per_query():
    checked = check_inputs([[1, 0], [0, 1]], [[0.5, 0.1], [0.2, 0.3]],
                           sample_weight=[1, 3])
    assert checked.sample_weight.tolist() == [1.0, 3.0]
    with pytest.raises(ValueError, match=r"sample_weight must have shape \(2,\) "
                                         r"\(one weight per query \(row\)\)"):
        check_inputs([[1, 0], [0, 1]], [[0.5, 0.1], [0.2, 0.3]],
                     sample_weight=[1, 3, 1, 1])
    multi = check_inputs([0, 2], [[0.5, 0.1, 0.4], [0.2, 0.3, 0.5]],
                         sample_weight=[2, 1], labels=[0, 1, 2])
    assert multi.layout == "multiclass" and multi.sample_weight.tolist() == [2.0, 1.0]


def test_labels_and_classes_from_pandas():
    pd = pytest.importorskip("pandas")
    checked = check_inputs(pd.Series(["b", "a", "c"]), np.full((3, 3), 1 / 3),
                           labels=pd.Series(["a", "b", "c"]))
    assert np.asarray(checked.y_true).tolist() == [1, 0, 2]
    read = check_inputs(pd.Series([True, False]), pd.Series([0.4, 0.1]))
    assert np.asarray(read.y_true).tolist() == [1, 0]
    with pytest.raises(ValueError, match="pos_label"):
        check_inputs([0, 2], np.full((2, 3), 1 / 3), pos_label=2)


def test_pos_label_refusals():
    with pytest.raises(ValueError, match=r"^y_true has 3 distinct labels; with "
                                         r"pos_label it must hold at most two"):
        check_inputs(["a", "b", "c"], [0.1, 0.2, 0.3], pos_label="a")
    with pytest.raises(ValueError, match=r"^pos_label='z' is not a label of "
                                         r"y_true \(a, b\)\.$"):
        check_inputs(["a", "b"], [0.1, 0.2], pos_label="z")
    # one class only, not pos_label: every item not relevant (a batch may
    # hold no click)
    assert np.asarray(check_inputs(["a", "a"], [0.1, 0.2],
                                   pos_label="z").y_true).tolist() == [0, 0]
    with pytest.raises(ValueError, match="not numbers: pass pos_label="):
        check_inputs(["a", "b"], [0.1, 0.2])
    # 2-D grades are never read as -1/1 labels: a negative grade is refused
    with pytest.raises(ValueError, match="must be >= 0"):
        check_inputs([[1, -1]], [[0.5, 0.2]])


# ---------------------------------------------------------------------------
# the same door for Array API input (array-api-strict): the labels are read
# in the input's namespace by the same rule
# ---------------------------------------------------------------------------
@pytest.fixture
def strict():
    xs = pytest.importorskip("array_api_strict")
    pytest.importorskip("array_api_compat")
    import sklearn

    with sklearn.config_context(array_api_dispatch=True):
        yield xs


@pytest.mark.parametrize("y, pos_label, expected", [
    ([True, False, True], None, [1, 0, 1]),
    ([1, -1, -1], None, [1, 0, 0]),
    ([-1, -1, -1], None, [0, 0, 0]),
    ([3, 0, 1], None, [3, 0, 1]),
    ([0, 0, 1], None, [0, 0, 1]),  # 0/1 stay 0/1 (no -1: not read as -1/1)
    ([2, 5, 2], 5, [0, 1, 0]),
])
def test_labels_in_the_input_namespace(strict, y, pos_label, expected):
    y_in = strict.asarray(np.asarray(y))
    checked = check_inputs(y_in, strict.asarray([0.3, 0.2, 0.1]),
                           pos_label=pos_label)
    assert np.asarray(checked.y_true).tolist() == expected


def test_array_api_label_refusals(strict):
    s = strict.asarray([0.3, 0.2, 0.1])
    with pytest.raises(ValueError, match="y_true has 3 distinct labels"):
        check_inputs(strict.asarray([1, 2, 3]), s, pos_label=1)
    with pytest.raises(ValueError, match=r"pos_label=7 is not a label of y_true "
                                         r"\(1, 2\)"):
        check_inputs(strict.asarray([1, 2, 1]), s, pos_label=7)


def test_array_api_classes_and_group_ids(strict):
    scores = strict.asarray(np.full((3, 3), 1 / 3))
    checked = check_inputs(strict.asarray([30.0, 10.0, 20.0]), scores,
                           labels=[30, 20, 10])
    assert np.asarray(checked.y_true).tolist() == [0, 2, 1]
    with pytest.raises(ValueError, match="labels that are not in labels"):
        check_inputs(strict.asarray([30.0, 11.0, 20.0]), scores,
                     labels=[30, 20, 10])
    # host strings cannot move to the namespace: encode them on the host
    with pytest.raises(TypeError, match="y_true holds values of dtype <U1; under "
                                        "array_api_dispatch"):
        check_inputs(np.array(["a", "b", "c"]), scores)
    long = check_inputs(strict.asarray([1, 0, 1]), strict.asarray([0.3, 0.2, 0.1]),
                        groups=np.array([7, 7, 9], dtype=np.uint32))
    assert np.asarray(long.groups).tolist() == [7, 7, 9]
    with pytest.raises(TypeError, match="groups must hold integer ids"):
        check_inputs(strict.asarray([1, 0, 1]), strict.asarray([0.3, 0.2, 0.1]),
                     groups=np.array(["a", "a", "b"]))
    with pytest.raises(ValueError, match="2\\*\\*63 or more"):
        check_inputs(strict.asarray([1, 0]), strict.asarray([0.3, 0.2]),
                     groups=np.array([1, 2**63 + 5], dtype=np.uint64))


def test_refusals_word_the_door_exactly():
    # the door's messages, word for word (the argument's own name first)
    with pytest.raises(ValueError, match=r"^y_true could not be converted to an "
                                         r"array\.$"):
        check_inputs([[1, 0], [1]], [[0.1, 0.2], [0.3, 0.4]])
    with pytest.raises(InvalidArgumentError,
                       match=r"^y_true holds class labels that are not numbers: "
                             r"pass pos_label= to name the class that is "
                             r"relevant \(positive\)\.$"):
        check_inputs(["a", "b"], [0.1, 0.2])
    with pytest.raises(InvalidArgumentError,
                       match=r"^pos_label cannot be used with multiclass scores "
                             r"\(2-D y_score and 1-D y_true\): each sample's "
                             r"relevant item is its true class\.$"):
        check_inputs([0, 2], np.full((2, 3), 1 / 3), pos_label=2)
    # labels 0..C-1 (the columns themselves): a label outside them is refused
    with pytest.raises(ValueError, match=r"^y_true contains labels that are not "
                                         r"in labels\.$"):
        check_inputs([0, 5], np.full((2, 3), 1 / 3), labels=[0, 1, 2])


def test_float_labels_with_integer_classes_are_looked_up():
    # y_true of floats and labels 0..C-1: each label must be one of them
    # (1.5 is no class), and the classes found are the columns
    checked = check_inputs([2.0, 0.0], np.full((2, 3), 1 / 3), labels=[0, 1, 2])
    assert np.asarray(checked.y_true).tolist() == [2, 0]
    with pytest.raises(ValueError, match="labels that are not in labels"):
        check_inputs([0.0, 1.5], np.full((2, 3), 1 / 3), labels=[0, 1, 2])


def test_two_d_weights_are_the_rows_weights():
    w = np.array([2.0, 0.5])
    checked = check_inputs([[1, 0], [0, 1]], [[0.5, 0.1], [0.2, 0.3]],
                           sample_weight=w)
    assert np.asarray(checked.sample_weight).tolist() == [2.0, 0.5]
    many = check_inputs([0, 2], np.full((2, 3), 1 / 3), labels=[0, 1, 2],
                        sample_weight=w)
    assert np.asarray(many.sample_weight).tolist() == [2.0, 0.5]


def test_array_api_group_ids_of_uint64(strict):
    # uint64 ids below 2**63 are kept (0 included); above, int64 cannot hold
    # them: factorize on the host
    s = strict.asarray([0.3, 0.2, 0.1])
    checked = check_inputs(strict.asarray([1, 0, 1]), s,
                           groups=np.array([0, 0, 3], dtype=np.uint64))
    assert np.asarray(checked.groups).tolist() == [0, 0, 3]
    with pytest.raises(ValueError, match=r"^groups holds uint64 ids of 2\*\*63 or "
                                         r"more, which int64 cannot hold: "
                                         r"factorize them on the host \(codes, ids "
                                         r"= pandas\.factorize\(groups\)\) and pass "
                                         r"the codes\.$"):
        check_inputs(strict.asarray([1, 0]), strict.asarray([0.3, 0.2]),
                     groups=np.array([1, 2**63 + 5], dtype=np.uint64))


def test_array_api_float_classes(strict):
    # classes that are not integers keep their values (no cast to int64)
    scores = strict.asarray(np.full((2, 2), 0.5))
    checked = check_inputs(strict.asarray([1.5, 0.5]), scores, labels=[0.5, 1.5])
    assert np.asarray(checked.y_true).tolist() == [1, 0]
    with pytest.raises(ValueError, match="labels that are not in labels"):
        check_inputs(strict.asarray([0.7, 0.5]), scores, labels=[0.5, 1.5])


def test_array_api_namespace_and_device_of_every_array(strict):
    # the namespace is that of any array given (weights included), and host
    # arrays move to the device of the namespace's arrays
    checked = check_inputs(np.array([1, 0, 1]), np.array([0.3, 0.2, 0.1]),
                           sample_weight=strict.asarray([1.0, 2.0, 3.0]))
    assert isinstance(checked.y_score, type(strict.asarray([0.0])))
    device = strict.Device("device1")
    on_device = check_inputs(strict.asarray([1, 0, 1], device=device),
                             strict.asarray([0.3, 0.2, 0.1], device=device),
                             groups=np.array([5, 5, 7]))
    assert on_device.groups.device == device
    # grades keep their dtype: an all-ones int8 column is not relabelled
    ones = check_inputs(strict.asarray([1, 1], dtype=strict.int8),
                        strict.asarray([0.3, 0.2]))
    assert ones.y_true.dtype == strict.int8


def test_take_is_the_door_on_the_rows_taken():
    """A checked input cut to some rows equals the door's input of those rows
    (each array and column), by index and by mask; 2-D input refuses."""
    from sklearn_rankeval._engine import check_inputs

    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 12)
    s = rng.normal(size=12)
    g = np.repeat(["a", "b", "c"], 4)
    w = rng.random(12)
    judged = rng.random(12) > 0.3
    whole = check_inputs(y, s, groups=g, sample_weight=w, judged=judged)
    for rows in (np.array([0, 3, 4, 11]), rng.random(12) > 0.5):
        part = whole.take(rows)
        want = check_inputs(y[rows], s[rows], groups=g[rows], sample_weight=w[rows],
                            judged=judged[rows])
        assert part.layout == want.layout == "long"
        for got, exp in zip(part, want):
            if isinstance(exp, np.ndarray):
                assert np.array_equal(np.asarray(got), exp)
        assert np.array_equal(part.columns["judged"], want.columns["judged"])
    with pytest.raises(ValueError, match="long layout"):
        check_inputs(np.ones((2, 3)), np.ones((2, 3))).take([0])


def test_to_long_is_the_door_on_the_long_layout():
    """2-D input as the long layout: the door's input of the flattened rows
    with each row's index as group and its query weight on its items."""
    from sklearn_rankeval._engine import check_inputs

    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, (3, 4))
    s = rng.normal(size=(3, 4))
    w = rng.random(3)
    judged = rng.random((3, 4)) > 0.4
    long = check_inputs(y, s, sample_weight=w, judged=judged).to_long()
    want = check_inputs(y.ravel(), s.ravel(), groups=np.repeat(np.arange(3), 4),
                        sample_weight=np.repeat(w, 4), judged=judged.ravel())
    assert long.layout == "long"
    for got, exp in zip(list(long)[1:], list(want)[1:]):
        assert np.array_equal(np.asarray(got), np.asarray(exp))
    assert np.array_equal(long.columns["judged"], want.columns["judged"])
    same = check_inputs(y.ravel(), s.ravel())
    assert same.to_long() is same
