"""Sphinx configuration of the sklearn_rankeval documentation.

Build (from the repository root, after ``pip install ".[doc]"``)::

    python -m sphinx -W --keep-going -b html doc doc/_build/html

The build and the built pages need no network: MathJax is served from
``_static/mathjax`` (vendored, see its README.md), no intersphinx inventory
is fetched, and
references to scikit-learn, NumPy or matplotlib are rendered as plain code
(``nitpick_ignore_regex``); every other reference must resolve.  The gallery
runs every ``examples/plot_*.py`` script; one that raises fails the build.  The
``>>>`` examples of the pages are doctests, run by
``python -m pytest doc --doctest-glob="*.rst"``.
"""

import os
import sys
from datetime import date
from pathlib import Path

import sklearn_rankeval

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from api_reference import check_and_render  # noqa: E402


def _write_if_changed(path, text):
    """Write ``text`` to ``path`` unless it already holds it (keeps mtimes)."""
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


# api.rst is generated from api_reference.py; this fails the build when a
# public name is missing from it.
_write_if_changed(HERE / "api.rst", check_and_render())

# the table of recommendation_report's conventions, from their records
from sklearn_rankeval._recommend._peers import conventions_table  # noqa: E402

_write_if_changed(HERE / "recommend_conventions.inc", conventions_table())

# -- Project -----------------------------------------------------------------
project = "sklearn-rankeval"
author = "sklearn_rankeval developers"
copyright = f"{date.today().year}, {author}"
release = sklearn_rankeval.__version__
version = ".".join(release.split(".")[:2])

# -- General -----------------------------------------------------------------
extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
    "matplotlib.sphinxext.plot_directive",
]
templates_path = ["_templates"]
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", "conftest.py"]
root_doc = "index"
# ``code`` for single backticks, as scikit-learn's documentation does
default_role = "literal"
# Every cross-reference must resolve (with -W a broken one fails the build),
# except those to other projects: without network no intersphinx inventory is
# fetched, so ``sklearn.metrics.roc_auc_score`` in a See Also section is
# rendered as code, without a link and without a warning.
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r"(sklearn|numpy|np|scipy|matplotlib|pandas|pd)(\..*)?"),
]

# -- autodoc / autosummary / numpydoc -----------------------------------------
autosummary_generate = True
autodoc_typehints = "none"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False

# -- sphinx-gallery ------------------------------------------------------------
sphinx_gallery_conf = {
    "examples_dirs": "../examples",
    "gallery_dirs": "auto_examples",
    # run every example script (all are named plot_*.py)
    "filename_pattern": r"/plot_",
    "ignore_pattern": r"__init__\.py",
    "within_subsection_order": "FileNameSortKey",
    # "Examples using X" on the API pages
    "doc_module": ("sklearn_rankeval",),
    "backreferences_dir": "gen_modules/backreferences",
    "remove_config_comments": True,
    # show what the examples print, not the repr of a block's last expression
    "capture_repr": (),
    # an example that raises fails the build (reported after all have run)
    "abort_on_example_error": False,
    "only_warn_on_example_error": False,
}

# -- matplotlib plot directive (figures of the displays page) -----------------
plot_include_source = True
plot_html_show_source_link = False
plot_html_show_formats = False
plot_formats = [("png", 100)]
plot_rcparams = {"figure.figsize": (5, 4.5)}
plot_pre_code = "import numpy as np\nimport matplotlib.pyplot as plt"

# -- math: MathJax 3 served with the pages, not from a CDN ---------------------
# tex-svg.js (TeX input, SVG output) needs no font files; relative to _static.
# .ci/check_doc_math.py loads a built page in headless Chromium with the
# network off and checks that its formulas are typeset.
mathjax_path = "mathjax/tex-svg.js"

# -- HTML ----------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_static_path = ["_static"]
html_css_files = ["custom.css"]
html_title = project
html_theme_options = {
    "logo": {"text": project},
    "navbar_start": ["navbar-logo"],
    "navbar_end": ["version", "theme-switcher"],
    "show_toc_level": 2,
    "navigation_with_keys": False,
    "secondary_sidebar_items": ["page-toc", "sourcelink"],
}
html_sidebars = {"index": [], "quick_start": [], "whats_new": []}
html_show_sourcelink = True
html_copy_source = True

os.environ.setdefault("MPLBACKEND", "Agg")


def _skip_metadata_requests(app, what, name, obj, skip, options):
    """scikit-learn's generated ``set_fit_request``-style methods of an
    estimator are its documentation (they cite its glossary), not ours."""
    if name.startswith("set_") and name.endswith("_request"):
        return True
    return None


def setup(app):
    app.connect("autodoc-skip-member", _skip_metadata_requests)
