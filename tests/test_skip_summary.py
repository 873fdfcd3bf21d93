"""The skip summary of tests/conftest.py: one line per missing peer."""

from tests.conftest import skip_summary, test_extra_modules


def test_extra_modules_are_the_test_extras_import_names():
    import sys

    modules = test_extra_modules()
    # distribution names mapped to what the tests import
    assert {"pytrec_eval", "matplotlib", "pyarrow", "polars",
            "array_api_compat"} <= modules
    assert ("xgboost" in modules) == (sys.platform != "darwin")
    # optional peers of the conventions are not in the extra
    assert not {"torch", "ranx", "ir_measures", "rectools"} & modules


def test_skip_summary_groups_by_peer():
    skips = [("Skipped: could not import 'torch': No module named 'torch'",
              "a.py:1")] * 3 + [
        ("Skipped: could not import 'recommenders.evaluation.python_evaluation'"
         ": No module named 'recommenders'", "b.py:2"),
        ("Skipped: could not import 'pyarrow': No module named 'pyarrow'",
         "c.py:3"),
        ("Skipped: jax is not installed", "f.py:6"),
        ("Skipped: pyarrow is not usable here: bad build", "d.py:4"),
        ("Skipped: pyarrow is not usable here: bad build", "e.py:5"),
    ]
    lines = skip_summary(skips, {"pyarrow", "pytest"})
    assert lines == [
        "5 tests need optional peers that the [test] extra does not install "
        "(expected; install the peer to run them):",
        "  jax: 1 test",
        "  recommenders: 1 test",
        "  torch: 3 tests",
        "1 test needs peers of the [test] extra that do not import here "
        '(pip install ".[test]"):',
        "  pyarrow: 1 test",
        "other reasons:",
        "  2 tests: pyarrow is not usable here: bad build (d.py:4)",
    ]
    assert skip_summary([], set()) == []
