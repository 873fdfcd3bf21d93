"""Run mutants against a few test files only: a quick first pass of a stage.

A mutant of the input door survives ``mutmut run`` only after every test
that calls the mutated function has run (thousands: every metric reads its
input through the door), minutes a mutant on a loaded machine.  This runs
each mutant of ``mutants/`` (made by a ``mutmut run``, which also checks the
clean run) against ``--tests`` alone, two at a time, with mutmut's own switch
(``MUTANT_UNDER_TEST``): a mutant killed here is killed by the stage's
selection (these files are part of it); one that survives here is equivalent
(``mutation_equivalent.txt``) or is run through ``mutmut run`` by name.
Run from the repository root::

    python tools/mutation_sample.py input:100 > sample.txt
    mutmut run --max-children 2 $(head -1 sample.txt)   # makes mutants/
    python tools/mutation_focused.py sample.txt
"""

import argparse
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from mutation_summary import load_equivalent  # noqa: E402  (one list)

INPUT_TESTS = ["tests/engine/test_inputs.py", "tests/core/test_params.py",
               "tests/core/test_validation.py", "tests/test_doors.py",
               "tests/metrics/test_options.py"]
DESELECT = ("not warning_points_at_the_caller and not warning_names_this_file "
            "and not test_warn_skips_every_frame")


def run_one(name, tests, timeout):
    env = dict(os.environ, MUTANT_UNDER_TEST=name)
    try:
        rc = subprocess.run(
            [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
             "--hypothesis-profile=ci", "-k", DESELECT, *tests],
            cwd="mutants", env=env, capture_output=True, timeout=timeout).returncode
    except subprocess.TimeoutExpired:
        return name, "timeout"
    return name, "survived" if rc == 0 else "killed"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", help="a file of mutant names, one a line")
    parser.add_argument("--tests", nargs="+", default=INPUT_TESTS)
    parser.add_argument("--timeout", type=float, default=300)
    args = parser.parse_args()
    names = [n for n in Path(args.names).read_text().split() if n]
    with ThreadPoolExecutor(2) as pool:
        results = dict(pool.map(lambda n: run_one(n, args.tests, args.timeout),
                                names))
    equivalent = load_equivalent()
    survived = [n for n, s in results.items() if s == "survived"]
    eq = [n for n in survived if n.rpartition(".")[2] in equivalent]
    detected = len(names) - len(survived)
    decidable = len(names) - len(eq)
    for n in survived:
        short = n.rpartition(".")[2]
        print(f"survived {n}: {equivalent.get(short, '(not listed as equivalent)')}")
    print(f"killed or timed out {detected} of {len(names)}; survived "
          f"{len(survived)} (equivalent {len(eq)}); score detected / (mutants - "
          f"equivalent) = {detected}/{decidable} = {100 * detected / decidable:.1f}%")


if __name__ == "__main__":
    main()
