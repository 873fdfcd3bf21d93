"""The beyond-accuracy metrics as registry entries, driven by the registry.

Every entry of ``LIST_METRICS`` is parsed by the one parser of metric names
(with its cutoff only), reads statistics that the partials have, gives a
value of the catalog or one value per user by its declared level, and is
refused without the inputs it declares it needs.  Values against the
definitions are in ``test_beyond.py`` and ``test_recommendation_report.py``.
"""

import math

import numpy as np
import pytest

from sklearn_rankeval import recommendation_report
from sklearn_rankeval._metrics import (
    BeyondPartials,
    list_partials,
    parse_metrics,
    train_popularity,
)
from sklearn_rankeval._metrics._beyond_kernels import USER_STATS
from sklearn_rankeval._metrics._registry import LIST_METRICS, METRICS

SPECS = list(LIST_METRICS.values())


@pytest.fixture(params=SPECS, ids=[s.name for s in SPECS])
def spec(request):
    return request.param


def test_names_parse_with_a_cutoff_only(spec):
    ((name, got, options),) = parse_metrics([f"{spec.name}@7"],
                                            inputs=("rows", "lists"))
    assert got is spec and options["k"] == 7
    for bad in (spec.name, f"{spec.name}@0", f"{spec.name}@07"):
        with pytest.raises(ValueError, match="is not a recommendation metric"):
            parse_metrics([bad], inputs=("rows", "lists"))
    with pytest.raises(ValueError, match="is not a ranking metric"):
        parse_metrics([f"{spec.name}@7"])  # not a metric of grouped rows
    assert spec.input == "lists" and spec.name not in METRICS


def test_declared_statistics_exist_and_options_are_checked(spec):
    for statistic in spec.statistics:
        assert statistic in BeyondPartials._fields or statistic in USER_STATS
    defaults = spec.check_options(k=3)
    assert defaults["k"] == 3
    with pytest.raises(TypeError, match="unexpected option"):
        spec.check_options(k=3, nope=1)
    for name, default, check in spec.options[1:]:
        with pytest.raises((TypeError, ValueError)):
            spec.check_options(k=3, **{name: "surely not an option value"})
        assert check(default) == default


def test_the_level_says_what_finalize_gives(spec):
    # two users, lists of 2 items over a catalog of 4; training popularity
    user, item = np.array([0, 0, 1, 1]), np.array([0, 1, 1, 2])
    pop = train_popularity(np.array([0, 1, 1]), np.array([0, 1, 3]), n_items=4)
    parts = list_partials(user, item, np.ones(4), n_items=4, popularity=pop,
                          item_features=np.eye(4))
    options = spec.check_options(k=2)
    value = spec.finalize(parts, f"{spec.name}@2", options, pop)
    if spec.per_user(options):
        assert value.value.shape == (2,) and value.defined.all()
    else:
        assert isinstance(value, float) and not math.isnan(value)


def test_a_missing_input_is_refused_by_name(spec):
    rec, held = {"a": [1, 2], "b": [2, 3]}, {"a": [2]}
    needs = spec.needs_of(spec.check_options(k=2))
    if not needs:
        recommendation_report(rec, held, metrics=[f"{spec.name}@2"])
        return
    (need,) = needs
    with pytest.raises(ValueError, match=f"need[s]? {need}="):
        recommendation_report(rec, held, metrics=[f"{spec.name}@2"])
