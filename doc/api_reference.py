"""The sections of the API reference (``api.rst``), written by ``conf.py``.

``api.rst`` is generated at every build from this list and git-ignored, so
that it cannot fall behind the package: ``conf.py`` stops the build when a
name of ``sklearn_rankeval.__all__`` is in no section, or when a section lists
a name that is not public.
"""

from importlib import import_module


def _registry_metrics(intents=False):
    """The ranking metrics in the order of the metric registry (``intents``:
    the diversity metrics, of grades per intent; else the others)."""
    from sklearn_rankeval._metrics._registry import METRICS

    names = []
    for spec in METRICS.values():
        if (spec.labels_kind == "intents") != intents:
            continue
        if spec.func.__name__ not in names:
            names.append(spec.func.__name__)
    return names


def sections():
    """``[(title, module, description, [names], template)]`` of ``api.rst``."""
    return [
        (
            "Ranking metrics",
            "sklearn_rankeval",
            "One value per query (user, session), averaged over queries. Every "
            "function accepts the four :ref:`input layouts <layouts>`; the "
            ":ref:`user guide <metrics>` gives each definition, tie rule and "
            "undefined-query rule.",
            _registry_metrics(),
            "autosummary/function.rst",
        ),
        (
            "Diversity metrics",
            "sklearn_rankeval",
            "Grades per intent (subtopic): ``y_true`` of shape ``(n_samples, "
            "n_intents)`` beside a 1-D ``y_score``; alpha-nDCG, ERR-IA, NRBP, "
            "intent-aware metrics, subtopic recall and D#-nDCG, with an exact "
            "ideal (:ref:`user guide <diversity>`).",
            _registry_metrics(intents=True),
            "autosummary/function.rst",
        ),
        (
            "Classification metric",
            "sklearn_rankeval",
            "F-alpha, the weighted harmonic mean of precision and recall "
            "(:ref:`user guide <f-alpha>`).",
            ["f_alpha_score"],
            "autosummary/function.rst",
        ),
        (
            "Curves",
            "sklearn_rankeval",
            "Interpolated precision at fixed recall levels, averaged over "
            "queries (:ref:`user guide <interpolated-ap>`).",
            ["interpolated_precision_recall_curve"],
            "autosummary/function.rst",
        ),
        (
            "Exposure",
            "sklearn_rankeval",
            "The expected exposure of each item or item group beside its "
            "target (:ref:`user guide <fairness-exposure>`).",
            ["exposure_frame"],
            "autosummary/function.rst",
        ),
        (
            "Reports",
            "sklearn_rankeval",
            "Many metrics from one call, as ``classification_report`` is for "
            "classification.",
            ["ranking_report"],
            "autosummary/function.rst",
        ),
        (
            "Per-group values",
            "sklearn_rankeval",
            "The value of every metric for every group (query, user), in one "
            "table.",
            ["per_group_scores"],
            "autosummary/function.rst",
        ),
        (
            "Uncertainty and comparison",
            "sklearn_rankeval",
            "Paired tests and bootstrap intervals over groups, to tell whether "
            "one model ranks better than another (:ref:`user guide "
            "<uncertainty>`); ``ranking_report(confidence=)`` gives intervals "
            "of one model's metrics; all-pairs designs, effect sizes, risk "
            "and the number of groups an experiment needs (:ref:`user guide "
            "<statistics>`).",
            ["compare_rankings", "risk_report", "topic_set_size",
             "achieved_power"],
            "autosummary/function.rst",
        ),
        (
            "Recommendation lists",
            "sklearn_rankeval",
            "Each user's top-k items of a users x items score matrix, the "
            "training interactions excluded and a tie at the cut kept whole; "
            "the accuracy and beyond-accuracy metrics of such lists.",
            ["top_k_items", "recommendation_report"],
            "autosummary/function.rst",
        ),
        (
            "Retrieval for RAG",
            "sklearn_rankeval",
            "A run against its qrels as frames, with the hygiene of retrieval "
            "data (unjudged, repeated and self documents, chunks) and each "
            "harness's number by name (:ref:`user guide <retrieval>`).",
            ["retrieval_report"],
            "autosummary/function.rst",
        ),
        (
            "Counterfactual evaluation",
            "sklearn_rankeval",
            "Ranking metrics of a new ranker estimated from a click log, "
            "corrected for position bias (:ref:`user guide <counterfactual>`).",
            ["counterfactual_report"],
            "autosummary/function.rst",
        ),
        (
            "Position bias",
            "sklearn_rankeval",
            "The examination propensity of each position of a click log "
            "(:ref:`user guide <counterfactual>`).",
            ["PositionBiasEstimator"],
            "autosummary/class.rst",
        ),
        (
            "Streaming",
            "sklearn_rankeval",
            "Metrics of data that comes in chunks, summed partial results.",
            ["RankingAccumulator"],
            "autosummary/class.rst",
        ),
        (
            "Configuration",
            "sklearn_rankeval",
            "Settings of the metric functions, as scikit-learn's: the memory of "
            "one chunk of groups (:ref:`user guide <memory>`).",
            ["config_context", "get_config", "set_config"],
            "autosummary/function.rst",
        ),
        (
            "Scorers",
            "sklearn_rankeval",
            "The metrics as ``scoring=`` of ``GridSearchCV`` and "
            "``cross_validate``, with the group ids routed to them "
            "(:ref:`user guide <model-selection>`).",
            ["get_scorer", "get_scorer_names", "make_ranking_scorer"],
            "autosummary/function.rst",
        ),
        (
            "Displays",
            "sklearn_rankeval",
            "matplotlib figures of ranking curves and of model comparisons, "
            "with the API of scikit-learn's displays (:ref:`user guide "
            "<displays>`).",
            [
                "InterpolatedPrecisionRecallDisplay",
                "ElevenPointDisplay",
                "GroupedRocCurveDisplay",
                "RankingComparisonDisplay",
                "PairwiseComparisonDisplay",
                "MetricAtKDisplay",
                "CalibrationCurveDisplay",
                "ItemExposureDisplay",
                "PerGroupHistogramDisplay",
                "PositionBiasDisplay",
            ],
            "autosummary/class.rst",
        ),
        (
            "Datasets",
            "sklearn_rankeval.datasets",
            "Synthetic data for the examples.",
            ["make_click_log", "make_interactions"],
            "autosummary/function.rst",
        ),
    ]


def check_and_render():
    """Check the sections against ``sklearn_rankeval.__all__``; return the rst.

    Raises
    ------
    RuntimeError
        If a public name is in no section, or a section lists a name that its
        module does not have (other than a pending one).
    """
    import sklearn_rankeval

    problems = []
    listed = set()
    out = [
        ".. This file is generated by conf.py from api_reference.py: edit that.",
        "",
        ".. _api:",
        "",
        "=============",
        "API reference",
        "=============",
        "",
        "Every public name of ``sklearn_rankeval``.  The metric functions, "
        "scorers and displays are importable from the top-level package, e.g. "
        "``from sklearn_rankeval import ndcg_score``.",
        "",
    ]
    for title, module_name, description, names, template in sections():
        module = import_module(module_name)
        present = []
        for name in names:
            if hasattr(module, name):
                present.append(name)
            else:
                problems.append(f"{module_name}.{name} is listed but does not exist")
            if module_name == "sklearn_rankeval":
                listed.add(name)
        if not present:
            continue
        out += [title, "=" * len(title), "", description, "",
                f".. currentmodule:: {module_name}", "",
                ".. autosummary::", "   :nosignatures:",
                "   :toctree: generated/", f"   :template: {template}", ""]
        out += [f"   {name}" for name in present]
        out.append("")
    missing = sorted(set(sklearn_rankeval.__all__) - listed)
    if missing:
        problems.append(
            "public names missing from the API reference (add them to a section "
            f"of doc/api_reference.py): {', '.join(missing)}"
        )
    if problems:
        raise RuntimeError("doc/api_reference.py: " + "; ".join(problems))
    return "\n".join(out)
