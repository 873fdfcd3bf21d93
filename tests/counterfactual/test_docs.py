"""The new public names: numpydoc sections and a runnable example."""

import pytest

NAMES = ["counterfactual_report", "PositionBiasEstimator", "PositionBiasEstimator.fit",
         "PositionBiasDisplay", "PositionBiasDisplay.plot",
         "PositionBiasDisplay.from_estimator", "PositionBiasDisplay.from_log",
         "spark.counterfactual_report", "dask.counterfactual_report"]


@pytest.mark.parametrize("name", NAMES)
def test_numpydoc_validation(name):
    validate = pytest.importorskip("numpydoc.validate").validate
    ignored = {"GL08", "RT02"}  # as tests/test_public_api.py
    result = validate(f"sklearn_rankeval.{name}")
    assert [e for e in result["errors"] if e[0] not in ignored] == []
    assert ">>> " in result["docstring"]
