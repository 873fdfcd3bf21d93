"""What a new user hit on the command line (issue 31), from the user's side:
the command, its exit status and its stdout and stderr lines.

Item 2: a bad value is one line on stderr naming the file, the line, the
column and the problem, exit status 2, no traceback; item 11: a row with a
field too many (in tests/cli/test_evaluate.py beside the other bad files,
and here for the lists); item 12: no Python advice and no NumPy reprs in
the messages; item 13: n_items and n_users in the JSON and CSV outputs;
item 14: the progress of evaluate-recommendations counts rows; and the
warnings that explain a NaN reach stderr.
"""

import csv
import io
import json
import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

from sklearn_rankeval import mean_reciprocal_rank_score, recommendation_report
from sklearn_rankeval._cli import main
from tests._logs import make_lists

_CLICKS = "user,click,p\n1,1,0.5\n1,0,0.25\n2,1,0.75\n2,0,0.125\n3,0,0.5\n3,1,0.5\n"


def _evaluate(capsys, path, *args):
    status = main(["evaluate", str(path), "--group", "user", "--label", "click",
                   "--score", "p", *map(str, args)])
    out, err = capsys.readouterr()
    return status, out, err


def _one_error_line(status, out, err, command="evaluate"):
    """Exit 2, nothing on stdout, one line on stderr: its text."""
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "np.float64" not in err and "train=" not in err
    prefix = f"rankeval {command}: error: "
    assert err.startswith(prefix)
    return err[len(prefix):].rstrip("\n")


# ---------------------------------------------------------------------------
# item 2: every bad value, one line
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("metric", ["log_loss", "ne", "pcoc", "ece"])
@pytest.mark.parametrize("bad, problem", [
    ("1.7", "column 'p' (--score) must hold probabilities in [0, 1]; found "
            "values in [0.25, 1.7]."),
    ("-inf", "column 'p' (--score) must hold probabilities in [0, 1]; found "
             "values in [-inf, 0.75]."),
    ("-0.5", "column 'p' (--score) must hold probabilities in [0, 1]; found "
             "values in [-0.5, 0.75]."),
])
def test_a_bad_probability_names_file_line_and_column(tmp_path, capsys, metric,
                                                      bad, problem):
    path = tmp_path / "clicks.csv"
    path.write_text(_CLICKS.replace("2,0,0.125", f"2,0,{bad}"))
    status, out, err = _evaluate(capsys, path, "-m", "gauc", "-m", metric)
    text = _one_error_line(status, out, err)
    assert text == f"{path}, line 5: " + problem


@pytest.mark.parametrize("metric", ["ne", "log_loss"])
def test_a_label_of_2_for_a_click_metric_names_its_line(tmp_path, capsys, metric):
    path = tmp_path / "clicks.csv"
    path.write_text(_CLICKS.replace("3,1,0.5", "3,2,0.5"))
    text = _one_error_line(*_evaluate(capsys, path, "-m", metric))
    assert text == (f"{path}, line 7: column 'click' (--label) must hold binary "
                    "labels (0/1, booleans or -1/1); got the values [0, 1, 2].")
    # the ranking metrics take graded labels: the same file is fine for them
    status, _, err = _evaluate(capsys, path, "-m", "ndcg@3")
    assert status == 0 and err == ""


def test_the_line_is_found_in_a_later_chunk_and_in_parquet(tmp_path, capsys):
    text = "user,click,p\n" + "".join(f"{u},{u % 2},0.{u}\n" for u in range(1, 9))
    path = tmp_path / "clicks.csv"
    path.write_text(text.replace("7,1,0.7", "7,1,1.5"))
    for rows in ("any", "sorted"):
        message = _one_error_line(*_evaluate(
            capsys, path, "-m", "ne", "--chunk-rows", 3, "--group-rows", rows))
        assert message.startswith(f"{path}, line 8: column 'p' (--score) must "
                                  "hold probabilities")
    pytest.importorskip("pyarrow")
    frame = pd.read_csv(path)
    frame.to_parquet(tmp_path / "clicks.parquet")
    message = _one_error_line(*_evaluate(capsys, tmp_path / "clicks.parquet",
                                         "-m", "ne"))
    assert message.startswith(f"{tmp_path / 'clicks.parquet'}, row 7: column "
                              "'p' (--score) must hold probabilities")


def test_no_traceback_from_the_installed_command(tmp_path):
    path = tmp_path / "clicks.csv"
    path.write_text(_CLICKS.replace("1,0,0.25", "1,0,1.7"))
    proc = subprocess.run(
        [sys.executable, "-m", "sklearn_rankeval", "evaluate", str(path),
         "--group", "user", "--label", "click", "--score", "p", "-m", "ne"],
        capture_output=True, text=True, check=False)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == (
        f"rankeval evaluate: error: {path}, line 3: column 'p' (--score) must "
        "hold probabilities in [0, 1]; found values in [0.125, 1.7].\n")


def test_compare_names_the_score_column_holding_the_bad_value(tmp_path, capsys):
    path = tmp_path / "models.csv"
    path.write_text("user,click,A,B\n1,1,0.5,0.1\n1,0,0.25,0.2\n2,1,0.75,inf\n"
                    "2,0,0.125,0.4\n")
    status = main(["compare", str(path), "--group", "user", "--label", "click",
                   "--score", "A", "--score", "B", "-m", "mrr"])
    out, err = capsys.readouterr()
    assert _one_error_line(status, out, err, "compare") == (
        f"{path}, line 4: column 'B' (--score B) contains +inf; only -inf is "
        "allowed (it marks an item that was not retrieved).")


# ---------------------------------------------------------------------------
# items 11 and 12: the lists' files, and messages in the command's terms
# ---------------------------------------------------------------------------
def _lists(tmp_path, ids="str"):
    rec, held, train = make_lists(seed=3, ids=ids)
    paths = [tmp_path / f"{name}.csv" for name in ("rec", "held", "train")]
    for frame, path in zip((rec, held, train), paths):
        frame.to_csv(path, index=False)
    return (rec, held, train), paths


def _recommendations(capsys, *args):
    status = main(["evaluate-recommendations", *map(str, args)])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_list_row_with_a_field_too_many_is_an_error(tmp_path, capsys):
    _, (rec, held, _) = _lists(tmp_path)
    lines = rec.read_text().splitlines()
    lines[3] += ",7"
    rec.write_text("\n".join(lines) + "\n")
    assert _one_error_line(*_recommendations(capsys, rec, held),
                           "evaluate-recommendations") == (
        f"{rec}, line 4: expected 3 fields, got 4")


@pytest.mark.parametrize("args, message", [
    (["-m", "novelty@5"], "--train FILE is needed by novelty@K, arp@K and "
                          "long_tail@K"),
    (["-m", "coverage@5", "--convention", "ms_recommenders"],
     "--train FILE is needed by 'coverage@5' under the 'ms_recommenders' "
     "convention: Microsoft Recommenders computes it with"),
    (["-m", "ild@5"],
     "an item-features table is needed by ild@K. The command line reads none"),
])
def test_messages_speak_of_options_not_of_python_arguments(tmp_path, capsys, args,
                                                           message):
    (lists, _, _), (rec, held, _) = _lists(tmp_path)
    lists.drop(columns="score").to_csv(rec, index=False)  # the order is the rank
    text = _one_error_line(*_recommendations(capsys, rec, held, *args),
                           "evaluate-recommendations")
    assert text.startswith(message)


# ---------------------------------------------------------------------------
# item 13: n_items and the users evaluated, in JSON and CSV
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("users", ["held_out", "recommended", "union"])
def test_json_and_csv_carry_n_items_and_n_users(tmp_path, capsys, users):
    (rec, held, train), paths = _lists(tmp_path, ids="int")
    args = [*paths[:2], "--train", paths[2], "--users", users, "-m", "recall@5",
            "-m", "coverage@5"]
    status, out, err = _recommendations(capsys, *args, "--format", "json")
    assert status == 0, err
    doc = json.loads(out)
    items = set(rec["item"]) | set(held["item"]) | set(train["item"])
    evaluated = {"held_out": set(held["user"]), "recommended": set(rec["user"]),
                 "union": set(held["user"]) | set(rec["user"])}[users]
    assert doc["n_items"] == len(items) and doc["n_users"] == len(evaluated)
    # the catalog of coverage@5 is the one counted
    covered = set(recommendation_report(
        rec, held, train=train, users=users, metrics=["coverage@5"],
        n_items=len(items), output="dict").values())
    assert doc["metrics"]["coverage@5"] in covered
    status, out, _ = _recommendations(capsys, *args, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["metric"] for r in rows] == ["recall@5", "coverage@5"]
    # the users of each metric where the report counts them per metric
    per_metric = doc.get("n_users_per_metric", {})
    assert [(int(r["n_users"]), int(r["n_items"])) for r in rows] == [
        (per_metric.get(r["metric"], len(evaluated)), len(items)) for r in rows]
    status, out, _ = _recommendations(capsys, *args, "--n-items", 500,
                                      "--format", "json")
    assert json.loads(out)["n_items"] == 500


# ---------------------------------------------------------------------------
# item 14: the progress of evaluate-recommendations counts rows
# ---------------------------------------------------------------------------
class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_recommendations_progress_counts_the_rows_of_each_file(tmp_path,
                                                              monkeypatch):
    tqdm = pytest.importorskip("tqdm")
    (rec, held, _), paths = _lists(tmp_path)
    err = _Terminal()
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["evaluate-recommendations", str(paths[0]), str(paths[1])]) == 0
    frames = [f.strip() for f in err.getvalue().split("\r") if f.strip()]
    for path, frame in ((paths[0], rec), (paths[1], held)):
        last = [f for f in frames if f.startswith(f"{path.name}: ")][-1]
        rows = tqdm.tqdm.format_sizeof(len(frame))  # 44.0, as tqdm shows it
        assert last.startswith(f"{path.name}: {rows} rows"), last
        assert "100% of the file" in last


# ---------------------------------------------------------------------------
# warnings that explain a NaN reach stderr
# ---------------------------------------------------------------------------
def test_the_warning_behind_a_nan_is_printed_once(tmp_path, capsys):
    path = tmp_path / "clicks.csv"
    path.write_text("user,click,p\n1,0,0.5\n1,0,0.25\n2,0,0.75\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        expected = mean_reciprocal_rank_score([0, 0, 0], [0.5, 0.25, 0.75],
                                              groups=[1, 1, 2])
    assert np.isnan(expected)
    status, out, err = _evaluate(capsys, path, "-m", "mrr", "--format", "json")
    assert status == 0 and json.loads(out)["metrics"] == {"mrr": None}
    assert err == f"rankeval evaluate: warning: {caught[0].message}\n"
    assert "MRR is undefined" in err
