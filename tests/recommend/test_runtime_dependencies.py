"""The top-N path with the runtime dependencies alone (``pip install .``).

The README's top-N example, every output of ``recommendation_report``, a
peer's convention, ``exposure_counts`` and ``rankeval
evaluate-recommendations`` run in a fresh interpreter where every optional
package (pyarrow, matplotlib, polars, Spark, Dask, tqdm, the Array API
libraries, the peers) fails to import, as after ``pip install .``: numpy,
scipy, scikit-learn and pandas only.
"""

import re
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: What ``pip install .`` does not install (pyproject's extras).
OPTIONAL = ("pyarrow", "matplotlib", "polars", "pyspark", "dask", "distributed",
            "tqdm", "array_api_compat", "array_api_strict", "torch", "cupy",
            "lightgbm", "xgboost", "statsmodels", "pytrec_eval", "hypothesis",
            "ranx", "recommenders", "rectools")

BLOCK = f"""
import importlib.abc, sys

class _NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {OPTIONAL!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}")

sys.meta_path.insert(0, _NotInstalled())
"""


def _readme_top_n():
    readme = (ROOT / "README.rst").read_text()
    blocks = re.findall(r".. code-block:: python\n\n((?:    .*\n|\n)+)", readme)
    (block,) = [b for b in blocks if "recommendation_report(" in b]
    return textwrap.dedent(block)


def _run(code, tmp_path):
    script = tmp_path / "walk.py"
    script.write_text(BLOCK + code)
    return subprocess.run([sys.executable, str(script)], capture_output=True,
                          text=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT),
                                                    "PATH": "/usr/bin:/bin"},
                          timeout=300)


def test_readme_top_n_example_with_runtime_dependencies_only(tmp_path):
    code = _readme_top_n()
    expected = re.findall(r"^# (\{.*\})$", code, re.M)
    proc = _run(code, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == expected[0]


def test_every_top_n_output_with_runtime_dependencies_only(tmp_path):
    code = textwrap.dedent("""
        import numpy as np
        import pyarrow  # noqa: F401  (blocked: raises)
    """)
    proc = _run(code, tmp_path)
    assert proc.returncode == 1 and "No module named 'pyarrow'" in proc.stderr
    lists = tmp_path / "lists.csv"
    held = tmp_path / "held.csv"
    lists.write_text("user,item,score\n1,a,0.9\n1,b,0.5\n2,b,0.8\n2,c,0.1\n")
    held.write_text("user,item\n1,b\n2,c\n3,a\n")
    code = textwrap.dedent(f"""
        import numpy as np
        from sklearn_rankeval import recommendation_report, top_k_items
        from sklearn_rankeval._recommend import exposure_counts
        from sklearn_rankeval._cli import main

        scores = np.array([[0.9, 0.5, 0.1], [0.2, 0.8, 0.4]])
        lists = top_k_items(scores, k=2)
        held = {{0: [1], 1: [2]}}
        for output in ("text", "dict", "frame", "per_user"):
            out = recommendation_report(lists, held, k=2, output=output)
            print(output, type(out).__name__)
        out = recommendation_report(lists, held, k=2, convention="rectools",
                                    metrics=["recall@2", "ndcg@2"], output="dict")
        print("rectools", sorted(out))
        out = recommendation_report(lists, held, k=2, confidence=0.9,
                                    n_resamples=20, random_state=0,
                                    metrics=["recall@2"], output="dict")
        print("confidence", sorted(out["recall@2"]))
        counts, _, _ = exposure_counts(lists, k=1)
        print("exposure", counts.tolist())
        status = main(["evaluate-recommendations", {str(lists)!r}, {str(held)!r},
                       "-k", "2", "-m", "recall@2", "--format", "json"])
        print("cli", status)
    """)
    proc = _run(code, tmp_path)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[:4] == ["text str", "dict RecommendationReport",
                         "frame DataFrame", "per_user DataFrame"]
    assert lines[4] == "rectools ['ndcg@2', 'recall@2']"
    assert lines[5] == "confidence ['ci_high', 'ci_low', 'value']"
    assert lines[6] == "exposure [1.0, 1.0, 0.0]"  # each user's best item
    # users 1 and 2 find their item, user 3 has no list: 2 / 3
    assert lines[-1] == "cli 0" and f'"recall@2": {2 / 3!r}' in proc.stdout
