"""Group ids of every kind beside int ids, the default report, same rows.

    python benchmarks/run.py ids --repeat 7
    python benchmarks/run.py ids --rows 5000000 --users 500000 --repeat 3

``ranking_report`` (9 default metrics) on ``--rows`` rows of ``--users``
users (uniformly drawn, 10% clicks, 3-decimal scores), the two sides of each
line timed in turn (the median of the pairs' ratios):

* object strings, a new array each call (its strings hashed anew) over
  ``pandas.factorize`` of the same new array plus the int-id call (<= 1.2);
* object strings, the same array each call (factorization reused) over int ids;
* a pandas Categorical, a pandas ``string[pyarrow]`` Series and a pyarrow
  ``DictionaryArray`` over int ids (<= 1.5 each).
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _data import string_ids  # noqa: E402
from _timing import emit, load, paired  # noqa: E402

import sklearn_rankeval as rk  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=2_000_000)
    parser.add_argument("--users", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    import pandas as pd

    gi, y, s, go, fresh = string_ids(args.rows, args.users, 2 * args.repeat + 2)

    def report(groups):
        return rk.ranking_report(y, s, groups=groups, output="dict")

    def factorize_then_ints():
        codes, _ = pd.factorize(fresh.pop())
        report(codes)

    a, b, r = paired(factorize_then_ints, lambda: report(fresh.pop()), args.repeat)
    emit(ids="object strings, new array", rows=args.rows, users=args.users,
         factorize_plus_int_s=a, ours_s=b, ratio=r, target="<= 1.2", load=load())
    kinds = {"object strings, same array": go,
             "pandas Categorical": pd.Categorical(go),
             "pandas string[pyarrow]": pd.Series(go, dtype="string[pyarrow]")}
    try:
        import pyarrow as pa
    except ImportError:
        pass
    else:
        kinds["pyarrow DictionaryArray"] = pa.array(go).dictionary_encode()
    for kind, groups in kinds.items():
        a, b, r = paired(lambda: report(gi), lambda g=groups: report(g), args.repeat)
        emit(ids=kind, int_s=a, ours_s=b, ratio=r,
             target="<= 1.5" if "same" not in kind else "")


if __name__ == "__main__":
    main()
