"""``rankeval demo``: end to end, with and without matplotlib."""

import re
import sys
import time

import pytest

from sklearn_rankeval._cli import main

ROWS = ("AUC (global)", "GAUC", "MRR", "MAP", "MAP@10", "NDCG@10", "HR@10 (pooled)",
        "success@10", "P@10",
        "R@10", "11-point AP", "F1", "F-alpha (alpha=0.25)")
PNGS = ("grouped_roc.png", "interpolated_pr.png", "eleven_point.png",
        "comparison.png", "calibration.png", "exposure.png")
CTR_ROWS = ("GAUC", "log loss", "NE", "PCOC", "ECE")
TOP_N_ROWS = ("P@10", "R@10", "NDCG@10", "MAP@10", "coverage@10", "Gini@10",
              "novelty@10", "ARP@10")
SEGMENTS = ("light users", "medium users", "heavy users")


def _check_table(out):
    assert re.search(r"^\s+activity only\s+all features, tuned$", out, re.M)
    for row in ROWS:
        assert re.search(rf"^{re.escape(row)}\s+[01]\.\d{{4}}\s+[01]\.\d{{4}}$",
                         out, re.M), row
    gauc = re.search(r"^GAUC\s+(\S+)\s+(\S+)$", out, re.M)
    auc = re.search(r"^AUC \(global\)\s+(\S+)\s+(\S+)$", out, re.M)
    # the activity feature: a global AUC above 1/2, a GAUC of exactly 1/2
    assert float(gauc.group(1)) == 0.5 and float(auc.group(1)) > 0.55
    assert float(gauc.group(2)) > 0.7
    assert re.search(r"best C=\S+, cross-validated GAUC 0\.\d{4}", out)
    assert re.search(r"^HR@1 \(accuracy\)\s+0\.\d{4}$", out, re.M)  # digits
    # success@10 (a hit in the top 10, ranx / torchmetrics / trec_eval's hit
    # rate) beside the pooled HR@10: a user with a hit has reciprocal rank
    # <= 1 and recall@10 > 0, so success@10 >= MRR, R@10 > 0 users
    row = {name: [float(v) for v in re.search(
        rf"^{re.escape(name)}\s+(\S+)\s+(\S+)$", out, re.M).groups()]
        for name in ("success@10", "MRR", "R@10", "HR@10 (pooled)")}
    for i in (0, 1):
        assert row["success@10"][i] >= row["MRR"][i]
        assert row["success@10"][i] >= row["R@10"][i]
        assert row["success@10"][i] > row["HR@10 (pooled)"][i]
    _check_ctr(out)
    _check_top_n(out)


def _rows(out, names, n):
    """``{name: [n numbers]}`` of the table lines named ``names``."""
    number = r"\s+(-?[\d.]+)" * n
    return {name: [float(v) for v in re.search(
        rf"^{re.escape(name)}{number}$", out, re.M).groups()] for name in names}


def _check_ctr(out):
    """The CTR part: the balanced model ranks as the tuned one (same GAUC)
    but over-predicts (PCOC, ECE); NE is below 1 and the segments' click
    rates rise with their activity."""
    n_test = int(re.search(r"^(\d+) impressions", out, re.M).group(1))
    out = out[out.index("\n2. "):out.index("\n3. ")]
    assert re.search(r"^\s+all features, tuned\s+class_weight='balanced'$", out,
                     re.M)
    ctr = _rows(out, CTR_ROWS, 2)
    # class weights move a logistic regression's coefficients a little (by
    # how much depends on scikit-learn's solver version): about the same GAUC
    assert ctr["GAUC"][0] == pytest.approx(ctr["GAUC"][1], abs=1e-2)
    assert abs(ctr["PCOC"][0] - 1) < 0.15 < ctr["PCOC"][1] - 1
    assert ctr["ECE"][0] < ctr["ECE"][1] and ctr["log loss"][0] < ctr["log loss"][1]
    assert 0 < ctr["NE"][0] < ctr["NE"][1] < 1
    segment = _rows(out, SEGMENTS, 5)
    rates = [segment[name][1] for name in SEGMENTS]
    assert rates == sorted(rates)
    assert 0 < sum(segment[name][0] for name in SEGMENTS) < n_test


def _check_top_n(out):
    """The top-N part: the factorization beats popularity on accuracy and on
    the spread of the exposure, as the data are made (user tastes)."""
    out = out[out.index("\n4. "):]
    assert re.search(r"^\s+most popular\s+TruncatedSVD\(8\)$", out, re.M)
    top = _rows(out, TOP_N_ROWS, 2)
    # popularity recommends about the same ten items to everyone
    for name in ("coverage@10", "novelty@10"):
        assert top[name][0] < top[name][1], name
    users = int(re.search(r"make_interactions\): (\d+) users", out).group(1))
    if users >= 120:  # enough users for the factors to be learnt
        for name in ("P@10", "R@10", "NDCG@10", "MAP@10"):
            assert top[name][0] < top[name][1], name
    assert top["Gini@10"][0] > top["Gini@10"][1]
    assert top["ARP@10"][0] > top["ARP@10"][1]
    # coverage: covered items over the 300 of the catalog
    assert all(0 < v <= 1 for v in top["coverage@10"])


def test_demo_writes_every_display(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out_dir = tmp_path / "new" / "plots"
    assert main(["demo", "--n-users", "120", "--out", str(out_dir)]) == 0
    out = capsys.readouterr().out
    _check_table(out)
    for name in PNGS:
        data = (out_dir / name).read_bytes()
        assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 5000
        # IHDR: width and height; 4 to 6.5 inches at 150-200 dpi (slides)
        width = int.from_bytes(data[16:20], "big")
        height = int.from_bytes(data[20:24], "big")
        assert 5.5 * 150 <= width <= 6.5 * 200 and 4 * 150 <= height <= 6 * 200
        assert f"wrote {out_dir / name}" in out
    assert sorted(p.name for p in out_dir.iterdir()) == sorted(PNGS)


def test_demo_without_out_writes_nothing(tmp_path, capsys, monkeypatch):
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    assert main(["demo", "--n-users", "60"]) == 0
    out = capsys.readouterr().out
    _check_table(out)
    assert "Add --out DIR to write every display as a PNG file." in out
    assert list(tmp_path.iterdir()) == []


def test_demo_without_matplotlib_prints_the_table_and_a_note(tmp_path, capsys,
                                                            monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails
    assert main(["demo", "--n-users", "60", "--out", str(tmp_path / "plots")]) == 0
    out = capsys.readouterr().out
    _check_table(out)
    note = ('The displays (PNG files) need matplotlib: '
            'pip install "sklearn-rankeval[plot]"')
    assert note in out.splitlines()
    assert not (tmp_path / "plots").exists()


def test_demo_default_size_runs_well_under_a_minute(capsys):
    start = time.perf_counter()
    assert main(["demo"]) == 0
    elapsed = time.perf_counter() - start
    out = capsys.readouterr().out
    _check_table(out)
    assert "2000 users" in out
    assert elapsed < 60


def test_demo_help_and_bad_size(capsys):
    assert main(["demo", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "--out DIR" in text and "without --out it writes nothing" in text
    assert 'pip install "sklearn-rankeval[plot]"' in text
    assert main(["demo", "--n-users", "5"]) == 2
    assert "less than 20" in capsys.readouterr().err


def test_demo_png_titles_and_legends_match_the_table(tmp_path, capsys, monkeypatch):
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    seen = {}
    save = Figure.savefig

    def savefig(fig, path, **kwargs):
        ax = fig.axes[0]
        seen[path.name] = (ax.get_title(),
                           [t.get_text() for t in ax.get_legend().get_texts()])
        return save(fig, path, **kwargs)

    monkeypatch.setattr(Figure, "savefig", savefig)
    assert main(["demo", "--n-users", "120", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    title, labels = seen["grouped_roc.png"]
    assert title == "ROC curve within each user (median)"
    gauc = re.search(r"^GAUC\s+(\S+)\s+(\S+)$", out, re.M).groups()
    assert [f"activity only (GAUC = {gauc[0]})",
            f"all features, tuned (GAUC = {gauc[1]})"] == [
        label for label in labels if "GAUC" in label]
    # the interpolated PR display's legend: the table's 11-point AP
    ap = re.search(r"^11-point AP\s+(\S+)\s+(\S+)$", out, re.M).groups()
    _, labels = seen["interpolated_pr.png"]
    assert labels == [f"activity only (11-pt AP = {ap[0]})",
                      f"all features, tuned (11-pt AP = {ap[1]})"]
    _, labels = seen["eleven_point.png"]
    assert labels == [f"activity only (11-pt AP = {ap[0]})",
                      f"all features, tuned (11-pt AP = {ap[1]})"]


def test_demo_calibration_and_exposure_pngs_match_the_tables(tmp_path, capsys,
                                                            monkeypatch):
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    seen = {}
    save = Figure.savefig

    def savefig(fig, path, **kwargs):
        seen[path.name] = fig
        return save(fig, path, **kwargs)

    monkeypatch.setattr(Figure, "savefig", savefig)
    assert main(["demo", "--n-users", "150", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    # calibration.png: one curve per user segment, the table's PCOC and ECE,
    # and a panel of the rows per bin under the curves
    ax, panel = seen["calibration.png"].axes
    segment = _rows(out[out.index("\n2. "):], SEGMENTS, 5)
    labels = sorted(t.get_text() for t in ax.get_legend().get_texts())
    assert labels == sorted(
        ["Perfectly calibrated"] + [f"{name} (PCOC = {segment[name][3]:.4f}, "
                                    f"ECE = {segment[name][4]:.4f})"
                                    for name in SEGMENTS])
    assert panel.get_ylabel() == "Rows per bin"
    rows = sum(sum(p.get_data()[0]) for p in panel.patches)
    assert rows == sum(segment[name][0] for name in SEGMENTS)
    # exposure.png: the table's Gini@10 of both recommenders, over 300 items
    ax = seen["exposure.png"].axes[0]
    gini = _rows(out[out.index("\n4. "):], ["Gini@10"], 2)["Gini@10"]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[2:] == [f"most popular (Gini = {gini[0]:.4f})",
                          f"TruncatedSVD(8) (Gini = {gini[1]:.4f})"]
    assert ax.get_legend().get_title().get_text() == "Catalog: 300 items"
