"""Mutant names for a mutmut run, by stage (setup.cfg ``[mutmut]``).

Run from the repository root (mutmut 3 installed)::

    mutmut run --max-children 2 $(python tools/mutation_sample.py averages)
    mutmut run --max-children 2 $(python tools/mutation_sample.py finalize \
        bootstrap:100 kernels:250)

Each stage names every mutant of its functions (``averages``:
``_stats/_averages.py``; ``bootstrap``: ``_stats/_bootstrap.py``;
``finalize``: the registry's finalize functions; ``kernels``: the kernel
files; ``input``: the input door -- ``_engine/_checks.py``,
``_core/_params.py`` and the label reader), or with ``:N`` a uniform sample of N of them (``--seed``), so that
the killed share estimates the score of all of them with a binomial
interval.
"""

import argparse
import io
import random
from pathlib import Path

FINALIZE = {
    "_stats/_averages.py": ["ratio_of_sums", "_exp_ratio"],
    "_metrics/_ctr_kernels.py": ["ne_finalize", "ece_finalize"],
    "_metrics/_calibration.py": ["ece_from_sums", "pcoc_from_sums"],
    # the list metrics' finalize functions (LIST_METRICS)
    "_metrics/_beyond_kernels.py": ["gini_index", "_covered", "coverage", "gini",
                                    "entropy", "_per_user", "novelty", "arp",
                                    "long_tail", "ild"],
}
#: The input door: the one input type and its constructor, the declared
#: parameters, and the one reader of labels.
INPUT = {"_engine/_checks.py": None, "_core/_params.py": None,
         "_core/_validation.py": ["binary_labels", "_check_pos_label"]}
KERNELS = ["_metrics/_kernels.py", "_metrics/_ctr_kernels.py",
           "_metrics/_ips_kernels.py", "_metrics/_concordance.py",
           "_metrics/_beyond_kernels.py"]
ROOT = Path("sklearn_rankeval")


def mutants_of(relative):
    """``(module.mutant name, function)`` of every mutant of one file, as
    mutmut names them (its own generator, so no ``mutants/`` tree is needed)."""
    from mutmut.__main__ import write_all_mutants_to_file

    path = ROOT / relative
    mutated = write_all_mutants_to_file(out=io.StringIO(), source=path.read_text(),
                                        filename=path)
    module = "sklearn_rankeval." + relative[:-3].replace("/", ".")
    names = sorted(set(mutated.mutant_names),  # by function, then number
                   key=lambda n: (n.rpartition("__mutmut_")[0],
                                  int(n.rpartition("_")[2])))
    return [(f"{module}.{n}", n[2:].rpartition("__mutmut_")[0]) for n in names]


def select(stages, seed=0):
    """``{stage: mutant names}`` for ``["averages", "kernels:250", ...]``."""
    out = {}
    for stage in stages:
        stage, _, n = stage.partition(":")
        if stage == "averages":
            every = [m for m, _ in mutants_of("_stats/_averages.py")]
        elif stage == "bootstrap":
            every = [m for m, _ in mutants_of("_stats/_bootstrap.py")]
        elif stage == "finalize":
            every = [m for f, functions in FINALIZE.items()
                     for m, function in mutants_of(f) if function in functions]
        elif stage == "input":
            every = [m for f, functions in INPUT.items()
                     for m, function in mutants_of(f)
                     if functions is None or function in functions]
        elif stage == "kernels":
            every = [m for f in KERNELS for m, _ in mutants_of(f)]
        else:
            raise ValueError(f"unknown stage {stage!r}")
        if n:
            every = random.Random(seed).sample(every, min(int(n), len(every)))
        out[stage] = sorted(every)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("stages", nargs="+",
                        help="averages, bootstrap, finalize, kernels or input, "
                             "each with an optional :N (a sample of N)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    names = [m for chosen in select(args.stages, args.seed).values() for m in chosen]
    print("\n".join(dict.fromkeys(names)))


if __name__ == "__main__":
    main()
