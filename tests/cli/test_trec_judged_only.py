"""``rankeval trec -J``: a query left without documents prints trec_eval's ``-nan``.

trec_eval's ``-J`` removes the unjudged retrieved documents before any
measure (``form_res_rels.c``, ``judged_docs_only_flag``), which can leave a
query with ``num_ret == 0``.  ``m_iprec_at_recall.c`` and ``m_11pt_avg.c``
then start from ``precis = num_rel_ret / num_ret = 0 / 0`` and hand it to
every recall level whose cutoff (``lround(level * R)``) is at most
``num_rel_ret = 0``; the other levels keep the 0 that ``trec_eval.c`` writes
before each query.  ``11pt_avg`` sums the levels, so one NaN makes it NaN,
and the ``all`` line sums the queries (``meas_acc.c``), so one NaN query makes
it NaN.  The x86-64 build prints that 0/0 as ``-nan`` with ``%6.4f``.

Checked against the outputs of trec_eval 10 itself (``out.*J`` in
``tests/data/trec_eval``, SOURCES.md: built from the commit of the other
files) byte for byte, and against the values the C source gives by hand.
"""


import pytest

from sklearn_rankeval._cli import main
from tests.conftest import DATA_DIR

DATA = DATA_DIR / "trec_eval"
LEVELS = [f"{j / 10:.2f}" for j in range(11)]
CASES = {
    "out.judged_only.aqJ": ("qrels.judged_only", "results.judged_only",
                            ["-m", "all_trec", "-q", "-J"]),
    "out.test.aqcJ": ("qrels.test", "results.trunc",
                      ["-m", "all_trec", "-q", "-c", "-J"]),
}


def _trec(capsys, qrels, run, *flags):
    status = main(["trec", str(DATA / qrels), str(DATA / run), *flags])
    out, err = capsys.readouterr()
    assert status == 0 and err == ""
    return out


def _lines(text):
    """{(measure, query): printed value}."""
    out = {}
    for line in text.splitlines():
        name, query, value = line.split("\t")
        out[name.rstrip(), query] = value
    return out


@pytest.mark.parametrize("out_name", sorted(CASES))
def test_reproduces_trec_eval_minus_j_byte_for_byte(out_name, capsys):
    qrels, run, flags = CASES[out_name]
    expected = (DATA / out_name).read_text()
    assert "  -nan" in expected  # the case is the one this file is about
    assert _trec(capsys, qrels, run, *flags) == expected


@pytest.mark.parametrize("out_name", sorted(CASES))
def test_summary_only_is_the_all_lines_of_trec_eval(out_name, capsys):
    # without -q trec_eval prints runid and the "all" lines, the same values
    qrels, run, flags = CASES[out_name]
    expected = [line for line in (DATA / out_name).read_text().splitlines()
                if line.split("\t")[1] == "all" or line.startswith("runid")]
    flags = [f for f in flags if f != "-q"]
    assert _trec(capsys, qrels, run, *flags).splitlines() == expected


def test_hand_case_from_trec_eval_source(capsys):
    # q1: R = 3, its two retrieved documents unjudged -> num_ret = 0 under -J;
    #     cutoffs lround(l * 3) = 0 for l = 0.0, 0.1 -> 0/0; 1 or more above
    #     -> never reached, left at 0 (m_iprec_at_recall.c)
    # q2: y unjudged is removed, e (relevant) is ranked first -> 1 everywhere
    # q3: R = 0, nothing judged retrieved: every cutoff is 0 -> 0/0 everywhere
    got = _lines(_trec(capsys, "qrels.judged_only", "results.judged_only",
                       "-q", "-J", "-m", "iprec_at_recall", "-m", "11pt_avg",
                       "-m", "num_ret", "-m", "P.1"))
    assert [got["num_ret", q] for q in ("q1", "q2", "q3", "all")] == [
        "0", "1", "0", "1"]
    iprec = {q: [got[f"iprec_at_recall_{lv}", q] for lv in LEVELS]
             for q in ("q1", "q2", "q3", "all")}
    assert iprec["q1"] == ["  -nan"] * 2 + ["0.0000"] * 9
    assert iprec["q2"] == ["1.0000"] * 11
    assert iprec["q3"] == ["  -nan"] * 11
    assert iprec["all"] == ["  -nan"] * 11  # the sum over queries meets q3's
    assert [got["11pt_avg", q] for q in ("q1", "q2", "q3", "all")] == [
        "  -nan", "1.0000", "  -nan", "  -nan"]
    # other measures are not touched: P_1 has no 0/0 (m_P.c divides by 1)
    assert [got["P_1", q] for q in ("q1", "q2", "q3", "all")] == [
        "0.0000", "1.0000", "0.0000", "0.3333"]
    # the levels asked for are the ones printed; 0.5 and 1.0 need relevant
    # documents for q1 (lround(1.5) = 2, 3): the sum of 11pt_avg has no NaN
    got = _lines(_trec(capsys, "qrels.judged_only", "results.judged_only",
                       "-q", "-J", "-m", "11pt_avg.0.5,1"))
    assert [got["11pt_avg_0.5,1", q] for q in ("q1", "q2", "q3", "all")] == [
        "0.0000", "1.0000", "  -nan", "  -nan"]


@pytest.mark.parametrize(("rule", "nan_levels"), [
    # level 0.1 of R = 3: (long)(0.3 + 0.9) = 1 as trec_eval 9, ceil(0.3) = 1
    ("trec_eval_9", 1), ("exact", 1), ("trec_eval_10", 2),
])
def test_zero_cutoffs_follow_the_recall_level_rule(rule, nan_levels, capsys):
    got = _lines(_trec(capsys, "qrels.judged_only", "results.judged_only",
                       "-q", "-J", "-m", "iprec_at_recall",
                       "--recall-levels", rule))
    q1 = [got[f"iprec_at_recall_{lv}", "q1"] for lv in LEVELS]
    assert q1 == ["  -nan"] * nan_levels + ["0.0000"] * (11 - nan_levels)


def test_without_minus_j_the_same_files_have_no_nan(capsys):
    # q1 and q3 keep their unjudged documents: precis = 0 / 2, 0 / 1
    out = _trec(capsys, "qrels.judged_only", "results.judged_only", "-q",
                "-m", "iprec_at_recall", "-m", "11pt_avg")
    assert "nan" not in out
    got = _lines(out)
    assert [got["11pt_avg", q] for q in ("q1", "q2", "q3", "all")] == [
        "0.0000", "0.5000", "0.0000", "0.1667"]


def test_digits_widen_the_nan_as_the_c_format(capsys):
    got = _lines(_trec(capsys, "qrels.judged_only", "results.judged_only",
                       "-J", "-m", "11pt_avg", "--digits", "6"))
    assert got["11pt_avg", "all"] == "    -nan"  # %8.6f
