"""The public names, their signatures (../shared/API.md) and their docstrings."""

import inspect
import re

import pytest

import sklearn_rankeval
from sklearn_rankeval._metrics._docs import SHARED_DOCS
from sklearn_rankeval._metrics._registry import DEFAULT_METRICS, METRICS

# The "Metric functions" block of API.md: name -> leading parameters and defaults.
API = {
    "gauc_score": "y_true, y_score, *, groups=None, sample_weight=None, average='weighted'",
    "mean_reciprocal_rank_score": "y_true, y_score, *, groups=None, k=None, labels=None, sample_weight=None, average='macro'",
    "mean_average_precision_score": "y_true, y_score, *, groups=None, k=None, labels=None, sample_weight=None, average='macro'",
    "interpolated_average_precision_score": "y_true, y_score, *, groups=None, n_points=11, sample_weight=None, average='macro'",
    "hit_rate_score": "y_true, y_score, *, groups=None, k=10, labels=None, sample_weight=None, average='micro'",
    "precision_at_k_score": "y_true, y_score, *, groups=None, k=10, labels=None, sample_weight=None, average='macro'",
    "recall_at_k_score": "y_true, y_score, *, groups=None, k=10, labels=None, sample_weight=None, average='macro'",
    "ndcg_score": "y_true, y_score, *, groups=None, k=None, sample_weight=None, average='macro'",
    "f_alpha_score": "y_true, y_pred, *, alpha=0.5, labels=None, pos_label=1, average='binary', sample_weight=None, zero_division='warn'",
    "interpolated_precision_recall_curve": "y_true, y_score, *, groups=None, n_points=11, sample_weight=None",
    "ranking_report": "y_true, y_score, *, groups=None, metrics=None, sample_weight=None, output_dict=False, digits=4",
    # Wave 2
    "per_group_scores": "y_true, y_score, *, groups=None, metrics=None, sample_weight=None, output='pandas'",
    # Uncertainty and comparison (API.md issue 10)
    "compare_rankings": "y_true, y_scores, *, groups=None, metrics=None, sample_weight=None, baseline=None, test='permutation', correction='holm', confidence=0.95, n_resamples=10000, random_state=None, output='text'",
    # Statistics (API.md, Wave 5)
    "topic_set_size": "differences_or_frame, *, delta, alpha=0.05, power=0.8, design='paired'",
    "achieved_power": "differences_or_frame, *, delta, alpha=0.05",
    # Top-N recommendation lists (API.md, the top-N issue)
    "top_k_items": "scores, *, k, exclude=None, batch_size=None",
    "recommendation_report": "recommended, held_out, *, k=10, metrics=None, train=None, n_items=None, item_features=None, users='held_out', user='user', item='item', score=None, relevance=None, convention=None, confidence=None, n_resamples=1000, random_state=None, output='text'",
}


# Every public function: the contract's block above, every metric function of
# the registry and the scorer helpers (a new metric is checked the day it is
# registered).
FUNCTIONS = sorted(set(API) | {spec.func_name for spec in METRICS.values()}
                   | {"get_scorer", "get_scorer_names", "make_ranking_scorer"})


def _params(spec):
    """'a, b, *, c=1' -> [(name, kind, default)]."""
    out, keyword_only = [], False
    for part in [p.strip() for p in spec.split(",")]:
        if part == "*":
            keyword_only = True
            continue
        name, _, default = part.partition("=")
        kind = (inspect.Parameter.KEYWORD_ONLY if keyword_only
                else inspect.Parameter.POSITIONAL_OR_KEYWORD)
        out.append((name, kind, eval(default) if default else inspect.Parameter.empty))
    return out


def test_all_lists_the_registry_the_curve_and_f_alpha():
    expected = {spec.func.__name__ for spec in METRICS.values()}
    expected |= {"f_alpha_score", "interpolated_precision_recall_curve"}
    expected |= {"get_scorer", "get_scorer_names", "make_ranking_scorer"}
    expected |= {"ranking_report", "per_group_scores", "RankingAccumulator"}
    expected |= {"compare_rankings"}
    expected |= {"topic_set_size", "achieved_power", "risk_report"}  # Statistics
    expected |= {"top_k_items", "recommendation_report"}
    expected |= {"exposure_frame"}  # the items' exposure (fairness)
    expected |= {"config_context", "get_config", "set_config"}
    expected |= {"ElevenPointDisplay", "GroupedRocCurveDisplay", "InterpolatedPrecisionRecallDisplay"}
    expected |= {"RankingComparisonDisplay", "CalibrationCurveDisplay"}
    expected |= {"ItemExposureDisplay", "PerGroupHistogramDisplay"}
    expected |= {"PairwiseComparisonDisplay", "MetricAtKDisplay"}  # Statistics
    expected |= {"PositionBiasEstimator", "counterfactual_report",
                 "PositionBiasDisplay"}
    expected |= {"retrieval_report"}  # Retrieval for RAG
    assert set(sklearn_rankeval.__all__) == expected
    assert sklearn_rankeval.__all__ == sorted(sklearn_rankeval.__all__)


@pytest.mark.parametrize("name", sorted(API))
def test_signature_starts_with_the_contract(name):
    func = getattr(sklearn_rankeval, name)
    params = list(inspect.signature(func).parameters.values())
    expected = _params(API[name])
    got = [(p.name, p.kind, p.default) for p in params[: len(expected)]]
    assert got == expected
    # anything added after the contract is keyword-only with a default
    for p in params[len(expected):]:
        assert p.kind is inspect.Parameter.KEYWORD_ONLY
        assert p.default is not inspect.Parameter.empty


@pytest.mark.parametrize("spec", METRICS.values(), ids=list(METRICS))
def test_registry_functions_take_the_standard_arguments(spec):
    # y_true, y_score positional; groups, sample_weight, average (the metric's
    # default), k (with a cutoff) and labels (multiclass) keyword-only
    params = inspect.signature(spec.func).parameters
    scores = "y_prob" if spec.scores == "probability" else "y_score"
    assert list(params)[:2] == ["y_true", scores]
    expected = {"groups": None, "sample_weight": None,
                "average": spec.default_average}
    if spec.has_k:
        expected["k"] = spec.k_default
    for name, default in expected.items():
        assert params[name].kind is inspect.Parameter.KEYWORD_ONLY, name
        assert params[name].default == default, name
    assert ("labels" in params) == spec.has_labels


def test_docstrings_listing_names_list_every_registry_name():
    for name, spec in METRICS.items():
        written = f'``"{name}@K"``' if spec.has_k else f'``"{name}"``'
        assert written in sklearn_rankeval.ranking_report.__doc__, name
        if spec.scorer:
            scorer = f'``"{spec.scorer_name}@K"``' if spec.has_k else \
                f'``"{spec.scorer_name}"``'
            assert scorer in sklearn_rankeval.get_scorer.__doc__, name
            assert scorer in sklearn_rankeval.get_scorer_names.__doc__, name
    for name in DEFAULT_METRICS:
        assert f'``"{name}"``' in sklearn_rankeval.ranking_report.__doc__, name


@pytest.mark.parametrize("name", FUNCTIONS)
def test_docstring_documents_every_parameter_and_has_an_example(name):
    func = getattr(sklearn_rankeval, name)
    doc = func.__doc__
    params = inspect.signature(func).parameters
    sections = ("Parameters",) * bool(params) + ("Returns", "See Also", "Examples")
    for section in sections:
        assert re.search(rf"^\s*{section}\n\s*-+\n", doc, re.M), section
    for name, param in params.items():
        if param.kind is inspect.Parameter.VAR_KEYWORD:
            assert re.search(rf"^    \*\*{name}$", doc, re.M), name
        else:
            assert re.search(rf"^    {name} : ", doc, re.M), name
    assert ">>> " in doc


def test_shared_parameter_paragraphs_read_the_same_everywhere():
    # every shared paragraph appears verbatim in at least two docstrings, and
    # no placeholder is left unsubstituted
    docs = [getattr(sklearn_rankeval, name).__doc__ for name in API]
    assert not any("%(" in doc for doc in docs)
    for key, text in SHARED_DOCS.items():
        indent = "        " if key == "returns" else "    "
        indented = "\n".join(indent + line for line in text.splitlines())
        assert sum(indented in doc for doc in docs) >= 2, key


@pytest.mark.parametrize("name", FUNCTIONS)
def test_numpydoc_validation(name):
    validate = pytest.importorskip("numpydoc.validate").validate
    ignored = {"GL08", "RT02"}  # RT02: "score : type" named returns, as sklearn
    errors = [e for e in validate(f"sklearn_rankeval.{name}")["errors"]
              if e[0] not in ignored]
    assert errors == []
