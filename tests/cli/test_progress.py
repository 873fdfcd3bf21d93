"""Progress of the long commands: on stderr when it is a terminal, never stdout."""

import gzip
import io
import sys

import numpy as np
import pytest

from sklearn_rankeval._cli import main
from sklearn_rankeval._cli._io import Column, open_table
from sklearn_rankeval._stats._averages import Average, ratio_of_sums
from sklearn_rankeval._stats._bootstrap import bootstrap_values
from tests.conftest import DATA_DIR


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def _rows(n=5000, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.integers(0, 400, n), rng.integers(0, 2, n),
            np.round(rng.random(n), 2), np.round(rng.random(n), 2))


@pytest.fixture
def csv_file(tmp_path):
    g, y, a, b = _rows()
    path = tmp_path / "preds.csv"
    lines = ["user,click,a,b"] + [f"{u},{c},{s},{t}" for u, c, s, t in zip(g, y, a, b)]
    path.write_text("\n".join(lines) + "\n")
    return path


def _run(argv, monkeypatch, *, terminal):
    out, err = io.StringIO(), (_Terminal() if terminal else io.StringIO())
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    assert main(argv) == 0
    return out.getvalue(), err.getvalue()


def test_evaluate_shows_rows_and_share_on_a_terminal_only(csv_file, monkeypatch):
    argv = ["evaluate", str(csv_file), "--group", "user", "--label", "click",
            "--score", "a", "-m", "gauc", "--chunk-rows", "1000"]
    out, err = _run(argv, monkeypatch, terminal=True)
    # the last update before the bar is cleared: every row, the whole file
    frames = [f for f in err.split("\r") if f.strip()]
    assert frames[-1].startswith("preds.csv: 5.00k rows")
    assert "100% of the file" in frames[-1] and "rows/s" in frames[-1]
    assert _run(argv + ["--quiet"], monkeypatch, terminal=True) == (out, "")
    assert _run(argv, monkeypatch, terminal=False) == (out, "")


def test_compare_counts_the_resamples_and_flips(csv_file, monkeypatch):
    argv = ["compare", str(csv_file), "--group", "user", "--label", "click",
            "--score", "a", "--score", "b", "-m", "mrr", "--n-resamples", "300"]
    out, err = _run(argv, monkeypatch, terminal=True)
    frames = [f for f in err.split("\r") if "draws" in f]
    assert frames and frames[-1].startswith("resamples: 100%")
    assert "600/600" in frames[-1]  # 300 resamples, then 300 sign flips
    assert _run(argv + ["--quiet"], monkeypatch, terminal=True) == (out, "")


def test_trec_shows_the_lines_of_both_files(monkeypatch):
    data = DATA_DIR / "trec_eval"
    argv = ["trec", str(data / "qrels.test"), str(data / "results.test"), "-m", "map"]
    out, err = _run(argv, monkeypatch, terminal=True)
    frames = [f for f in err.split("\r") if f.strip()]
    assert any(f.startswith("qrels.test: ") for f in frames)
    last = [f for f in frames if f.startswith("results.test: ")][-1]
    # every line of the run, the whole file
    n_lines = len((data / "results.test").read_text().splitlines())
    assert last.startswith(f"results.test: {n_lines / 1000:.2f}k rows")
    assert "100% of the file" in last
    assert _run(argv + ["--quiet"], monkeypatch, terminal=True) == (out, "")


@pytest.mark.parametrize("suffix", [".csv", ".csv.gz", ".parquet"])
def test_readers_report_every_row_and_the_share_read(tmp_path, suffix):
    # 150,000 rows (2.5 MB of text) in one chunk: the progress moves many
    # times within the chunk (every 256 KiB of text, every 65,536 Parquet rows)
    g, y, a, _ = _rows(150_000)
    path = tmp_path / f"t{suffix}"
    if suffix == ".parquet":
        pd = pytest.importorskip("pandas")
        pytest.importorskip("pyarrow")
        pd.DataFrame({"user": g, "click": y, "a": a}).to_parquet(path)
    else:
        text = "user,click,a\n" + "".join(f"{u},{c},{s}\n" for u, c, s in zip(g, y, a))
        opener = gzip.open if suffix.endswith(".gz") else open
        with opener(path, "wt") as f:
            f.write(text)
    calls = []
    table = open_table(path, [Column("group", "user"), Column("label", "click", True),
                              Column("score", "a", True)],
                       progress=lambda *c: calls.append(c))
    chunks = list(table.chunks())
    assert len(chunks) == 1 and len(chunks[0][1]["label"]) == 150_000
    rows = [n for n, _ in calls]
    assert sum(rows) == 150_000 and len([n for n in rows if n]) >= 3
    shares = [s for _, s in calls]
    # the share of the file read: of the compressed bytes for a .gz file
    assert shares[-1] == 1.0 and shares == sorted(shares) and shares[0] < 0.5


def test_resample_progress_counts_every_resample():
    from sklearn_rankeval._stats._bootstrap import resample_progress

    seen = []
    token = resample_progress.set(seen.append)
    try:
        bootstrap_values(Average(np.ones((2, 50)), None, ratio_of_sums), 1234,
                         np.random.default_rng(0), max_cells=50 * 100)
    finally:
        resample_progress.reset(token)
    assert sum(seen) == 1234 and len(seen) == 13  # chunks of 100 rows
