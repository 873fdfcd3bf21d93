"""``rankeval trec`` on ndeval's qrels (``query subtopic document grade``):
the diversity measures by ir_measures' names.

Two sources of truth: the definitions written plainly from the files
(``tests/_reference.py``: alpha-nDCG with ndeval's greedy ideal, subtopic
recall, intent-aware precision; the run ranked as trec_eval ranks it), and
ir_measures 0.4.3 (its pyndeval provider: ndeval's C code) where it
installs, on runs without tied scores (pyndeval breaks ties by increasing
document id, trec_eval and ndeval's ``-traditional`` by decreasing).
"""

from collections import defaultdict

import numpy as np
import pytest

from sklearn_rankeval._cli import main
from tests import _reference as ref

NAMES = ["alpha_nDCG@5", "alpha_nDCG@10", "ERR_IA@5", "NRBP", "P_IA@3",
         "StRecall@4", "AP_IA"]


def _files(tmp_path, seed=0, n_queries=6, ties=False):
    """ndeval qrels and a run: graded judgments per subtopic (some 0),
    relevant documents not retrieved, a judged query without a relevant
    document, a run query without judgments, retrieved unjudged documents."""
    rng = np.random.default_rng(seed)
    qrels, run = [], []
    for q in range(n_queries):
        n_docs, n_topics = int(rng.integers(4, 12)), int(rng.integers(1, 5))
        docs = [f"d{q}_{j:02d}" for j in range(n_docs)]
        for d in docs[: n_docs - 2]:  # the last two: never judged
            for t in range(1, n_topics + 1):
                if rng.random() < 0.5:
                    grade = 0 if q == 3 else int(rng.integers(0, 3))
                    qrels.append(f"q{q} {t} {d} {grade}")
        retrieved = rng.permutation(docs)[: n_docs - 1]  # one never retrieved
        scores = (rng.integers(0, 3, len(retrieved)).astype(float) if ties
                  else rng.permutation(len(retrieved)) + 0.5)
        run += [f"q{q} Q0 {d} 0 {s} tag" for d, s in zip(retrieved, scores)]
    run.append("q99 Q0 dx 0 1.0 tag")  # no judgments: not evaluated
    (tmp_path / "qrels").write_text("\n".join(qrels) + "\n")
    (tmp_path / "run").write_text("\n".join(run) + "\n")
    return tmp_path / "qrels", tmp_path / "run"


def _cli(capsys, qrels, run, names, *extra):
    args = ["trec", str(qrels), str(run), "-q", "--digits", "12", *extra]
    for name in names:
        args += ["-m", name]
    assert main(args) == 0
    out = defaultdict(dict)
    for line in capsys.readouterr().out.splitlines():
        measure, query, value = line.split("\t")
        out[query][measure.rstrip()] = float(value)
    return dict(out)


def _plain(qrels_path, run_path):
    """{query: (binary grades of the ranked documents, of every judged or
    ranked document)} as trec_eval ranks the run (score descending, ties by
    decreasing document id), subtopics numbered within each query."""
    grades = defaultdict(lambda: defaultdict(dict))
    for line in qrels_path.read_text().split("\n"):
        if line:
            q, t, d, g = line.split()
            grades[q][d][t] = int(g)
    scored = defaultdict(dict)
    for line in run_path.read_text().split("\n"):
        if line:
            q, _, d, _, s, _ = line.split()
            scored[q][d] = float(s)
    out = {}
    for q in sorted(set(grades) & set(scored)):
        topics = sorted({t for d in grades[q] for t in grades[q][d]})
        ranked = sorted(scored[q], key=lambda d: d, reverse=True)
        ranked = sorted(ranked, key=lambda d: -scored[q][d])  # stable

        def vector(d, q=q, topics=topics):
            return [1 if grades[q].get(d, {}).get(t, 0) > 0 else 0 for t in topics]

        pool = sorted(set(grades[q]) | set(scored[q]))
        out[q] = ([vector(d) for d in ranked], [vector(d) for d in pool])
    return out


def test_diversity_measures_are_their_definitions(tmp_path, capsys):
    qrels, run = _files(tmp_path, seed=1)
    got = _cli(capsys, qrels, run, ["alpha_nDCG@5", "StRecall@4", "P_IA@3"])
    plain = _plain(qrels, run)
    assert sorted(q for q in got if q != "all") == sorted(plain)
    for q, (ranked, pool) in plain.items():
        present = ref.present_intents(pool)
        if not any(present):  # no relevant document: 0, as trec_eval
            want = dict.fromkeys(["alpha_nDCG@5", "StRecall@4", "P_IA@3"], 0.0)
        else:
            w = ref.normalised_intent_weights(pool)
            value = ref.alpha_value_of_order(ranked, w, 0.5, k=5)
            ideal = ref.alpha_ideal_greedy(pool, 0.5, k=5)
            top = ranked[:4]
            recall = sum(w[i] for i in range(len(w)) if any(g[i] for g in top))
            p_ia = sum(w[i] * sum(g[i] for g in ranked[:3]) / 3
                       for i in range(len(w)))
            want = {"alpha_nDCG@5": value / ideal, "StRecall@4": recall,
                    "P_IA@3": p_ia}
        for name, value in want.items():
            assert got[q][name] == pytest.approx(value, abs=1e-11), (q, name)
    for name in ["alpha_nDCG@5", "StRecall@4", "P_IA@3"]:
        assert got["all"][name] == pytest.approx(
            np.mean([got[q][name] for q in plain]), abs=1e-11)


@pytest.mark.parametrize("seed", range(3))
def test_diversity_measures_equal_ir_measures(tmp_path, capsys, seed):
    ir_measures = pytest.importorskip("ir_measures",
                                      reason="the ir_measures oracle (ndeval)")
    pytest.importorskip("pyndeval", reason="ir_measures' diversity provider")
    qrels, run = _files(tmp_path, seed=10 + seed)
    got = _cli(capsys, qrels, run, NAMES)
    lines_q = [line.split() for line in qrels.read_text().split("\n") if line]
    lines_r = [line.split() for line in run.read_text().split("\n") if line]
    peer = defaultdict(dict)
    for m in ir_measures.iter_calc(
            [ir_measures.parse_measure(n) for n in NAMES],
            [ir_measures.Qrel(q, d, int(g), t) for q, t, d, g in lines_q],
            sorted(ir_measures.ScoredDoc(q, d, float(s))
                   for q, _, d, _, s, _ in lines_r)):
        peer[m.query_id][str(m.measure)] = m.value
    compared = 0
    for name in NAMES:
        key = str(ir_measures.parse_measure(name))
        for q, values in peer.items():
            assert got[q][name] == pytest.approx(values[key], abs=1e-9), (q, name)
            compared += values[key] > 0
    assert compared >= 3 * len(NAMES)


def test_other_measures_read_the_largest_grade_of_a_document(tmp_path, capsys):
    """Beside a diversity measure, trec_eval's measures read each document's
    largest grade over its subtopics: the values of trec_eval's qrels."""
    qrels, run = _files(tmp_path, seed=2)
    got = _cli(capsys, qrels, run, ["P.5", "ndcg_cut.5", "alpha_nDCG@5"])
    best = defaultdict(int)
    for line in qrels.read_text().split("\n"):
        if line:
            q, _, d, g = line.split()
            best[(q, d)] = max(best[(q, d)], int(g))
    flat = tmp_path / "flat"
    flat.write_text("".join(f"{q} 0 {d} {g}\n" for (q, d), g in best.items()))
    plain = _cli(capsys, flat, run, ["P.5", "ndcg_cut.5"])
    for q in plain:
        for name in ("P_5", "ndcg_cut_5"):
            assert got[q][name] == plain[q][name]


def test_ndeval_qrels_errors(tmp_path, capsys):
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    run.write_text("q1 Q0 d1 1 1.0 tag\n")
    qrels.write_text("q1 1 d1 1\nq1 1 d1 0\n")
    assert main(["trec", str(qrels), str(run), "-m", "alpha_nDCG@5"]) != 0
    err = capsys.readouterr().err
    assert "document 'd1' is judged twice for subtopic '1' of query 'q1'" in err
    assert "line 2" in err
    # trec_eval's reading of the same file (no diversity measure): judged twice
    assert main(["trec", str(qrels), str(run), "-m", "P.5"]) != 0
    assert "judged twice for query 'q1'" in capsys.readouterr().err
    assert main(["trec", str(qrels), str(run), "-m", "alpha_nDCG@x"]) != 0
    assert "unknown measure" in capsys.readouterr().err
