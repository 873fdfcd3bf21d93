"""ItemExposureDisplay: the Lorenz curve of the items' exposure in top-N lists.

The points are checked against ``_reference.lorenz_points`` of the expected
counts that ``_reference.expected_counts`` enumerates over every ordering of
the items tied at the cut (catalog items never recommended included as
zeros), and the Gini index against ``recommendation_report``'s ``gini@K``
and ``_reference.gini_index``.
"""

import copy
import warnings

import numpy as np
import pandas as pd
import pytest

from sklearn_rankeval import ItemExposureDisplay, recommendation_report, top_k_items
from tests import _reference as ref

N_ITEMS = 12


def _case(seed):
    """Lists of integer items with tied, discrete scores and some ``-inf``."""
    rng = np.random.default_rng(seed)
    rows = []
    for u in range(5):
        items = rng.choice(8, size=rng.integers(1, 6), replace=False)  # 8..11 never
        for i in items:
            s = float(rng.integers(0, 3)) if rng.random() > 0.1 else -np.inf
            rows.append((f"u{u}", int(i), s))
    train = [(f"t{rng.integers(0, 5)}", int(rng.integers(0, 10)))
             for _ in range(25)]
    return rows, train


def _ref_lists(rows):
    per_user = {}
    for u, i, s in rows:
        per_user.setdefault(u, []).append((i, s))
    return per_user


def _ref_train_counts(train):
    counts = [0] * N_ITEMS
    for _, i in train:
        counts[i] += 1
    return counts


def _by_code(disp):
    """``counts_`` indexed by item id (integer ids; absent items are 0)."""
    out = np.zeros(N_ITEMS)
    labels = np.asarray(disp.items_, dtype=np.int64)
    out[labels] = disp.counts_[:labels.shape[0]]
    assert not disp.counts_[labels.shape[0]:].any()
    return out


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("k", [1, 2, 3])
def test_lorenz_points_and_gini_equal_the_reference(pyplot, seed, k):
    rows, train = _case(seed)
    recommended = pd.DataFrame(rows, columns=["user", "item", "score"])
    train_frame = pd.DataFrame(train, columns=["user", "item"])
    disp = ItemExposureDisplay.from_recommendations(
        recommended, k=k, train=train_frame, n_items=N_ITEMS)

    counts = ref.expected_counts(_ref_lists(rows), k, N_ITEMS)
    np.testing.assert_allclose(_by_code(disp), [float(c) for c in counts],
                               rtol=1e-12, atol=1e-12)
    points = ref.lorenz_points(counts)
    np.testing.assert_allclose(disp.item_share_, [float(x) for x, _ in points],
                               rtol=1e-12)
    np.testing.assert_allclose(disp.exposure_share_, [float(y) for _, y in points],
                               rtol=1e-12, atol=1e-15)
    assert disp.gini_ == pytest.approx(float(ref.gini_index(counts)), rel=1e-12)
    # the Gini index is one minus twice the area under the curve
    area = np.sum(np.diff(disp.item_share_)
                  * (disp.exposure_share_[1:] + disp.exposure_share_[:-1]) / 2)
    assert disp.gini_ == pytest.approx(1 - 2 * area, abs=1e-12)
    # the same number as the report's gini@K, every user with a list counted
    report = recommendation_report(
        recommended, {"u0": [0]}, metrics=[f"gini@{k}"], n_items=N_ITEMS,
        users="recommended", output="dict")
    assert disp.gini_ == report[f"gini@{k}"]

    train_counts = _ref_train_counts(train)
    np.testing.assert_array_equal(_by_code_train(disp), train_counts)
    want = ref.lorenz_points(train_counts)
    np.testing.assert_allclose(disp.train_share_, [float(y) for _, y in want],
                               rtol=1e-12, atol=1e-15)
    assert disp.train_gini_ == pytest.approx(float(ref.gini_index(train_counts)),
                                             rel=1e-12)
    # the lines draw the arrays
    np.testing.assert_array_equal(disp.line_.get_xdata(), disp.item_share_)
    np.testing.assert_array_equal(disp.line_.get_ydata(), disp.exposure_share_)
    np.testing.assert_array_equal(disp.train_line_.get_ydata(), disp.train_share_)


def _by_code_train(disp):
    out = np.zeros(N_ITEMS)
    labels = np.asarray(disp.items_, dtype=np.int64)
    out[labels] = disp.train_counts_[:labels.shape[0]]
    return out


def test_default_catalog_and_report_equality_with_string_ids(pyplot):
    recommended = {"ann": ["a", "b", "c"], "bob": ["c", "a", "d"],
                   "cat": ["a", "e"]}
    train = {"ann": ["f"], "dan": ["a", "b"]}
    disp = ItemExposureDisplay.from_recommendations(recommended, k=2, train=train)
    # catalog: a..f (6 items); top-2: ann a, b; bob c, a; cat a, e
    assert sorted(disp.items_.tolist()) == list("abcdef")
    got = dict(zip(disp.items_.tolist(), disp.counts_.tolist()))
    assert got == {"a": 3, "b": 1, "c": 1, "d": 0, "e": 1, "f": 0}
    points = ref.lorenz_points([3, 1, 1, 0, 1, 0])
    np.testing.assert_allclose(disp.exposure_share_, [float(y) for _, y in points])
    report = recommendation_report(recommended, train, metrics=["gini@2"],
                                   users="recommended", output="dict")
    assert disp.gini_ == report["gini@2"]
    assert disp.line_.get_label() == f"Gini = {disp.gini_:.4f}"


def test_input_forms_give_the_same_curve(pyplot):
    rng = np.random.default_rng(3)
    scores = rng.integers(0, 4, size=(6, N_ITEMS)).astype(float)  # ties
    seen = rng.random((6, N_ITEMS)) < 0.2
    lists = top_k_items(scores, k=3, exclude=seen)
    base = ItemExposureDisplay.from_recommendations(lists, k=3, n_items=N_ITEMS)
    rows = [(u, i, s) for u, i, s in zip(lists["user"].tolist(),
                                          lists["item"].tolist(),
                                          lists["score"].tolist())]
    counts = ref.expected_counts(_ref_lists(rows), 3, N_ITEMS)
    np.testing.assert_allclose(_by_code(base), [float(c) for c in counts],
                               rtol=1e-12)
    frame = pd.DataFrame(lists).rename(columns={"user": "u", "item": "i",
                                                "score": "s"})
    other = ItemExposureDisplay.from_recommendations(
        frame, k=3, n_items=N_ITEMS, user="u", item="i", score="s")
    np.testing.assert_array_equal(other.exposure_share_, base.exposure_share_)
    assert other.gini_ == base.gini_

    # lists in order: the first k items of each list, ties or not
    in_order = {"x": [4, 1, 2, 7], "y": [1, 3]}
    by_mapping = ItemExposureDisplay.from_recommendations(in_order, k=2,
                                                          n_items=N_ITEMS)
    columns = {"user": ["x"] * 4 + ["y"] * 2, "item": [4, 1, 2, 7, 1, 3]}
    by_rows = ItemExposureDisplay.from_recommendations(columns, k=2,
                                                       n_items=N_ITEMS)
    want = [0] * N_ITEMS
    want[4], want[1], want[3] = 1, 2, 1
    np.testing.assert_array_equal(_by_code(by_mapping), want)
    np.testing.assert_array_equal(_by_code(by_rows), want)


def test_from_counts_draws_the_same_figure(pyplot):
    rows, train = _case(1)
    recommended = pd.DataFrame(rows, columns=["user", "item", "score"])
    a = ItemExposureDisplay.from_recommendations(
        recommended, k=2, train=pd.DataFrame(train, columns=["user", "item"]),
        n_items=N_ITEMS, name="m")
    b = ItemExposureDisplay.from_counts(a.counts_, train_counts=a.train_counts_,
                                        k=2, name="m")
    lines_a = [(ln.get_label(), ln.get_xydata()) for ln in a.ax_.get_lines()]
    lines_b = [(ln.get_label(), ln.get_xydata()) for ln in b.ax_.get_lines()]
    assert [lbl for lbl, _ in lines_a] == [lbl for lbl, _ in lines_b]
    for (_, xy_a), (_, xy_b) in zip(lines_a, lines_b):
        np.testing.assert_array_equal(xy_a, xy_b)
    assert a.ax_.get_ylabel() == b.ax_.get_ylabel() == (
        "Share of recommendations in top-2 lists")
    # the order of the items does not matter
    perm = np.random.default_rng(0).permutation(N_ITEMS)
    c = ItemExposureDisplay.from_counts(a.counts_[perm],
                                        train_counts=a.train_counts_[perm])
    np.testing.assert_allclose(c.exposure_share_, a.exposure_share_, rtol=1e-12)
    np.testing.assert_allclose(c.train_share_, a.train_share_, rtol=1e-12)
    assert c.gini_ == pytest.approx(a.gini_, rel=1e-12)


def test_several_displays_on_one_axes(pyplot):
    train = {"t1": ["a", "b", "a2"], "t2": ["a"]}
    fig, ax = pyplot.subplots()
    a = ItemExposureDisplay.from_recommendations(
        {"u": ["a", "b"], "v": ["a", "c"]}, k=2, train=train, ax=ax, name="A")
    b = ItemExposureDisplay.from_recommendations(
        {"u": ["c", "b"], "v": ["a", "a2"]}, k=2, train=train, ax=ax, name="B")
    assert a.ax_ is ax and b.ax_ is ax and b.figure_ is fig
    assert pyplot.get_fignums() == [fig.number]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == [
        "Equal exposure", f"Training interactions (Gini = {a.train_gini_:.4f})",
        f"A (Gini = {a.gini_:.4f})", f"B (Gini = {b.gini_:.4f})"]
    # the diagonal and the shared training curve are drawn once
    assert b.train_line_ is a.train_line_
    assert len(ax.get_lines()) == 5  # two diagonals (one unlabelled), 1 + 2 curves
    assert a.line_.get_color() != b.line_.get_color()
    # another training set is another curve
    c = ItemExposureDisplay.from_counts([1, 2, 3, 0], train_counts=[1, 1, 1, 5],
                                        ax=ax, name="C")
    assert c.train_line_ is not a.train_line_
    assert c.train_line_ in ax.get_lines()


def test_plot_again(pyplot):
    disp = ItemExposureDisplay.from_counts([4, 1, 0, 2], name="first")
    old_ax = disp.ax_
    disp.plot(name="second", curve_kwargs={"c": "red", "lw": 3}, ref_line=False)
    assert disp.ax_ is not old_ax
    assert disp.line_.get_label() == f"second (Gini = {disp.gini_:.4f})"
    assert disp.line_.get_color() == "red" and disp.line_.get_linewidth() == 3
    assert disp.ref_line_ is None and disp.train_line_ is None
    assert len(pyplot.get_fignums()) == 2
    assert disp.ax_.get_xlim() == pytest.approx((-0.01, 1.01))
    np.testing.assert_array_equal(disp.line_.get_ydata(), disp.exposure_share_)


def test_inputs_not_modified(pyplot):
    rows, train = _case(2)
    recommended = pd.DataFrame(rows, columns=["user", "item", "score"])
    mapping = {"u": [1, 2, 3], "v": [3, 1]}
    before = (recommended.copy(), copy.deepcopy(mapping))
    counts = np.array([3.0, 0.0, 1.0])
    ItemExposureDisplay.from_recommendations(recommended, k=2, n_items=N_ITEMS)
    ItemExposureDisplay.from_recommendations(mapping, k=1, train=mapping)
    ItemExposureDisplay.from_counts(counts, train_counts=counts)
    pd.testing.assert_frame_equal(recommended, before[0])
    assert mapping == before[1]
    np.testing.assert_array_equal(counts, [3.0, 0.0, 1.0])


BAD_RECOMMENDATIONS = [
    ("recommended", dict(recommended=None)),
    ("recommended", dict(recommended=[1, 2])),
    ("recommended", dict(recommended={"user": [1, 1], "item": [2, 2]})),
    ("recommended", dict(recommended={"user": [1], "item": [2],
                                      "score": [np.nan]})),
    ("recommended", dict(recommended={"user": [1], "item": [2],
                                      "score": [-np.inf]})),
    ("recommended", dict(recommended={"user": [], "item": []})),
    ("recommended", dict(recommended=pd.DataFrame({"u": [1], "item": [2]}))),
    ("k", dict(k=0)),
    ("k", dict(k=1.5)),
    ("n_items", dict(n_items=1)),
    ("train", dict(train={"user": [], "item": []})),
    ("train", dict(train="abc")),
    ("curve_kwargs", dict(curve_kwargs="red")),
    ("train_kw", dict(train={"t": [2]}, train_kw=3)),
    ("ref_line_kw", dict(ref_line_kw=[1])),
]


@pytest.mark.parametrize("argument, bad", BAD_RECOMMENDATIONS,
                         ids=[f"{a}-{i}" for i, (a, _) in
                              enumerate(BAD_RECOMMENDATIONS)])
def test_bad_recommendations_name_the_argument(pyplot, argument, bad):
    kwargs = dict(recommended={"user": [1, 1, 2], "item": [2, 3, 2]}, k=2,
                  n_items=3)
    kwargs.update(bad)
    recommended = kwargs.pop("recommended")
    with pytest.raises((ValueError, TypeError), match=rf"\b{argument}\b"):
        ItemExposureDisplay.from_recommendations(recommended, **kwargs)


BAD_COUNTS = [
    ("counts", dict(counts=[1, -1, 2])),
    ("counts", dict(counts=[1, np.nan, 2])),
    ("counts", dict(counts=[1, np.inf, 2])),
    ("counts", dict(counts=[0, 0, 0])),
    ("counts", dict(counts=[[1, 2], [3, 4]])),
    ("counts", dict(counts=[])),
    ("counts", dict(counts=["a", "b"])),
    ("train_counts", dict(train_counts=[1, 2])),
    ("train_counts", dict(train_counts=[1, -2, 3])),
    ("train_counts", dict(train_counts=[0, 0, 0])),
    ("k", dict(k=0)),
    ("curve_kwargs", dict(curve_kwargs={"c": "red", "color": "blue"})),
]


@pytest.mark.parametrize("argument, bad", BAD_COUNTS,
                         ids=[f"{a}-{i}" for i, (a, _) in enumerate(BAD_COUNTS)])
def test_bad_counts_name_the_argument(pyplot, argument, bad):
    kwargs = dict(counts=[1, 0, 2])
    kwargs.update(bad)
    counts = kwargs.pop("counts")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises((ValueError, TypeError), match=rf"\b{argument}\b"):
            ItemExposureDisplay.from_counts(counts, **kwargs)


def test_without_a_catalog_size_the_lists_are_the_catalog_and_it_is_said(pyplot):
    # issue 31, item 8: three top-2 lists over the items a, b, c of a
    # catalog of 10 items
    recommended = {"ann": ["a", "b"], "bob": ["a", "c"], "cat": ["a", "b"]}
    with pytest.warns(UserWarning, match="the catalog is the 3 items the lists "
                                         r"recommend.*pass n_items="):
        disp = ItemExposureDisplay.from_recommendations(recommended, k=2)
    assert disp.n_items_ == 3 and disp.gini_ == pytest.approx(
        ref.gini_index([3, 2, 1]), abs=1e-15)
    title = disp.ax_.get_legend().get_title().get_text()
    assert title == "Catalog: the 3 recommended items (n_items not given)"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        full = ItemExposureDisplay.from_recommendations(recommended, k=2,
                                                        n_items=10)
        with_train = ItemExposureDisplay.from_recommendations(
            recommended, k=2, train={"dan": ["d", "e"]})
    assert full.gini_ == pytest.approx(ref.gini_index([3, 2, 1] + [0] * 7),
                                       abs=1e-15)
    assert full.ax_.get_legend().get_title().get_text() == "Catalog: 10 items"
    # train's items are catalog items: a, b, c, d, e
    assert with_train.n_items_ == 5
    assert with_train.ax_.get_legend().get_title().get_text() == (
        "Catalog: 5 items")
    counts = ItemExposureDisplay.from_counts([3, 2, 1, 0], name="m")
    assert counts.ax_.get_legend().get_title().get_text() == "Catalog: 4 items"
