"""pytest configuration for the doctests of the documentation pages.

Run from the repository root::

    python -m pytest doc --doctest-glob="*.rst"

Every ``>>>`` example of ``doc/*.rst`` runs and its printed output is
compared; the generated pages (API stubs, gallery) are not collected.
"""

import os

os.environ.setdefault("MPLBACKEND", "Agg")

collect_ignore = ["conf.py", "api_reference.py"]
collect_ignore_glob = ["_build/*", "auto_examples/*", "generated/*", "gen_modules/*",
                       "api.rst", "sg_execution_times.rst"]
