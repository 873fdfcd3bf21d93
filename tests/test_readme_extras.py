"""The README's install commands name extras that pyproject.toml declares."""

import re

import pytest

from tests.conftest import REPO_ROOT


def test_every_extra_in_readme_is_declared():
    tomllib = pytest.importorskip("tomllib")  # Python >= 3.11
    readme = (REPO_ROOT / "README.rst").read_text()
    with open(REPO_ROOT / "pyproject.toml", "rb") as f:
        extras = set(tomllib.load(f)["project"]["optional-dependencies"])
    named = [set(group.split(",")) for group in
             re.findall(r'pip install "\.\[([\w,-]+)\]"', readme)]
    assert named, "no pip install \".[...]\" in README.rst"
    for group in named:
        assert group <= extras, group - extras
    # one command installs the engine's usual extras together (one compile)
    assert any({"plot", "parquet", "spark", "dask"} <= group for group in named)
