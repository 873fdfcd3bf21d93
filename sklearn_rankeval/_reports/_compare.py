"""``compare_rankings``: paired comparison of several models' rankings over groups.

Each model's scores are ranked by the engine once; every metric's per-group
partials then give, against the baseline model, the difference of the
averages with a paired bootstrap interval (the same group resamples for every
model, :mod:`._bootstrap`), a p-value, the p-value adjusted over all
models x metrics, and the per-group wins, ties and losses.
"""

from collections.abc import Mapping
from numbers import Real

import numpy as np
from scipy import stats

from .._core import InvalidArgumentError, check_option
from .._metrics import evaluate, fill_doc, parse_metrics
from .._stats import (
    MAX_CELLS,
    apply_undefined,
    average_terms,
    bootstrap_values,
    check_confidence,
    check_n_resamples,
    check_random_state,
    hierarchical_bootstrap_values,
    mean_partials,
    percentile_interval,
    ratio_of_sums,
    sign_flips,
    stacked_stats,
    two_way_anova,
)
from ._designs import (
    all_pairs,
    effect_fields,
    group_terms,
    maxt_pvalues,
    paired_terms,
    pairs_frame,
    pairs_table,
)
from ._format import COMPARISON_FIELDS, comparison_frame, comparison_table
from ._from_frames import parts_from_frames

__all__ = ["adjust_pvalues", "compare_rankings", "paired_values"]

TESTS = ("permutation", "t", "wilcoxon", "tukey_hsd", "randomized_tukey")
#: The tests of each design (``"permutation"`` in the all-pairs design is
#: the randomised Tukey HSD, its permutation test).
DESIGN_TESTS = {"baseline": ("permutation", "t", "wilcoxon"),
                "all_pairs": ("tukey_hsd", "randomized_tukey", "permutation")}
CORRECTIONS = ("holm", "bonferroni", "fdr_bh", "fdr_by", "maxt")
OUTPUTS = ("text", "dict", "frame")
FIELDS = COMPARISON_FIELDS
#: The effect sizes beside each difference (dict and frame).
EFFECT_FIELDS = ("effect_size", "effect_ci_low", "effect_ci_high", "g_av",
                 "es_residual")
#: With ``runs=``: the number of runs and their standard deviation.
RUN_FIELDS = ("n_runs", "run_sd")

#: Relative tolerance of ``|T*| >= |T|`` in the randomization test (as
#: ``scipy.stats.permutation_test``): flips that give the observed statistic
#: up to rounding count as at least as extreme.
PERMUTATION_RTOL = 1e-12


# ---------------------------------------------------------------------------
# multiple comparisons
# ---------------------------------------------------------------------------
def adjust_pvalues(p_values, method):
    """P-values adjusted for multiple comparisons; NaN stay NaN and do not count.

    ``"bonferroni"``: ``min(1, m p)``.  ``"holm"`` (step-down): the ``i``-th
    smallest becomes ``max_{j <= i} min(1, (m - j + 1) p_(j))``.
    ``"fdr_bh"`` (Benjamini-Hochberg step-up): the ``i``-th smallest becomes
    ``min_{j >= i} min(1, m p_(j) / j)``; ``"fdr_by"`` (Benjamini-Yekutieli)
    the same times ``sum_{i <= m} 1 / i``.  None: unchanged.  ``m`` is the
    number of finite p-values.
    """
    p = np.asarray(p_values, dtype=np.float64)
    out = p.copy()
    if method is None:
        return out
    finite = np.flatnonzero(np.isfinite(p))
    m = finite.size
    if m == 0:
        return out
    order = finite[np.argsort(p[finite], kind="stable")]
    ranked = p[order]
    if method == "bonferroni":
        adjusted = m * ranked
    elif method == "holm":
        adjusted = np.maximum.accumulate((m - np.arange(m)) * ranked)
    elif method in ("fdr_bh", "fdr_by"):
        c = np.sum(1.0 / np.arange(1, m + 1)) if method == "fdr_by" else 1.0
        adjusted = np.minimum.accumulate(
            (c * m * ranked / np.arange(1, m + 1))[::-1])[::-1]
    else:  # pragma: no cover - checked by the caller
        raise ValueError(f"unknown correction {method!r}")
    out[order] = np.minimum(adjusted, 1.0)
    return out


# ---------------------------------------------------------------------------
# per-group paired values
# ---------------------------------------------------------------------------
def paired_values(part_a, part_b, info, spec, *, undefined="skip"):
    """What the t-test and the Wilcoxon test compare, over groups defined for both.

    Returns ``(x_a, x_b, v_a, v_b)``: ``v`` are the per-group values and ``x``
    each group's term of the metric's average: the first statistic of the
    average (:func:`~._averages.average_terms`), ``w * v`` with ``w`` the
    group's weight in the average (1 for an unweighted macro mean, so that
    ``x = v``; the total sample weight for ``"weighted"``) or, for a pooled
    (``"micro"``) ratio, the query weight times the group's numerator.  A
    pooled average that is not a ratio of two sums (the normalized entropy,
    the calibration error) has no per-group term: ``x = v``.
    """
    average = spec.default_average
    terms = [average_terms(p, info, spec, average=average, undefined=undefined)
             for p in (part_a, part_b)]
    pa, pb = (apply_undefined(p, info.labels, undefined=undefined,
                              label=spec.label, needs_negative=spec.needs_negative)
              for p in (part_a, part_b))
    both = pa.defined & pb.defined
    va, vb = pa.value[both], pb.value[both]
    if terms[0].finalize is not ratio_of_sums:
        return va, vb, va, vb
    xa, xb = (t.stats[0][both] for t in terms)
    return xa, xb, va, vb


def _classic_pvalue(test, xa, xb):
    """``scipy.stats.ttest_rel`` or ``wilcoxon`` of ``xa`` against ``xb``."""
    if xa.shape[0] < 2:
        return float("nan")
    if np.array_equal(xa, xb):
        return 1.0
    if test == "t":
        return float(stats.ttest_rel(xa, xb).pvalue)
    return float(stats.wilcoxon(xa, xb).pvalue)


def _permutation_pvalues(pairs, n_resamples, rng):
    """Paired randomization p-values of ``value(model) - value(baseline)``.

    ``pairs`` lists the :class:`~._averages.Average` of the model and of the
    baseline of each comparison (the same metric, the same groups).  A flip
    of group ``g`` gives the model's statistics in ``g`` to the baseline and
    the baseline's to the model.  Only the groups where some pair differs can
    change a statistic: with ``2**n`` of them at most ``n_resamples``, all
    ``2**n`` flips are enumerated (exact p-value ``count / 2**n``); otherwise
    ``n_resamples`` random flips give ``(count + 1) / (n_resamples + 1)``.
    Returns the p-values and whether they are exact.
    """
    model, rows = stacked_stats([m for m, _ in pairs])
    base, _ = stacked_stats([b for _, b in pairs])
    moved = base - model  # what a flip moves from the baseline to the model
    informative = np.flatnonzero((moved != 0).any(axis=0))
    moved = moved[:, informative]
    n = informative.size
    sum_m, sum_b = model.sum(axis=1), base.sum(axis=1)
    finalize = [m.finalize for m, _ in pairs]
    with np.errstate(divide="ignore", invalid="ignore"):
        observed = np.abs([f(sum_m[r]) - f(sum_b[r])
                           for f, r in zip(finalize, rows)])
    threshold = observed * (1.0 - PERMUTATION_RTOL)
    exact = n < 63 and 2 ** n <= n_resamples
    count = np.zeros(len(pairs), dtype=np.int64)
    for _, flips in sign_flips(n, n_resamples, rng, exact=exact,
                               max_cells=MAX_CELLS):
        shift = moved @ flips.T
        with np.errstate(divide="ignore", invalid="ignore"):
            for j, (f, r) in enumerate(zip(finalize, rows)):
                stat = np.abs(f(sum_m[r, None] + shift[r])
                              - f(sum_b[r, None] - shift[r]))
                count[j] += np.count_nonzero(stat >= threshold[j])
    if exact:
        p = count / float(2 ** n)
    else:
        p = (count + 1) / (n_resamples + 1.0)
    return np.where(np.isfinite(observed), p, np.nan), exact


# ---------------------------------------------------------------------------
# checks
# ---------------------------------------------------------------------------
def _check_runs(y_scores, runs):
    """``(models, {model: [scores of each run]})``: the models of
    ``y_scores`` then those of ``runs`` (a model in both is refused)."""
    if runs is None:
        models = _check_scores(y_scores)
        return models, {m: [y_scores[m]] for m in models}
    if not isinstance(runs, Mapping):
        raise InvalidArgumentError(
            "runs", f"must be a dict {{model name: [scores of each run]}}, got "
                    f"{type(runs).__name__}.")
    if not isinstance(y_scores, Mapping):
        _check_scores(y_scores)  # its TypeError
    both = [m for m in runs if m in y_scores]
    if both:
        raise InvalidArgumentError(
            "runs", f"names models that y_scores has too ({both[0]!r}): give "
                    f"each model's scores in one of them.")
    run_scores = {m: [y_scores[m]] for m in y_scores}
    for model, scores in runs.items():
        if (isinstance(scores, Mapping) or np.ndim(scores) < 1 or not len(scores)
                or any(np.ndim(x) < 1 for x in scores)):
            raise InvalidArgumentError(
                "runs", f"model {model!r} must map to a list of score arrays "
                        f"(one per run).")
        run_scores[model] = list(scores)
    flat = {f"{m} (run {i})" if len(s) > 1 else m: x
            for m, s in run_scores.items() for i, x in enumerate(s)}
    _check_scores(flat if len(run_scores) > 1 else {})
    return list(run_scores), run_scores


def _check_frame_call(y_scores, **ignored):
    """The models of a call on per-group frames; the arguments that act on
    rows must be left out."""
    if not isinstance(y_scores, Mapping) or len(y_scores) < 2:
        raise InvalidArgumentError(
            "y_scores", "must be a dict {model name: per-group frame} of at "
                        "least two models when y_true is None.")
    for name, value in ignored.items():
        if value is not None:
            raise InvalidArgumentError(
                name, "must be None with per-group frames (y_true=None): the "
                      "frames hold each group's values already.")
    return list(y_scores)


def _run_fields(values):
    """``n_runs`` and the between-run standard deviation of the metric
    (each run's own average; ``ddof=1``, NaN for one run)."""
    v = np.asarray(values, dtype=np.float64)
    return dict(n_runs=int(v.size),
                run_sd=float(np.std(v, ddof=1)) if v.size > 1 else float("nan"))


def _check_scores(y_scores):
    if not isinstance(y_scores, Mapping):
        raise TypeError(
            f"y_scores must be a dict {{model name: scores}}, got "
            f"{type(y_scores).__name__}."
        )
    if len(y_scores) < 2:
        raise ValueError(
            f"y_scores must hold at least two models to compare, got "
            f"{len(y_scores)}."
        )
    shapes = {name: np.shape(scores) for name, scores in y_scores.items()}
    first, shape = next(iter(shapes.items()))
    for name, other in shapes.items():
        if other != shape:
            raise ValueError(
                f"y_scores: every model must score the same rows; model "
                f"{first!r} has shape {shape}, model {name!r} has shape {other}."
            )
    return list(y_scores)


def _check_margins(**margins):
    """The extra output fields the margins ask for; each margin a finite
    number ``>= 0``."""
    for name, value in margins.items():
        if value is None:
            continue
        if (isinstance(value, bool) or not isinstance(value, Real)
                or not np.isfinite(value) or value < 0):
            raise InvalidArgumentError(
                name, f"must be a finite number >= 0 (on the metric's scale), "
                f"got {value!r}.", value=value)
    fields = ()
    if margins["equivalence"] is not None:
        fields += ("p_equivalence", "tost_ci_low", "tost_ci_high")
    if margins["non_inferiority"] is not None:
        fields += ("p_noninferiority",)
    if margins["min_effect"] is not None:
        fields += ("practical",)
    return fields


def _baseline_effects(margins):
    """The effect fields of the baseline against itself: no effect, no test."""
    out = dict.fromkeys(EFFECT_FIELDS, 0.0)
    out.update({f: float("nan") for f in margins if f != "practical"})
    if "practical" in margins:
        out["practical"] = False
    return out


# ---------------------------------------------------------------------------
# the public function
# ---------------------------------------------------------------------------
@fill_doc
def compare_rankings(y_true, y_scores, *, groups=None, metrics=None,
                     sample_weight=None, baseline=None, test="permutation",
                     correction="holm", confidence=0.95, n_resamples=10000,
                     random_state=None, output="text", convention=None,
                     design="baseline", equivalence=None, non_inferiority=None,
                     min_effect=None, runs=None):
    """Compare several models' rankings of the same rows, group by group.

    For each metric and each model: the metric's value, its difference to the
    baseline model, a paired percentile bootstrap interval of that
    difference, a p-value of a paired test of "no difference", the p-value
    adjusted for the number of models x metrics compared, and the number of
    groups where the model beats, ties with and loses to the baseline.  The
    unit of resampling and of pairing is the group (query, user), never the
    row: the rows of one group are not independent.

    Read more in the :ref:`User Guide <uncertainty>`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_queries, n_items), or None
        Relevance of each item (``>= 0``), as for the metric functions.
        None: ``y_scores`` holds per-group frames (see below).
    y_scores : dict of {str: array-like} or dict of {str: DataFrame}
        ``{model name: scores}``, at least two models, each scoring the same
        rows as ``y_true`` (same shape).  With ``y_true=None``: ``{model
        name: per-group frame}``, as :func:`per_group_scores` returns it
        (pandas, polars, a dict, or the Spark / Dask frame of
        ``sklearn_rankeval.spark`` / ``.dask``, collected here), every model
        on the same groups; each metric is a column of the frames (a pooled
        average such as HR@k's is refused: the frame lacks its statistics)
        and ``groups``, ``sample_weight``, ``convention`` and ``runs`` must
        be None.
    groups : array-like of shape (n_samples,), default=None
        Query (user) id of each row for 1-D input; None: one ranking (one
        group, so no test is possible).
    metrics : list of str, default=None
        Metric names as the scorer names (``"gauc"``, ``"ndcg@10"``, ...).
        None: the metrics of :func:`ranking_report`'s default.
    sample_weight : array-like, default=None
        One weight per row (long layout) or per query (2-D), as in the metric
        functions; the same for every model.
    baseline : str, default=None
        The model the others are compared with; None: the first key of
        ``y_scores``.
    test : {'permutation', 't', 'wilcoxon', 'tukey_hsd', \
'randomized_tukey'}, default='permutation'
        ``design="baseline"``: ``'permutation'``: paired randomization
        (sign-flip) test of the difference of the metric's own average,
        where each group's two models are swapped at random.  ``'t'``:
        :func:`scipy.stats.ttest_rel` and ``'wilcoxon'``:
        :func:`scipy.stats.wilcoxon`, both two-sided, on each group's term
        of the average (the per-group values for an unweighted macro mean;
        see Notes); the Wilcoxon test is about the median of the
        differences, and with many groups (above ~1,000) it rejects a zero
        *mean* difference far too often (:ref:`statistics-simulation`).
        ``design="all_pairs"``: ``'tukey_hsd'`` (blocked
        Tukey HSD) or ``'randomized_tukey'`` (Sakai's randomised Tukey HSD;
        ``'permutation'`` means it there).
    correction : {'holm', 'bonferroni', 'fdr_bh', 'fdr_by', 'maxt'} or None, \
default='holm'
        Adjustment of the p-values for the number of comparisons, over every
        (metric, non-baseline model): Holm's step-down, Bonferroni,
        Benjamini-Hochberg's or Benjamini-Yekutieli's false discovery rate,
        or Westfall-Young's single-step maxT (``test='permutation'`` only:
        sign flips of the groups shared by every model and metric, see
        Notes); None: none.  ``design="all_pairs"`` has its own adjustment
        (Tukey's) and ignores it.
    confidence : float, default=0.95
        Level of the bootstrap interval of each difference, in (0, 1).
    n_resamples : int, default=10000
        Number of bootstrap resamples, and of random flips of the
        permutation test (unless it is exact, see Notes).
    random_state : int, numpy.random.Generator, RandomState or None, \
default=None
        Seed of the resampling and of the flips; an int gives the same
        numbers on every run and platform.
    output : {'text', 'dict', 'frame'}, default='text'
        A text table; a dict ``{metric: {model: {"value", "diff", "ci_low",
        "ci_high", "p_value", "p_adjusted", "wins", "ties", "losses",
        "effect_size", "effect_ci_low", "effect_ci_high", "g_av",
        "es_residual"}}}`` (and the margins' fields); or a tidy pandas
        DataFrame with the columns ``metric``, ``model`` and those fields.
        With ``design="all_pairs"``: ``{metric: {model_a: {model_b:
        {"value_a", "value_b", "diff", ...}}}}`` and a frame with one row per
        ``(metric, model_a, model_b)``.
    %(convention_header)s
        Every metric of every model as that library computes it, as in
        :func:`ranking_report` (see :ref:`conventions-presets`); the
        differences, intervals and tests are then those of the library's
        numbers.  A metric the library does not have is a ``ValueError``.
        None: this library's own rules.
    design : {'baseline', 'all_pairs'}, default='baseline'
        ``'baseline'``: every model against ``baseline``.  ``'all_pairs'``:
        every pair ``(a, b)`` of models, ``a`` before ``b`` in the order of
        ``y_scores``, with ``diff = value(b) - value(a)`` over the groups
        where all the models are defined, the simultaneous ``confidence``
        interval and p-value of ``test`` (``p_adjusted``, Tukey's family-wise
        adjustment over the pairs of one metric) and the unadjusted
        ``p_value``.
    equivalence : float, default=None
        A margin ``m >= 0`` on the metric's scale: adds ``p_equivalence``,
        the paired TOST p-value of ``|diff| < m``, and ``tost_ci_low``,
        ``tost_ci_high``, the ``1 - 2 alpha`` t interval of the difference
        (``alpha = 1 - confidence``; equivalent at ``alpha`` exactly when it
        lies inside ``(-m, m)``).
    non_inferiority : float, default=None
        A margin ``m >= 0``: adds ``p_noninferiority``, the one-sided paired
        t-test of ``H0: diff <= -m`` (the model is worse than the baseline
        by ``m`` or more).
    min_effect : float, default=None
        The smallest difference that matters, on the metric's scale: adds
        ``practical``, True when the difference's interval lies entirely
        above ``min_effect`` or below ``-min_effect``.
    runs : dict of {str: list of array-like}, default=None
        Models scored several times (seeds, folds): ``{model name: [scores
        of each run]}``, each run scoring the same rows as ``y_true``; these
        models come after those of ``y_scores`` (which may then be empty,
        ``{}``).  Such a model's per-group value is the mean over its runs
        (defined where every run is), which the tests compare; its interval
        comes from a hierarchical bootstrap over groups and runs (see
        Notes); ``n_runs`` and ``run_sd``, the standard deviation of the
        metric over the runs (the between-run spread, apart from the
        groups'), are added to every model.  ``design="all_pairs"`` compares
        the runs' means (its intervals leave the seeds' variance out).

    Returns
    -------
    comparison : str, dict or pandas.DataFrame
        Models in the order of ``y_scores``, the baseline included: its
        ``diff``, ``ci_low`` and ``ci_high`` are 0, its p-values NaN (it is
        not compared with itself), ``ties`` counts its groups and ``wins``
        and ``losses`` are 0, its effect sizes 0 and its margins' p-values
        NaN.  ``design="all_pairs"``: the pairs as described in ``output``.

    See Also
    --------
    ranking_report : Many metrics of one model, with ``confidence`` for
        bootstrap intervals.
    per_group_scores : The per-group values that are paired here.

    Notes
    -----
    **Values and intervals.** ``value`` is the metric with its default
    ``average``, as :func:`ranking_report` gives it.  The interval is the
    percentile bootstrap interval of ``value(model) - value(baseline)``: the
    groups are drawn with replacement, the same draws for every model, and
    each average is recomputed exactly on the drawn groups (a group drawn
    twice counts twice, with its weight; weighted GAUC resamples its group
    weights, pooled HR@k its hits and relevant counts).  Groups where a
    metric is undefined are left out, as the metric functions do by default.

    **Permutation test.**  Under the null hypothesis the two models'
    rankings of a group are exchangeable.  Each random flip swaps the two
    models' per-group terms (value and weight, or pooled numerator and
    denominator) in a random half of the groups and recomputes the
    difference of the averages; the p-value is the share of flips whose
    absolute difference is at least the observed one (up to a relative
    rounding of 1e-12).  Only groups where the models differ matter; when
    there are ``n`` such groups and ``2**n <= n_resamples``, all ``2**n``
    flips are enumerated and the p-value is exact.  Otherwise it is
    ``(count + 1) / (n_resamples + 1)`` over random flips, which is never 0.
    For an unweighted macro mean this is the classic paired sign-flip test of
    the mean per-group difference.

    **t and Wilcoxon tests.** They are applied to each group's term of the
    average, over the groups where both models are defined: for an
    unweighted macro mean the per-group values themselves, so the p-value
    equals ``scipy.stats.ttest_rel(v_model, v_baseline)`` (and ``wilcoxon``);
    for a weighted average (GAUC) the values times the group weights
    ``w * v``, so that the test is about the same weighted mean that
    ``diff`` reports; for a pooled average (HR@k) the query weight times the
    group's numerator (its hits; the denominators do not depend on the
    scores).  When every difference is 0 the p-value is 1; with fewer than 2
    groups it is NaN.  ``wins``, ``ties`` and ``losses`` compare the
    per-group values exactly (no tolerance).

    **Effect sizes.** Beside every difference, on each group's term over the
    groups where both models are defined: ``effect_size``, the paired
    ``d_z = mean(d) / sd(d)`` (Cohen; Lakens 2013) with the interval that
    inverts the noncentral t distribution of ``d_z sqrt(n)`` (exact for
    normal differences); ``g_av``, Hedges' ``g_av = (mean(b) - mean(a)) /
    sqrt((var(a) + var(b)) / 2)`` with the factor ``1 - 3 / (8 n - 9)``; and
    ``es_residual``, the mean difference over the residual standard
    deviation of the two-way ANOVA of all the models (Sakai 2014), which
    does not count the groups' difficulty as noise.

    **All pairs.** The groups are blocks and the models treatments: the
    two-way ANOVA without replication has the residual variance ``V_E =
    sum (x_ij - x_i. - x_.j + x..)**2 / ((n - 1)(k - 1))``.  Tukey's HSD
    refers ``|diff| / sqrt(V_E / n)`` to the studentized range of ``k``
    means with ``(n - 1)(k - 1)`` degrees of freedom
    (:data:`scipy.stats.studentized_range`).  The one-way Tukey of
    independent samples (``scipy.stats.tukey_hsd(*columns)``) puts the
    groups' difficulty in its error term and misses consistent small gains.
    The randomised Tukey HSD permutes the models' labels within each group
    and compares ``|diff|`` with the largest difference of two models'
    means of each relabelling; its interval is ``diff -+`` that maximum's
    ``confidence`` quantile, and when all the relabellings of the groups
    that are not constant are at most ``n_resamples`` they are enumerated.

    **maxT.** Each (metric, model) comparison has the statistic ``T =
    |sum_g d_g| / sqrt(sum_g d_g**2)`` of its per-group term differences
    (0 in groups where one of the models is undefined); one set of sign
    flips of the groups is applied to every comparison, and the adjusted
    p-value of a comparison is the share of flips whose largest ``T`` over
    all comparisons reaches its own (single-step maxT, Westfall and Young
    1993); ``p_value`` is the share whose own ``T`` does.  It keeps the
    dependence between metrics and models, so it loses less power than Holm
    when the comparisons are correlated (Boytsov et al. 2013).

    **Runs.** With ``runs``, a bootstrap resample draws the groups with
    replacement (the same draw for every model), then each model's runs with
    replacement, its statistics the mean over the drawn runs of those of
    the drawn groups, their spread around the runs' mean scaled by
    ``sqrt(R / (R - 1))`` so that ``R`` drawn runs keep the runs' variance.
    The interval then includes the seeds' variance, which resampling the
    groups of the runs' mean leaves out.

    **Cost.** One ranking per model, then ``n_resamples`` draws of
    ``n_groups`` groups for the bootstrap and ``n_resamples`` flips of the
    differing groups, each a matrix product with every (model, metric)
    column at once: linear in ``n_resamples x n_groups``.

    References
    ----------
    .. [1] B. Efron and R. J. Tibshirani, "An Introduction to the Bootstrap",
       Chapman & Hall, 1993.
    .. [2] M. D. Smucker, J. Allan and B. Carterette, "A comparison of
       statistical significance tests for information retrieval evaluation",
       CIKM 2007.
    .. [3] S. Holm, "A simple sequentially rejective multiple test
       procedure", Scandinavian Journal of Statistics 6(2), 1979.
    .. [4] Y. Benjamini and Y. Hochberg, "Controlling the false discovery
       rate: a practical and powerful approach to multiple testing", Journal
       of the Royal Statistical Society B 57(1), 1995.
    .. [5] T. Sakai, "Statistical reform in information retrieval?", SIGIR
       Forum 48(1), 2014; and "Laboratory Experiments in Information
       Retrieval", Springer, 2018 (randomised Tukey HSD, effect sizes).
    .. [6] B. Carterette, "Multiple testing in statistical analysis of
       systems-based information retrieval experiments", ACM TOIS 30(1),
       2012.
    .. [7] P. H. Westfall and S. S. Young, "Resampling-Based Multiple
       Testing", Wiley, 1993; L. Boytsov, A. Belova and P. Westfall,
       "Deciding on an adjustment for multiplicity in IR experiments",
       SIGIR 2013.
    .. [8] D. J. Schuirmann, "A comparison of the two one-sided tests
       procedure and the power approach for assessing the equivalence of
       average bioavailability", J. Pharmacokinetics and Biopharmaceutics
       15(6), 1987.
    .. [9] D. Lakens, "Calculating and reporting effect sizes to facilitate
       cumulative science", Frontiers in Psychology 4, 2013.

    Examples
    --------
    >>> from sklearn_rankeval import compare_rankings
    >>> y_true = [1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1]
    >>> groups = [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]
    >>> # B ranks the relevant item first in every query, A in queries 1 and 3
    >>> scores = {"A": [3, 2, 1, 3, 2, 1, 3, 2, 1, 3, 2, 1],
    ...           "B": [3, 2, 1, 1, 3, 2, 3, 2, 1, 1, 2, 3]}
    >>> result = compare_rankings(y_true, scores, groups=groups,
    ...                           metrics=["mrr", "ndcg"], output="dict",
    ...                           random_state=0)
    >>> # MRR: A (1 + 1/2 + 1 + 1/3) / 4, B 1; B wins queries 2 and 4
    >>> fields = ["value", "diff", "ci_low", "ci_high", "p_value", "p_adjusted",
    ...           "wins", "ties", "losses"]
    >>> {key: round(result["mrr"]["B"][key], 4) for key in fields}
    {'value': 1.0, 'diff': 0.2917, 'ci_low': 0.0, 'ci_high': 0.5833, \
'p_value': 0.5, 'p_adjusted': 1.0, 'wins': 2, 'ties': 2, 'losses': 0}
    >>> # the per-query differences 0, 1/2, 0, 2/3: d_z = mean / sd
    >>> round(result["mrr"]["B"]["effect_size"], 4)
    0.8489
    >>> # only 2 queries differ: the 4 flips are enumerated and p = 2/4
    >>> # exactly; Holm doubles the smaller of the 2 p-values (MRR and NDCG)
    >>> result["ndcg"]["B"]["p_value"], result["ndcg"]["B"]["p_adjusted"]
    (0.5, 1.0)
    >>> # every pair, blocked Tukey HSD: C differs from A in query 3 only
    >>> scores["C"] = [3, 2, 1, 3, 2, 1, 1, 2, 3, 3, 2, 1]
    >>> pairs = compare_rankings(y_true, scores, groups=groups, metrics=["mrr"],
    ...                          design="all_pairs", test="tukey_hsd",
    ...                          output="frame")
    >>> pairs[["model_a", "model_b", "diff"]].round(4).to_dict("records")
    [{'model_a': 'A', 'model_b': 'B', 'diff': 0.2917}, \
{'model_a': 'A', 'model_b': 'C', 'diff': -0.1667}, \
{'model_a': 'B', 'model_b': 'C', 'diff': -0.4583}]
    """
    if y_true is None:  # per-group frames (e.g. collected from Spark / Dask)
        models = _check_frame_call(y_scores, groups=groups,
                                   sample_weight=sample_weight,
                                   convention=convention, runs=runs)
    else:
        models, run_scores = _check_runs(y_scores, runs)
    if baseline is None:
        baseline = models[0]
    elif baseline not in y_scores:
        raise ValueError(
            f"baseline must be one of the keys of y_scores "
            f"({', '.join(map(repr, models))}); got {baseline!r}."
        )
    check_option(design, "design", tuple(DESIGN_TESTS))
    if design == "all_pairs" and test == "permutation":
        test = "randomized_tukey"
    check_option(test, "test", DESIGN_TESTS[design])
    if correction is not None:
        check_option(correction, "correction", CORRECTIONS)
    if correction == "maxt" and (design != "baseline" or test != "permutation"):
        raise ValueError(
            "correction='maxt' is a permutation method of the baseline design: "
            f"it needs design='baseline' and test='permutation', got "
            f"design={design!r}, test={test!r}.")
    confidence = check_confidence(confidence)
    n_resamples = check_n_resamples(n_resamples)
    rng = check_random_state(random_state)
    check_option(output, "output", OUTPUTS)
    margins = _check_margins(equivalence=equivalence,
                             non_inferiority=non_inferiority,
                             min_effect=min_effect)
    parsed = parse_metrics(metrics)

    parts, run_parts, info = {}, {}, None
    if y_true is None:
        info, parts = parts_from_frames(y_scores, parsed)
        run_parts = {m: [parts[m]] for m in models}
        resolved = parsed
    for model in models if y_true is not None else ():
        run_parts[model] = []
        for scores in run_scores[model]:
            info, by_name, resolved = evaluate(
                y_true, scores, groups=groups, sample_weight=sample_weight,
                metrics=parsed, convention=convention)
            # the statistics resample groups on the host: per-group partials
            # of an Array API input (computed on its device) are copied there
            info = info.to_numpy()
            run_parts[model].append({name: p.to_numpy()
                                     for name, p in by_name.items()})
        parts[model] = (run_parts[model][0] if len(run_parts[model]) == 1 else
                        {name: mean_partials([r[name] for r in run_parts[model]])
                         for name in run_parts[model][0]})

    parsed = resolved  # the metrics as the convention averages them
    if design == "all_pairs":
        result, exact = all_pairs(
            parts, models, parsed, info, test=test, confidence=confidence,
            n_resamples=n_resamples, rng=rng, equivalence=equivalence,
            non_inferiority_margin=non_inferiority, min_effect=min_effect)
        if output == "dict":
            return result
        if output == "frame":
            return pairs_frame(result, margins)
        kind = ("blocked Tukey HSD (two-way ANOVA)" if test == "tukey_hsd" else
                "randomised Tukey HSD" + (" (exact)" if exact else ""))
        header = (f"all pairs, {kind} over the groups (of {len(info.labels)}) "
                  f"where every model is defined, "
                  f"{confidence * 100:g}% simultaneous intervals of the "
                  f"difference (b - a)")
        return pairs_table(result, header, margins)

    if runs:
        margins = margins + RUN_FIELDS
    # one column per (metric, model): the statistics of its average
    columns = [(name, model) for name, _, _ in parsed for model in models]
    col = {key: j for j, key in enumerate(columns)}
    specs = {name: spec for name, spec, _ in parsed}
    averages = [average_terms(parts[model][name], info, specs[name],
                              average=specs[name].default_average)
                for name, model in columns]

    others = [m for m in models if m != baseline]
    pairs = [(name, model) for name, _, _ in parsed for model in others]
    if runs:  # groups, then each model's runs, drawn with replacement
        dist = hierarchical_bootstrap_values(
            [[average_terms(r[name], info, specs[name],
                            average=specs[name].default_average)
              for r in run_parts[model]] for name, model in columns],
            n_resamples, rng)
    else:
        dist = bootstrap_values(averages, n_resamples, rng)
    diff_dist = np.column_stack(
        [dist[:, col[name, model]] - dist[:, col[name, baseline]]
         for name, model in pairs])
    low, high = percentile_interval(diff_dist, confidence)

    row = {model: i for i, model in enumerate(models)}
    term_sets = {name: (group_terms({m: parts[m][name] for m in models},
                                    models, info, spec), row)
                 for name, spec, _ in parsed}
    if correction == "maxt":
        exact = None
        p_values, p_adjusted, _ = maxt_pvalues(
            term_sets, [(n, m, baseline) for n, m in pairs], n_resamples, rng)
    else:
        if test == "permutation":
            p_values, exact = _permutation_pvalues(
                [(averages[col[n, m]], averages[col[n, baseline]])
                 for n, m in pairs], n_resamples, rng)
        else:
            exact = None
            p_values = np.array([
                _classic_pvalue(test, *paired_values(
                    parts[model][name], parts[baseline][name], info,
                    specs[name])[:2])
                for name, model in pairs])
        p_adjusted = adjust_pvalues(p_values, correction)

    result = {}
    for name, spec, _ in parsed:
        values = {model: spec.aggregate(parts[model][name], info,
                                        average=spec.default_average)
                  for model in models}
        terms = term_sets[name][0]
        x_all, _ = terms.matrix(list(range(len(models))))
        v_e = two_way_anova(x_all)[0] if x_all.shape[0] else float("nan")
        by_model = {}
        for model in models:
            _, _, v_m, v_b = paired_values(parts[model][name],
                                           parts[baseline][name], info, spec)
            if model == baseline:
                by_model[model] = dict(
                    value=values[model], diff=0.0, ci_low=0.0, ci_high=0.0,
                    p_value=float("nan"), p_adjusted=float("nan"), wins=0,
                    ties=int(v_m.shape[0]), losses=0,
                    **_baseline_effects(margins))
                continue
            j = pairs.index((name, model))
            by_model[model] = dict(
                value=values[model], diff=values[model] - values[baseline],
                ci_low=float(low[j]), ci_high=float(high[j]),
                p_value=float(p_values[j]), p_adjusted=float(p_adjusted[j]),
                wins=int(np.count_nonzero(v_m > v_b)),
                ties=int(np.count_nonzero(v_m == v_b)),
                losses=int(np.count_nonzero(v_m < v_b)))
            x_b, x_m = paired_terms(terms, row[baseline], row[model])
            by_model[model].update(effect_fields(
                x_b, x_m, v_e, confidence=confidence, equivalence=equivalence,
                non_inferiority_margin=non_inferiority, min_effect=min_effect,
                ci=(low[j], high[j])))
        if runs:
            for model in models:
                by_model[model].update(_run_fields(
                    [spec.aggregate(r[name], info, average=spec.default_average)
                     for r in run_parts[model]]))
        result[name] = by_model

    if output == "dict":
        return result
    if output == "frame":
        return comparison_frame(result, EFFECT_FIELDS + margins)
    kind = {"permutation": "paired permutation test"
                           + (" (exact)" if exact else ""),
            "t": "paired t-test", "wilcoxon": "Wilcoxon signed-rank test"}[test]
    fix = ("maxT (Westfall-Young, shared sign flips)" if correction == "maxt"
           else correction or "no")
    header = (f"baseline {baseline}, {kind} over {len(info.labels)} groups, "
              f"{fix} correction, {confidence * 100:g}% bootstrap "
              f"interval of the difference")
    return comparison_table(result, models, baseline, header, margins)
