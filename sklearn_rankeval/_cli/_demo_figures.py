"""``rankeval demo --out DIR``: every display of the library as a PNG file."""

from pathlib import Path

__all__ = ["PLOT_HINT", "PNGS", "write_pngs"]

PLOT_HINT = 'pip install "sklearn-rankeval[plot]"'
#: One file per display, in the order they are written.
PNGS = ("grouped_roc.png", "interpolated_pr.png", "eleven_point.png",
        "comparison.png", "calibration.png", "exposure.png")
#: 180 dpi: 5.5 x 5 inches are 990 x 900 pixels, sharp on slides
DPI = 180
#: The metrics of the comparison figure.
_COMPARED = ["gauc", "mrr", "ndcg@10", "recall@10"]


def _figure(width=5.5, height=5.0):
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    return fig, fig.subplots()


def _ranking_figures(y, groups, scores):
    """The three ranking curves, both click models on each."""
    from .. import (
        ElevenPointDisplay,
        GroupedRocCurveDisplay,
        InterpolatedPrecisionRecallDisplay,
    )

    charts = [
        (GroupedRocCurveDisplay, "ROC curve within each user (median)"),
        (InterpolatedPrecisionRecallDisplay,
         "Interpolated precision-recall, mean over users"),
        (ElevenPointDisplay, "11-point interpolated precision"),
    ]
    for display, title in charts:
        fig, ax = _figure()
        for name, score in scores.items():
            display.from_predictions(y, score, groups=groups, name=name, ax=ax)
        ax.set_title(title)
        yield fig


def _comparison_figure(y, groups, scores):
    from .. import RankingComparisonDisplay

    fig, ax = _figure(6.5, 4.0)
    RankingComparisonDisplay.from_predictions(
        y, scores, groups=groups, metrics=_COMPARED, n_resamples=1000,
        random_state=0, ax=ax)
    ax.set_title("Difference to the first model, 95% bootstrap over users")
    return fig


def _calibration_figure(y, ctr_scores, segments):
    from .. import CalibrationCurveDisplay

    name, score = next(iter(ctr_scores.items()))
    fig, ax = _figure(6.5, 6.0)
    CalibrationCurveDisplay.from_predictions(
        y, score, segments=segments, n_bins=10, ax=ax)
    ax.set_title(f"Calibration per user segment ({name})")
    return fig


def _exposure_figure(lists, train, n_items):
    from .. import ItemExposureDisplay

    fig, ax = _figure()
    for name, recommended in lists.items():
        ItemExposureDisplay.from_recommendations(
            recommended, k=10, train=train, n_items=n_items, name=name, ax=ax)
    ax.set_title("Exposure of the catalog's items (Lorenz curve)")
    return fig


def write_pngs(out_dir, y, groups, scores, ctr_scores, segments, lists, train,
               *, n_items):
    """Write every display (:data:`PNGS`) to ``out_dir``; return the paths.

    ``scores``: the ranking models' scores of the click log's test rows;
    ``ctr_scores``: the CTR models' probabilities (the first is drawn per
    segment); ``lists``: the recommenders' top-10 lists.
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    figures = [*_ranking_figures(y, groups, scores),
               _comparison_figure(y, groups, scores),
               _calibration_figure(y, ctr_scores, segments),
               _exposure_figure(lists, train, n_items)]
    paths = []
    for filename, fig in zip(PNGS, figures):
        path = out_dir / filename
        fig.savefig(path, dpi=DPI)
        paths.append(path)
    return paths
