"""The statistics of ``compare_rankings`` beyond one test per pair.

From the per-group partials of every model (one ranking per model), this
module builds each metric's per-group *terms* -- what the paired tests
compare -- and from them:

* the ``design="all_pairs"`` result: blocked or randomised Tukey HSD over
  every pair of models (:mod:`.._stats._designs`);
* the effect sizes beside each difference, the equivalence (TOST) and
  non-inferiority tests, the ``min_effect`` flag (:mod:`.._stats._effects`);
* the Westfall-Young maxT adjustment over models x metrics.

A group's term is its contribution to the metric's average: the value for an
unweighted macro mean; for a weighted or pooled average (a ratio of two
sums over groups) the numerator, scaled by ``n / sum(denominator)`` so that
the mean of the terms over the groups is the average itself.  Every design
here uses the groups where all the models it compares are defined.
"""

from typing import NamedTuple

import numpy as np
from scipy import stats

from .._stats import (
    apply_undefined,
    average_terms,
    cohen_dz,
    hedges_g_av,
    maxt,
    non_inferiority,
    pair_indices,
    randomized_tukey,
    ratio_of_sums,
    tost,
    tukey_hsd,
    two_way_anova,
)
from ._format import make_frame

__all__ = ["PAIR_FIELDS", "Terms", "all_pairs", "effect_fields", "group_terms",
           "maxt_pvalues", "pairs_frame", "pairs_table", "paired_terms"]

#: The fields of a pair's entry in the all-pairs dict.
PAIR_FIELDS = ("value_a", "value_b", "diff", "ci_low", "ci_high", "p_value",
               "p_adjusted", "effect_size", "effect_ci_low", "effect_ci_high",
               "g_av", "es_residual")


class Terms(NamedTuple):
    """One metric's per-group terms of every model: ``num`` and ``den``
    ``(n_models, n_groups)`` (the term is ``num``, its average ``sum(num) /
    sum(den)``), ``defined`` the groups where each model is defined."""

    num: np.ndarray
    den: np.ndarray
    defined: np.ndarray

    def matrix(self, rows):
        """``(X, common)``: the terms of models ``rows`` on the groups where
        all of them are defined, ``(n_common, len(rows))``, scaled so that
        each column's mean is that model's average over those groups."""
        common = self.defined[rows].all(axis=0)
        num = self.num[rows][:, common]
        den = self.den[rows][:, common].sum(axis=1).mean()
        n = num.shape[1]
        scale = n / den if den > 0 else 1.0
        return (num * scale).T, common


def group_terms(parts, models, info, spec):
    """The :class:`Terms` of one metric, ``parts`` ``{model: Partials}``."""
    num, den, defined = [], [], []
    for model in models:
        avg = average_terms(parts[model], info, spec, average=spec.default_average)
        p = apply_undefined(parts[model], info.labels, undefined="skip",
                            label=spec.label, needs_negative=spec.needs_negative)
        ok = np.asarray(p.defined, dtype=bool)
        if avg.finalize is ratio_of_sums:
            num.append(np.asarray(avg.stats[0], dtype=np.float64))
            den.append(np.asarray(avg.stats[1], dtype=np.float64))
        else:  # no per-group term: the values themselves
            num.append(np.where(ok, np.asarray(p.value, dtype=np.float64), 0.0))
            den.append(ok.astype(np.float64))
        defined.append(ok)
    return Terms(np.array(num), np.array(den), np.array(defined))


def paired_terms(terms, a, b):
    """``(x_a, x_b)``: the scaled terms of models ``a`` and ``b`` on the
    groups where both are defined."""
    x, _ = terms.matrix([a, b])
    return x[:, 0], x[:, 1]


def effect_fields(xa, xb, v_e, *, confidence, equivalence=None,
                  non_inferiority_margin=None, min_effect=None, ci=None):
    """The effect sizes and margin tests of ``b`` against ``a``.

    ``effect_size`` (paired ``d_z`` of ``xb - xa``) with its interval,
    ``g_av`` (Hedges), ``es_residual`` (the mean difference over the
    residual standard deviation ``sqrt(v_e)`` of the two-way ANOVA; Sakai);
    with ``equivalence``: ``p_equivalence`` and the ``1 - 2 alpha``
    interval ``tost_ci_low``/``tost_ci_high`` (``alpha = 1 -
    confidence``); with ``non_inferiority_margin``: ``p_noninferiority``;
    with ``min_effect`` and the difference's interval ``ci``: ``practical``.
    """
    d = xb - xa
    dz, low, high = cohen_dz(d, confidence)
    with np.errstate(divide="ignore", invalid="ignore"):
        es = (float(np.mean(d)) / np.sqrt(v_e) if d.size and v_e > 0
              else float("nan"))
    out = dict(effect_size=dz, effect_ci_low=low, effect_ci_high=high,
               g_av=hedges_g_av(xa, xb), es_residual=float(es))
    if equivalence is not None:
        p, t_low, t_high = tost(d, equivalence, alpha=1.0 - confidence)
        out.update(p_equivalence=p, tost_ci_low=t_low, tost_ci_high=t_high)
    if non_inferiority_margin is not None:
        out["p_noninferiority"] = non_inferiority(d, non_inferiority_margin)
    if min_effect is not None:
        out["practical"] = bool(ci[0] > min_effect or ci[1] < -min_effect)
    return out


def _pair_pvalues_tukey(x):
    """Unadjusted p-values of the blocked design: the paired t statistic on
    the ANOVA's residual variance, ``t = diff / sqrt(2 V_E / n)`` with
    ``(n - 1)(k - 1)`` degrees of freedom (Fisher's LSD)."""
    n, k = x.shape
    a, b = pair_indices(k)
    means = x.mean(axis=0)
    v_e, df = two_way_anova(x)
    diff = means[b] - means[a]
    if not np.isfinite(v_e):
        return np.full(diff.shape, np.nan)
    if v_e == 0:
        return np.where(diff == 0, 1.0, 0.0)
    return 2.0 * stats.t.sf(np.abs(diff) / np.sqrt(2.0 * v_e / n), df)


def all_pairs(parts, models, parsed, info, *, test, confidence, n_resamples,
              rng, equivalence=None, non_inferiority_margin=None,
              min_effect=None):
    """``{metric: {model_a: {model_b: fields}}}`` over every pair ``a``
    before ``b`` in the order of ``models``, and whether the randomised
    p-values are exact (None for Tukey's)."""
    k = len(models)
    a_idx, b_idx = pair_indices(k)
    result, exact = {}, None
    for name, spec, _ in parsed:
        terms = group_terms({m: parts[m][name] for m in models}, models, info, spec)
        x, _ = terms.matrix(list(range(k)))
        v_e, _ = two_way_anova(x) if x.shape[0] else (float("nan"), 0)
        if x.shape[0] < 2:
            nan = np.full(a_idx.shape, np.nan)
            diff = (x[:, b_idx] - x[:, a_idx]).mean(axis=0) if x.shape[0] \
                else nan
            low, high, p_adj, p_raw = nan, nan, nan, nan
        elif test == "tukey_hsd":
            diff, low, high, p_adj = tukey_hsd(x, confidence)
            p_raw = _pair_pvalues_tukey(x)
        else:
            diff, low, high, p_adj, exact, p_raw = randomized_tukey(
                x, n_resamples, rng, confidence)
        means = x.mean(axis=0) if x.shape[0] else np.full(k, np.nan)
        by_a = {}
        for j, (ia, ib) in enumerate(zip(a_idx, b_idx)):
            fields = dict(value_a=float(means[ia]), value_b=float(means[ib]),
                          diff=float(diff[j]), ci_low=float(low[j]),
                          ci_high=float(high[j]), p_value=float(p_raw[j]),
                          p_adjusted=float(p_adj[j]))
            fields.update(effect_fields(
                x[:, ia], x[:, ib], v_e, confidence=confidence,
                equivalence=equivalence,
                non_inferiority_margin=non_inferiority_margin,
                min_effect=min_effect, ci=(low[j], high[j])))
            by_a.setdefault(models[ia], {})[models[ib]] = fields
        result[name] = by_a
    return result, exact


def maxt_pvalues(term_sets, pairs, n_resamples, rng):
    """Westfall-Young maxT over ``pairs`` ``[(metric, model, baseline)]``.

    ``term_sets`` ``{metric: (Terms, {model: row})}``.  Each comparison's
    column holds ``x_model - x_baseline`` on the groups where both are
    defined and 0 elsewhere; all the columns share one set of sign flips of
    the groups.  Returns ``(p_raw, p_adjusted, exact)``.
    """
    columns = []
    for name, model, base in pairs:
        terms, row = term_sets[name]
        both = terms.defined[row[model]] & terms.defined[row[base]]
        x, _ = terms.matrix([row[base], row[model]])
        col = np.zeros(both.shape[0])
        col[both] = x[:, 1] - x[:, 0]
        columns.append(col)
    d = np.column_stack(columns) if columns else np.zeros((0, 0))
    return maxt(d, n_resamples, rng)


def pairs_frame(result, extra=()):
    """The all-pairs dict as a tidy frame: ``metric, model_a, model_b`` and
    the fields (``value_a``/``value_b`` left out)."""
    rows = [(metric, a, b, f) for metric, by_a in result.items()
            for a, by_b in by_a.items() for b, f in by_b.items()]
    columns = {"metric": np.array([r[0] for r in rows], dtype=object),
               "model_a": np.array([r[1] for r in rows], dtype=object),
               "model_b": np.array([r[2] for r in rows], dtype=object)}
    for field in PAIR_FIELDS[2:] + tuple(extra):
        dtype = bool if field == "practical" else float
        columns[field] = np.array([r[3][field] for r in rows], dtype=dtype)
    return make_frame(columns, "pandas", index=None)


def _cell(x, width, digits=4):
    if isinstance(x, bool):
        return f"{'yes' if x else 'no':>{width}s}"
    if not np.isfinite(x):
        return f"{'-':>{width}s}"
    if 0 < x < 5e-5 and digits == -1:
        return f"{'<0.0001':>{width}s}"
    return f"{x:>{width}.4f}"


def pairs_table(result, header, extra=()):
    """The all-pairs dict as a text table, one line per (metric, pair)."""
    rows = [(metric, f"{b} - {a}", f) for metric, by_a in result.items()
            for a, by_b in by_a.items() for b, f in by_b.items()]
    mw = max([len("metric")] + [len(r[0]) for r in rows]) + 2
    pw = max([len("pair")] + [len(r[1]) for r in rows]) + 2
    fields = [("diff", "diff", 0), ("ci_low", "ci_low", 0),
              ("ci_high", "ci_high", 0), ("p_value", "p_value", -1),
              ("p_adjusted", "p_adjusted", -1), ("effect_size", "d_z", 0)]
    fields += [(f, f, -1 if f.startswith("p_") else 0) for f in extra]
    widths = [max(9, len(label) + 2) for _, label, _ in fields]
    lines = [header, f"{'metric':<{mw}s}{'pair':<{pw}s}" + "".join(
        f"{label:>{w}s}" for (_, label, _), w in zip(fields, widths))]
    previous = None
    for metric, pair, f in rows:
        label = metric if metric != previous else ""
        previous = metric
        lines.append(f"{label:<{mw}s}{pair:<{pw}s}" + "".join(
            _cell(f[key], w, digits) for (key, _, digits), w in zip(fields, widths)))
    return "\n".join(lines)
