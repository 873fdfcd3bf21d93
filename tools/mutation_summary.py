"""Summary of a mutmut run (setup.cfg ``[mutmut]``), stage by stage.

Run from the repository root after ``mutmut run`` (see ``mutation_sample.py``)::

    python tools/mutation_summary.py            # counts per stage
    python tools/mutation_summary.py --survivors  # and each survivor
    python tools/mutation_summary.py --json out.json

Stages (issue 29, the lists in ``tools/mutation_sample.py``): ``averages``
(``_stats/_averages.py``), ``bootstrap`` (``_stats/_bootstrap.py``),
``finalize`` (the registry's finalize functions: ``ratio_of_sums`` and
``_exp_ratio``, also in ``averages``; ``ne_finalize``, ``ece_finalize``,
``ece_from_sums``, ``pcoc_from_sums``; the list metrics' finalize functions
of ``_beyond_kernels.py``, also in ``kernels``) and ``kernels`` (the kernel
files).  The other functions of ``_metrics/_calibration.py`` (mutated
because mutmut selects files, not functions) are ``calibration (other)``.
A stage's score is over the mutants run (a sample where
``mutation_sample.py`` drew one), with the binomial 95% half-width.

Each survivor is printed with its file and line in the source, its kind
(operator, number, string, name, call argument, ``= None`` assignment...),
the line before and after, and the equivalence verdict from
``tools/mutation_equivalent.txt`` where it is listed there.
"""

import argparse
import ast
import io
import json
import re
import sys
import tokenize
from collections import Counter, defaultdict
from pathlib import Path

from mutmut.mutation.data import SourceFileMutationData
from mutmut.mutation.diff_apply import get_diff_for_mutant
from mutmut.stats import status_by_exit_code
from mutmut.utils.file_utils import walk_mutatable_files

sys.path.insert(0, str(Path(__file__).parent))
from mutation_sample import FINALIZE, INPUT, KERNELS, select  # noqa: E402  (one list)

EQUIVALENT_FILE = Path(__file__).with_name("mutation_equivalent.txt")
STAGES = ("averages", "bootstrap", "finalize", "kernels", "input",
          "calibration (other)")


def stages_of(path, function):
    relative = Path(path).relative_to("sklearn_rankeval").as_posix()
    out = []
    if relative == "_stats/_averages.py":
        out.append("averages")
    if relative == "_stats/_bootstrap.py":
        out.append("bootstrap")
    if function in FINALIZE.get(relative, ()):
        out.append("finalize")
    if relative in KERNELS:
        out.append("kernels")
    if relative in INPUT and (INPUT[relative] is None
                              or function in INPUT[relative]):
        out.append("input")
    if relative == "_metrics/_calibration.py" and not out:
        out.append("calibration (other)")
    return out


def function_of(mutant):
    """``('weighted_percentile', None)`` or ``('take', 'Partials')``."""
    mangled = mutant.rpartition(".")[2].rpartition("__mutmut_")[0]
    parts = mangled.split("\u01c1")
    if len(parts) == 3:
        return parts[2], parts[1]
    return mangled[2:], None


def function_span(tree, function, klass):
    scope = tree.body
    if klass is not None:
        scope = next(n.body for n in tree.body
                     if isinstance(n, ast.ClassDef) and n.name == klass)
    for node in scope:
        if isinstance(node, ast.FunctionDef) and node.name == function:
            return node.lineno, node.end_lineno
    raise KeyError(function)


def changed_lines(diff):
    old, new, first = [], [], None
    for line in diff.splitlines()[2:]:
        m = re.match(r"@@ -(\d+)", line)
        if m:
            first = int(m.group(1))
            offset = 0
            continue
        if line.startswith("-"):
            old.append((first + offset, line[1:]))
            offset += 1
        elif line.startswith("+"):
            new.append(line[1:])
        else:
            offset += 1
    return old, new


def tokens(text):
    try:
        return [(t.type, t.string) for t in tokenize.generate_tokens(
            io.StringIO(text.strip() + "\n").readline)
            if t.type not in (tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER,
                              tokenize.INDENT, tokenize.DEDENT)]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None


KEYWORD_OPS = {"and", "or", "not", "is", "in"}


def kind_of(old, new):
    """The kind of a one-line mutation, from the tokens that changed."""
    if not old or not new:
        return "statement"
    a, b = " ".join(t for _, t in old), " ".join(t for _, t in new)
    if re.match(r"^\s*[\w.,\s\[\]]+\s*=\s*None\s*$", b) and not a.endswith("None"):
        return "assignment -> None"
    ta, tb = tokens(a), tokens(b)
    if ta is None or tb is None:
        return "other"
    sa, sb = Counter(ta), Counter(tb)
    gone, added = sa - sb, sb - sa
    types = {t for t, _ in list(gone) + list(added)}
    strings = {s for _, s in list(gone) + list(added)}
    string_types = {tokenize.STRING} | {getattr(tokenize, n) for n in (
        "FSTRING_START", "FSTRING_MIDDLE", "FSTRING_END") if hasattr(tokenize, n)}
    if types and types <= string_types:
        return "string"
    if types == {tokenize.NUMBER}:
        return "number"
    if types <= {tokenize.OP} or (types <= {tokenize.OP, tokenize.NAME}
                                  and strings - set("()[]{},") <= KEYWORD_OPS
                                  | {s for t, s in list(gone) + list(added)
                                     if t == tokenize.OP}):
        if len(tb) < len(ta) and not added:
            return "unary operator removed"
        return "operator"
    if strings <= {"True", "False", "None"} | KEYWORD_OPS:
        return "name (True/False/None)"
    if "None" in strings or len(tb) < len(ta):
        return "call argument (removed or None)"
    return "name / call"


def load_equivalent():
    out = {}
    if EQUIVALENT_FILE.exists():
        for line in EQUIVALENT_FILE.read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                name, _, reason = line.partition(" ")
                out[name] = reason.strip()
    return out


def collect():
    equivalent = load_equivalent()
    rows = []
    for path in walk_mutatable_files():
        m = SourceFileMutationData(path=path)
        m.load()
        source = Path(path).read_text()
        tree = ast.parse(source)
        src_lines = source.splitlines()
        for mutant, code in m.exit_code_by_key.items():
            function, klass = function_of(mutant)
            status = status_by_exit_code[code]
            row = dict(mutant=mutant, file=str(path), function=function,
                       klass=klass, status=status,
                       stages=stages_of(Path(path), function))
            if status != "killed":
                diff = get_diff_for_mutant(mutant, path=path)
                old, new = changed_lines(diff)
                start, end = function_span(tree, function, klass)
                line = None
                if old:
                    text = old[0][1].strip()
                    hits = [i for i in range(start, end + 1)
                            if src_lines[i - 1].strip() == text]
                    guess = start + old[0][0] - 1
                    line = min(hits, key=lambda i: abs(i - guess)) if hits else guess
                row.update(
                    line=line,
                    before=" | ".join(t.strip() for _, t in old),
                    after=" | ".join(t.strip() for t in new),
                    kind=kind_of([(0, t) for _, t in old], [(0, t) for t in new]),
                    equivalent=equivalent.get(mutant.rpartition(".")[2]),
                )
            rows.append(row)
    return rows


def summary(rows, survivors, chosen=None):
    by_stage = defaultdict(list)
    for r in rows:
        for s in r["stages"]:
            by_stage[s].append(r)
    for stage in STAGES:
        every = by_stage.get(stage, [])
        population = len(every)
        if chosen is not None:  # the stages' selections (a sample: its own)
            if stage not in chosen:
                continue
            names = set(chosen[stage])
            every = [r for r in every if r["mutant"] in names]
        rs = [r for r in every if r["status"] != "not checked"]
        if not rs:
            continue
        print(f"\n== {stage}: {len(rs)} of its {population} mutants run"
              + (" (a uniform sample)" if len(every) < population else ""))
        c = Counter(r["status"] for r in rs)
        eq = sum(1 for r in rs if r["status"] == "survived" and r.get("equivalent"))
        killed, total = c["killed"], len(rs)
        # the score: killed (a timeout counts as detected) over the mutants
        # that a test could tell apart (equivalent ones and those no test
        # reaches listed apart)
        detected = killed + c["timeout"] + c["segfault"]
        decidable = total - eq - c["no tests"] - c["skipped"]
        print(f"   killed {killed}, timeout "
              f"{c['timeout']}, survived {c['survived']} (equivalent {eq}), "
              f"no tests {c['no tests']}, other "
              f"{total - killed - c['timeout'] - c['survived'] - c['no tests']}")
        if decidable:
            p = detected / decidable
            half = 1.96 * (p * (1 - p) / decidable) ** 0.5  # the sample's
            sampled = (f" (+-{100 * half:.1f}, a sample)"
                       if len(every) < population else "")
            print(f"   score: detected / (mutants - equivalent - no tests) = "
                  f"{detected}/{decidable} = {100 * p:.1f}%{sampled}; raw "
                  f"detected / run = {100 * detected / total:.1f}%")
        kinds = Counter(r["kind"] for r in rs if r["status"] == "survived"
                        and not r.get("equivalent"))
        if kinds:
            print("   non-equivalent survivors by kind: " + ", ".join(
                f"{k} {n}" for k, n in kinds.most_common()))
        if survivors:
            for r in sorted(rs, key=lambda r: (r["file"], r.get("line") or 0)):
                if r["status"] in ("killed",):
                    continue
                eqv = (f"  [equivalent: {r['equivalent']}]" if r.get("equivalent")
                       else "")
                print(f"   {r['status']:9s} {Path(r['file']).name}:{r.get('line')} "
                      f"{r['function']} {r['kind']}: {r['before']!s:.70} -> "
                      f"{r['after']!s:.70}  ({r['mutant'].rpartition('.')[2]}){eqv}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("stages", nargs="*",
                        help="as mutation_sample.py's: each stage over the "
                             "mutants it selects (default: every stage, all "
                             "the mutants run)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--survivors", action="store_true")
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    rows = collect()
    summary(rows, args.survivors,
            select(args.stages, args.seed) if args.stages else None)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    sys.exit(main())
