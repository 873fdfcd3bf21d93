"""ranking_report: the same values as the functions, from one ranking."""

import numpy as np
import pytest

from sklearn_rankeval import ranking_report
from sklearn_rankeval._metrics._names import parse_metric_name
from sklearn_rankeval._reports._report import DEFAULT_METRICS
from tests.conftest import make_grouped_data


def _function_value(name, y, s, **kw):
    spec, k = parse_metric_name(name)
    return spec.func(y, s, **({} if k is None else {"k": k}), **kw)


@pytest.mark.parametrize("seed", range(3))
def test_report_values_equal_the_functions(seed):
    y, s, g = make_grouped_data(seed, n_groups=20)
    names = list(DEFAULT_METRICS) + ["mrr@3", "ndcg", "map@2", "recall@1"]
    report = ranking_report(y, s, groups=g, metrics=names, output_dict=True)
    assert list(report) == names
    for name in names:
        assert report[name] == pytest.approx(_function_value(name, y, s, groups=g),
                                             rel=1e-12), name


def test_report_with_weights_2d_and_multiclass():
    rng = np.random.default_rng(1)
    Y = rng.integers(0, 3, (12, 6))
    S = rng.integers(0, 4, (12, 6)).astype(float)
    w = rng.integers(1, 3, 12).astype(float)
    report = ranking_report(Y, S, sample_weight=w, output_dict=True)
    for name, value in report.items():
        assert value == pytest.approx(_function_value(name, Y, S, sample_weight=w),
                                      rel=1e-12), name
    labels = rng.integers(0, 6, 12)
    labels[:6] = np.arange(6)
    report = ranking_report(labels, S, metrics=["mrr", "hit_rate@2"], output_dict=True)
    assert report["hit_rate@2"] == pytest.approx(
        _function_value("hit_rate@2", labels, S), rel=1e-12)


def test_report_ranks_once(monkeypatch):
    y, s, g = make_grouped_data(4)
    calls = []
    from sklearn_rankeval._engine import _chunks

    real = _chunks.rank
    monkeypatch.setattr(_chunks, "rank",
                        lambda *a, **k: calls.append(1) or real(*a, **k))
    ranking_report(y, s, groups=g)
    assert len(calls) == 1  # one chunk (small input): ranked once for all metrics


def test_text_report_lists_values_and_defined_groups():
    y, s, g = make_grouped_data(5)
    text = ranking_report(y, s, groups=g, metrics=["gauc", "ndcg@5"], digits=3)
    lines = text.splitlines()
    assert lines[0].split() == ["metric", "value", "groups"]
    ids = np.unique(g)
    has_rel = sum((y[g == i] > 0).any() for i in ids)
    both = sum((y[g == i] > 0).any() and not (y[g == i] > 0).all() for i in ids)
    gauc_row, ndcg_row = lines[1].split(), lines[2].split()
    assert gauc_row == ["gauc", f"{_function_value('gauc', y, s, groups=g):.3f}",
                        str(both)]
    assert ndcg_row == ["ndcg@5", f"{_function_value('ndcg@5', y, s, groups=g):.3f}",
                        str(has_rel)]


@pytest.mark.parametrize("metrics", [["f_alpha"], ["hit_rate"], ["gauc@3"],
                                     ["ndcg@0"], ["bogus"], []])
def test_bad_metric_names(metrics):
    with pytest.raises(ValueError, match="metrics"):
        ranking_report([1, 0], [0.5, 0.2], metrics=metrics)


def test_bad_digits():
    for digits in (-1, 1.5, True):
        with pytest.raises(ValueError, match="digits"):
            ranking_report([1, 0], [0.5, 0.2], digits=digits)


def test_default_report_has_success_and_a_pooled_footer():
    from sklearn_rankeval import hit_rate_score, success_at_k_score

    y = np.array([1, 1, 1, 0, 0, 1, 0, 0])
    s = np.array([0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2])
    g = np.array(["a"] * 4 + ["b"] * 4)
    k = 2  # hit_rate@2 pooled (2 + 1) / (3 + 1), success@2: both queries
    lines = ranking_report(y, s, groups=g, metrics=["mrr", f"hit_rate@{k}",
                                                    f"success@{k}"]).splitlines()
    assert lines[-1] == "hit_rate@2: pooled over queries (micro average)"
    assert sum("pooled" in line for line in lines) == 1
    assert hit_rate_score(y, s, groups=g, k=k) == 0.75
    assert success_at_k_score(y, s, groups=g, k=k) == 1.0
    text = ranking_report(y, s, groups=g)
    names = [line.split()[0] for line in text.splitlines()[1:]]
    assert names[names.index("hit_rate@10") + 1] == "success@10"
    assert text.splitlines()[-1] == "hit_rate@10: pooled over queries (micro average)"
    # the dict report keeps the names as keys, no footer
    assert "success@10" in ranking_report(y, s, groups=g, output_dict=True)


# -- per-row segments of the pooled metrics (issue 31) -------------------------
def _impressions(seed=0, n=600):
    rng = np.random.default_rng(seed)
    device = rng.choice(np.array(["android", "ios", "web"]), n)
    user = rng.integers(0, 40, n)
    p = rng.uniform(0.01, 0.6, n)
    y = (rng.uniform(size=n) < p).astype(int)
    return y, p, user, device


@pytest.mark.parametrize("with_groups", [False, True])
def test_per_row_segments_give_each_segment_the_metric_of_its_rows(with_groups):
    from sklearn.metrics import log_loss as sk_log_loss

    from tests import _reference as ref

    y, p, user, device = _impressions()
    out = ranking_report(y, p, groups=user if with_groups else None,
                         segments=device, metrics=["log_loss", "ne", "pcoc", "ece"],
                         output="dict")
    assert sorted(out) == ["android", "ios", "web"]
    for d in out:
        m = device == d
        assert out[d]["log_loss"] == pytest.approx(sk_log_loss(y[m], p[m]), rel=1e-12)
        for name in ("ne", "pcoc", "ece"):
            assert out[d][name] == pytest.approx(ref.pooled_ctr(name, y[m], p[m]),
                                                 rel=1e-12), (d, name)


def test_per_row_segments_are_refused_for_group_metrics_naming_them():
    y, p, user, device = _impressions(1)
    with pytest.raises(ValueError, match=r"segments must be constant within each "
                                         r"group for gauc, mrr, whose value"):
        ranking_report(y, p, groups=user, segments=device,
                       metrics=["gauc", "ne", "mrr"])


def test_segments_with_missing_labels_name_segments():
    y, p, _, device = _impressions(2, n=10)
    seg = device.astype(object)
    seg[3] = None
    with pytest.raises(ValueError, match=r"^segments contains missing values"):
        ranking_report(y, p, segments=seg, metrics=["ne"])
