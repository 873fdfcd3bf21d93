"""``top_k_items``: each user's top-k items, against a per-user full sort.

The reference (:func:`tests._reference.top_k_of_user`) sorts every user's
eligible items plainly and keeps every item at or above the k-th score; the
function must give the same lists for every form of the training mask, every
batch size, NumPy and the Array API namespaces.
"""

import math
import tracemalloc

import numpy as np
import pytest
import sklearn
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_array_equal
from scipy import sparse

from sklearn_rankeval import config_context, top_k_items
from tests._reference import top_k_of_user

try:
    from tests.metrics.test_array_api import NAMESPACES
except pytest.skip.Exception:  # pragma: no cover - without array-api-compat
    NAMESPACES = [pytest.param(None, id="array-api", marks=pytest.mark.skip(
        reason="array-api-compat is not installed"))]

NEG_INF = -math.inf


def reference(scores, excluded, k):
    """``top_k_items``' dict from a loop over users (``excluded`` dense or None)."""
    scores = np.asarray(scores)
    users, items, values = [], [], []
    for u in range(scores.shape[0]):
        row = [float(s) for s in scores[u]]
        out = [False] * len(row) if excluded is None else list(excluded[u])
        for j, s in top_k_of_user(row, out, k):
            users.append(u)
            items.append(j)
            values.append(s)
    return {"user": np.array(users, dtype=np.int64),
            "item": np.array(items, dtype=np.int64),
            "score": np.array(values, dtype=np.float64)}


def assert_same(got, expected, dtype=np.float64):
    assert set(got) == {"user", "item", "score"}
    for name in ("user", "item", "score"):
        assert isinstance(got[name], np.ndarray), name
    assert got["user"].dtype == np.int64 and got["item"].dtype == np.int64
    assert got["score"].dtype == dtype
    assert_array_equal(got["user"], expected["user"])
    assert_array_equal(got["item"], expected["item"])
    assert_array_equal(got["score"].astype(np.float64), expected["score"])


def make_data(seed=0, n_users=23, n_items=17, n_levels=5):
    """Discrete scores (ties everywhere), some -inf, a 15% mask with one
    fully excluded user, one user with every score -inf, and one user whose
    eligible items are fewer than most k."""
    rng = np.random.default_rng(seed)
    scores = rng.integers(0, n_levels, (n_users, n_items)) / 4.0
    scores[rng.random((n_users, n_items)) < 0.05] = NEG_INF
    scores[4] = NEG_INF
    mask = rng.random((n_users, n_items)) < 0.15
    mask[7] = True
    mask[9, 3:] = True
    return scores, mask


MASKS = {
    "none": lambda m: None,
    "dense": lambda m: m,
    "csr": sparse.csr_matrix,
    "csc": sparse.csc_matrix,
    "coo": sparse.coo_matrix,
    "csr_array": sparse.csr_array,
}


@pytest.mark.parametrize("form", list(MASKS))
@pytest.mark.parametrize("batch_size", [1, 3, 23, 50, None])
@pytest.mark.parametrize("k", [1, 2, 5, 17, 40])
def test_equals_a_per_user_sort(form, batch_size, k):
    scores, mask = make_data()
    exclude = MASKS[form](mask)
    got = top_k_items(scores, k=k, exclude=exclude, batch_size=batch_size)
    assert_same(got, reference(scores, None if exclude is None else mask, k))


def test_a_tie_at_the_cut_is_kept_whole():
    # items 1, 2 and 3 tie at the 2nd place: all three are kept; the
    # excluded item 0 would be first
    scores = np.array([[9.0, 5.0, 5.0, 5.0, 1.0]])
    mask = np.array([[True, False, False, False, False]])
    got = top_k_items(scores, k=2, exclude=mask)
    assert got["item"].tolist() == [1, 2, 3]
    got = top_k_items(scores, k=4, exclude=mask)
    assert got["item"].tolist() == [1, 2, 3, 4]
    got = top_k_items(scores, k=1)
    assert got["item"].tolist() == [0]


def test_minus_inf_and_all_excluded_users_get_what_is_eligible():
    scores = np.array([[1.0, NEG_INF, 3.0],
                       [NEG_INF, NEG_INF, NEG_INF],
                       [2.0, 2.0, 2.0],
                       [math.inf, 0.0, math.inf]])
    mask = np.array([[False, False, False],
                     [False, False, False],
                     [True, True, True],
                     [False, False, False]])
    got = top_k_items(scores, k=5, exclude=sparse.csr_matrix(mask))
    assert got["user"].tolist() == [0, 0, 3, 3, 3]
    assert got["item"].tolist() == [2, 0, 0, 2, 1]
    assert got["score"].tolist() == [3.0, 1.0, math.inf, math.inf, 0.0]


def test_sparse_mask_excludes_stored_entries_even_explicit_zeros():
    scores = np.array([[3.0, 2.0, 1.0]])
    mask = sparse.csr_matrix((np.array([0]), np.array([0]), np.array([0, 1])),
                             shape=(1, 3))
    assert mask.nnz == 1
    got = top_k_items(scores, k=1, exclude=mask)
    assert got["item"].tolist() == [1]


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int64, np.int8,
                                   np.uint16, bool])
def test_dtypes(dtype):
    scores, mask = make_data(1)
    scores = np.where(np.isfinite(scores), scores * 4, 0).astype(dtype)
    got = top_k_items(scores, k=3, exclude=mask, batch_size=4)
    float_dtype = dtype if np.dtype(dtype).kind == "f" else np.float64
    assert_same(got, reference(scores, mask, 3), dtype=float_dtype)


def test_lists_and_dataframes_are_read_as_arrays():
    pd = pytest.importorskip("pandas")
    scores, mask = make_data(2)
    expected = reference(scores, mask, 4)
    assert_same(top_k_items(scores.tolist(), k=4, exclude=mask.tolist()), expected)
    assert_same(top_k_items(pd.DataFrame(scores), k=4,
                            exclude=pd.DataFrame(mask)), expected)


def test_fortran_ordered_scores():
    scores, mask = make_data(3)
    got = top_k_items(np.asfortranarray(scores), k=3,
                      exclude=np.asfortranarray(mask), batch_size=5)
    assert_same(got, reference(scores, mask, 3))


def test_empty_shapes():
    for shape in [(0, 0), (0, 5), (5, 0)]:
        got = top_k_items(np.zeros(shape, dtype=np.float32), k=3,
                          exclude=np.zeros(shape, dtype=bool))
        assert [got[c].shape for c in ("user", "item", "score")] == [(0,)] * 3
        assert got["score"].dtype == np.float32


def test_default_batch_follows_working_memory():
    scores, mask = make_data(4, n_users=40)
    expected = reference(scores, mask, 3)
    # a byte: one user per batch
    with config_context(working_memory=1e-6):
        assert_same(top_k_items(scores, k=3, exclude=sparse.csr_matrix(mask)),
                    expected)
    assert_same(top_k_items(scores, k=3, exclude=sparse.csr_matrix(mask)), expected)


@st.composite
def problems(draw):
    n_users = draw(st.integers(0, 30))
    n_items = draw(st.integers(0, 30))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n_levels = draw(st.integers(1, 6))
    scores = rng.integers(0, n_levels, (n_users, n_items)).astype(np.float64)
    scores[rng.random((n_users, n_items)) < draw(st.sampled_from([0, 0.1, 0.6]))] = (
        NEG_INF)
    mask = rng.random((n_users, n_items)) < draw(st.sampled_from([0, 0.2, 0.7, 1]))
    if n_users:
        mask[rng.integers(n_users)] = True  # a user with nothing eligible
    k = draw(st.integers(1, 40))
    batch_size = draw(st.one_of(st.none(), st.integers(1, 35)))
    form = draw(st.sampled_from(list(MASKS)))
    return scores, mask, k, batch_size, form


@given(problems())
def test_hypothesis_equals_a_per_user_sort(problem):
    scores, mask, k, batch_size, form = problem
    exclude = MASKS[form](mask)
    got = top_k_items(scores, k=k, exclude=exclude, batch_size=batch_size)
    assert_same(got, reference(scores, None if exclude is None else mask, k))


@given(problems(), st.data())
def test_hypothesis_nan_anywhere_raises(problem, data):
    scores, mask, k, batch_size, form = problem
    if scores.size == 0:
        return
    u = data.draw(st.integers(0, scores.shape[0] - 1))
    j = data.draw(st.integers(0, scores.shape[1] - 1))
    scores[u, j] = np.nan  # excluded or not, above or below the cut
    with pytest.raises(ValueError, match="^scores contains NaN"):
        top_k_items(scores, k=k, exclude=MASKS[form](mask), batch_size=batch_size)


def test_inputs_are_not_modified():
    scores, mask = make_data(5)
    for exclude in (mask, sparse.csr_matrix(mask), sparse.coo_matrix(mask)):
        s_before, m_before = scores.copy(), exclude.copy()
        top_k_items(scores, k=3, exclude=exclude, batch_size=4)
        assert_array_equal(scores, s_before)
        if sparse.issparse(exclude):
            assert (exclude != m_before).nnz == 0
            assert exclude.format == m_before.format
        else:
            assert_array_equal(exclude, m_before)


@pytest.mark.parametrize("form", ["none", "dense", "csr", "coo"])
def test_memory_is_one_batch_copy(form):
    # float16 scores in batches of 100 users x 4000 items: the working copy
    # (800 kB) is the one batch-sized array alive at a time -- the boolean
    # selection (400 kB) comes after it is freed -- beside the output
    rng = np.random.default_rng(0)
    scores = rng.random((500, 4000)).astype(np.float16)
    mask = MASKS[form](rng.random((500, 4000)) < 0.001)
    tracemalloc.start()
    try:
        got = top_k_items(scores, k=20, exclude=mask, batch_size=100)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    output = sum(a.nbytes for a in got.values())
    work = 100 * 4000 * 2
    assert peak - output < 1.25 * work, (peak, output)


# ---------------------------------------------------------------------------
# Array API: the same lists, computed on the input's device
# ---------------------------------------------------------------------------
@pytest.fixture(params=NAMESPACES)
def namespace(request):
    return request.param()


@pytest.mark.parametrize("form", ["none", "dense", "namespace", "csr", "coo"])
@pytest.mark.parametrize("batch_size", [1, 4, None])
def test_array_api_gives_the_numpy_lists(namespace, form, batch_size):
    module, device, convert = namespace
    scores, mask = make_data(6)
    exclude = convert(mask) if form == "namespace" else MASKS[form](mask)
    for dtype in (np.float64, np.float32):
        with sklearn.config_context(array_api_dispatch=True):
            got = top_k_items(convert(scores.astype(dtype)), k=3, exclude=exclude,
                              batch_size=batch_size)
        expected = reference(scores, None if form == "none" else mask, 3)
        assert_same(got, expected, dtype=dtype)


def test_array_api_integer_scores_and_nan(namespace):
    module, device, convert = namespace
    scores, mask = make_data(7)
    ints = np.where(np.isfinite(scores), scores * 4, 0).astype(np.int64)
    with sklearn.config_context(array_api_dispatch=True):
        got = top_k_items(convert(ints), k=2, exclude=mask)
        assert_same(got, reference(ints, mask, 2))
        scores[2, 5] = np.nan
        with pytest.raises(ValueError, match="^scores contains NaN"):
            top_k_items(convert(scores), k=2, exclude=mask)


def test_array_api_exclude_of_another_namespace(namespace):
    module, device, convert = namespace
    import array_api_strict as xs

    scores, mask = make_data(8)
    other = xs.asarray(mask) if "strict" not in module.__name__ else None
    if other is None:
        pytest.skip("the other namespace is the namespace itself")
    with sklearn.config_context(array_api_dispatch=True):
        with pytest.raises(TypeError, match="^exclude is an array of another"):
            top_k_items(convert(scores), k=2, exclude=other)


# ---------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("k, error", [
    (0, ValueError), (-2, ValueError), (1.5, TypeError), (True, TypeError),
    (None, TypeError), ("3", TypeError), (np.float64(2.0), TypeError),
])
def test_bad_k(k, error):
    with pytest.raises(error, match="^k must be a positive integer"):
        top_k_items(np.ones((2, 3)), k=k)


def test_numpy_integer_k_and_batch_size():
    scores, mask = make_data(9)
    got = top_k_items(scores, k=np.int32(3), exclude=mask, batch_size=np.int64(2))
    assert_same(got, reference(scores, mask, 3))


@pytest.mark.parametrize("batch_size, error", [
    (0, ValueError), (-1, ValueError), (2.0, TypeError), (False, TypeError),
])
def test_bad_batch_size(batch_size, error):
    with pytest.raises(error, match="^batch_size must be a positive integer"):
        top_k_items(np.ones((2, 3)), k=1, batch_size=batch_size)


@pytest.mark.parametrize("scores", [np.ones(3), np.ones((2, 3, 4)), np.float64(1.0)])
def test_scores_not_2d(scores):
    with pytest.raises(ValueError, match="^scores must be 2-D"):
        top_k_items(scores, k=1)


def test_scores_of_strings_or_sparse():
    with pytest.raises(TypeError, match="^scores must contain numbers"):
        top_k_items(np.array([["a", "b"]]), k=1)
    with pytest.raises(TypeError, match="^scores must be a dense array"):
        top_k_items(sparse.csr_matrix(np.ones((2, 2))), k=1)


@pytest.mark.parametrize("exclude", [
    np.zeros((2, 4), dtype=bool), np.zeros((3, 3), dtype=bool),
    np.zeros(6, dtype=bool), sparse.csr_matrix((2, 4)), sparse.coo_matrix((3, 3)),
])
def test_exclude_of_another_shape(exclude):
    with pytest.raises(ValueError, match=r"^exclude must have the shape of scores \(2, 3\)"):
        top_k_items(np.ones((2, 3)), k=1, exclude=exclude)


def test_exclude_not_boolean():
    with pytest.raises(TypeError, match="^exclude must be a boolean array"):
        top_k_items(np.ones((2, 3)), k=1, exclude=np.zeros((2, 3)))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
def test_signed_zeros_tie(dtype):
    # -0.0 == 0.0: a tie, in item order, whatever the sign bit
    scores = np.array([[-0.0, 0.0, -0.0, -1.0, 0.0]], dtype=dtype)
    got = top_k_items(scores, k=2)
    assert got["item"].tolist() == [0, 1, 2, 4]
    assert_same(got, reference(scores, None, 2), dtype=dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_order_of_extreme_scores(dtype):
    # the sort key keeps the order of negative, subnormal and infinite scores
    tiny = np.finfo(dtype).smallest_subnormal
    big = np.finfo(dtype).max
    row = [-big, -1.5, -tiny, -0.0, 0.0, tiny, 1.5, big, math.inf, NEG_INF, 1.5]
    scores = np.array([row, row[::-1]], dtype=dtype)
    got = top_k_items(scores, k=20)
    assert_same(got, reference(scores, None, 20), dtype=dtype)


def test_non_canonical_sparse_masks():
    # duplicate COO entries, CSR indices out of order: the same stored set
    scores, mask = make_data(10)
    rows, cols = np.nonzero(mask)
    coo = sparse.coo_matrix((np.ones(2 * rows.size, dtype=bool),
                             (np.tile(rows, 2), np.tile(cols, 2))), shape=mask.shape)
    csr = sparse.csr_matrix(mask)
    for u in range(csr.shape[0]):  # reverse each row's indices
        lo, hi = csr.indptr[u], csr.indptr[u + 1]
        csr.indices[lo:hi] = csr.indices[lo:hi][::-1].copy()
    csr.has_sorted_indices = False
    expected = reference(scores, mask, 3)
    for exclude in (coo, csr):
        assert_same(top_k_items(scores, k=3, exclude=exclude, batch_size=4), expected)


def test_a_dataframe_gives_its_labels():
    pd = pytest.importorskip("pandas")
    scores = np.array([[0.1, 0.9, 0.5], [0.7, 0.7, 0.2]])
    frame = pd.DataFrame(scores, index=pd.Index(["ann", "bob"], name="user"),
                         columns=[101, 102, 103])
    top = top_k_items(frame, k=1)
    # ann: item 102; bob: 101 and 102 tie at the top, both kept
    assert top["user"].tolist() == ["ann", "bob", "bob"]
    assert top["item"].tolist() == [102, 101, 102]
    assert top["score"].tolist() == [0.9, 0.7, 0.7]
    # the same lists as the positions of the array
    plain = top_k_items(scores, k=1)
    assert frame.index[plain["user"]].tolist() == top["user"].tolist()
    exclude = pd.DataFrame(scores > 0.8, index=frame.index, columns=frame.columns)
    assert top_k_items(frame, k=1, exclude=exclude)["item"].tolist() == [103, 101, 102]
