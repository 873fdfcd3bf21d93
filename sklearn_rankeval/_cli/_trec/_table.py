"""trec_eval's measures: the table (names, parameters, how each is computed)
and the ``-m`` selection.

The measures the library has are computed by it (``_library.py``); the
others are trec_eval's own (``_specific.py``, ``_gains.py``).
"""

import re
from dataclasses import dataclass

import numpy as np

from ..._metrics import safe_divide
from ._arrays import TrecError
from ._gains import dcg, g, ideal_dcg, ndcg, ndcg_rel, rndcg
from ._intents import diversity_measure
from ._library import (
    LEVELS,
    bpref,
    eleven_point_average,
    gauc,
    iprec_at_recall,
    library,
    rbp,
    rbp_resid,
)
from ._read import atol
from ._specific import (
    bin_g,
    count,
    infap,
    num_nonrel_judged_ret,
    relative_p,
    relstring,
    rprec_mult,
    set_f,
    set_measure,
    unj,
    utility,
)

__all__ = ["ALL_TREC", "MEASURES", "OFFICIAL", "TrecMeasure", "is_diversity",
           "parse_measures"]

#: trec_eval's default cutoffs of P, recall, ndcg_cut and map_cut.
CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)


@dataclass(frozen=True)
class TrecMeasure:
    """A trec_eval measure and how it is computed.

    Attributes
    ----------
    name : str
        trec_eval's name (``"P"``, ``"map_cut"``, ...).
    kind : {"float", "count", "text"}
        Printed with ``--digits`` decimals, as an integer, or as text.
    param : {None, "cutoff", "level"}
        The kind of parameter, printed as ``name_K`` / ``name_0.10``.
    defaults : tuple
        The parameters used when none is given (trec_eval's).
    per_query : callable or None
        ``per_query(arrays, params, options) -> ndarray (n_params, n_queries)``;
        None: an ``all``-only value (``runid``, ``num_q``).
    summary : callable or None
        ``summary(arrays, params, options) -> sequence (n_params,)``: the
        ``all`` value of an ``all``-only measure (``runid``, ``num_q``).
    average : {"macro", "gmean"}
        How the ``all`` line averages the queries (the library's
        ``aggregate``): their mean, or their geometric mean (``gm_map``,
        ``gm_bpref``: printed on the ``all`` line only, as trec_eval).
    skips_nan : bool
        Whether a NaN value means "no value" (the query is left out of the
        line and of the ``all`` mean: ``gauc``) rather than trec_eval's 0/0
        (printed ``-nan``, which makes the ``all`` mean ``-nan`` too).
    description : str
    """

    name: str
    kind: str
    param: object
    defaults: tuple
    per_query: object
    summary: object = None
    average: str = "macro"
    skips_nan: bool = False
    description: str = ""

    def label(self, p):
        """The printed name of the measure with parameter ``p``."""
        if p is None:
            return self.name
        if self.param in ("level", "mult"):
            return f"{self.name}_{p:.2f}"
        return f"{self.name}_{p}"


_NONE = (None,)

#: trec_eval's measures, in trec_eval's printing order, plus ``gauc``.
MEASURES = {
    m.name: m
    for m in [
        TrecMeasure("runid", "text", None, _NONE, None,
                    summary=lambda arr, params, opts: [arr.run_id or "unknown"],
                    description="the run's tag"),
        TrecMeasure("num_q", "count", None, _NONE, None,
                    summary=lambda arr, params, opts: [len(arr.qids)],
                    description="number of queries evaluated"),
        TrecMeasure("num_ret", "count", None, _NONE, count("num_ret"),
                    description="retrieved documents"),
        TrecMeasure("num_rel", "count", None, _NONE, count("num_rel"),
                    description="relevant documents"),
        TrecMeasure("num_rel_ret", "count", None, _NONE, count("num_rel_ret"),
                    description="relevant documents retrieved"),
        TrecMeasure("map", "float", None, _NONE, library("map"),
                    description="mean average precision"),
        TrecMeasure("gm_map", "float", None, _NONE, library("gm_map"),
                    average="gmean",
                    description="geometric mean over queries of AP (floor 1e-5)"),
        TrecMeasure("Rprec", "float", None, _NONE, library("Rprec"),
                    description="precision at rank R (R relevant documents)"),
        TrecMeasure("bpref", "float", None, _NONE, bpref,
                    description="binary preference (judged documents only)"),
        TrecMeasure("recip_rank", "float", None, _NONE, library("recip_rank"),
                    description="reciprocal rank of the first relevant document"),
        TrecMeasure("iprec_at_recall", "float", "level", LEVELS, iprec_at_recall,
                    description="interpolated precision at recall levels"),
        TrecMeasure("P", "float", "cutoff", CUTOFFS, library("P"),
                    description="precision at cutoffs"),
        TrecMeasure("relstring", "string", "raw", _NONE, relstring,
                    description="relevance values of the first N (10) ranked "
                                "documents (-q only): 0-9, > above 9, - not "
                                "judged, . judged negative"),
        TrecMeasure("recall", "float", "cutoff", CUTOFFS, library("recall"),
                    description="recall at cutoffs"),
        TrecMeasure("infAP", "float", None, _NONE, infap,
                    description="inferred AP (Yilmaz & Aslam)"),
        TrecMeasure("gm_bpref", "float", None, _NONE, bpref, average="gmean",
                    description="geometric mean over queries of bpref"),
        TrecMeasure("Rprec_mult", "float", "mult", tuple(j / 5 for j in range(1, 11)),
                    rprec_mult,
                    description="precision at rank int(x * R + 0.9)"),
        TrecMeasure("utility", "float", "raw", _NONE, utility,
                    description="a*rel_ret + b*nonrel_ret + c*rel_not_ret + d*"
                                "nonrel_not_ret (default 1,-1,0,0)"),
        TrecMeasure("11pt_avg", "float", "raw", _NONE, eleven_point_average,
                    description="11-point interpolated average precision"),
        TrecMeasure("binG", "float", None, _NONE, bin_g,
                    description="binary G (trec_eval's experimental measure)"),
        TrecMeasure("G", "float", "raw", _NONE, g,
                    description="normalized gain (trec_eval's experimental "
                                "measure; gains as ndcg)"),
        TrecMeasure("dcg", "float", "raw", _NONE,
                    dcg,
                    description="DCG over the whole ranking (gains as ndcg)"),
        TrecMeasure("ideal_dcg", "float", "raw", _NONE,
                    ideal_dcg,
                    description="DCG of the ideal ranking (gains as ndcg)"),
        TrecMeasure("ndcg", "float", "raw", _NONE, ndcg,
                    description="NDCG over the whole ranking; gain of each "
                                "relevance level: the level, or as given "
                                "(ndcg.1=3,2=9)"),
        TrecMeasure("ndcg_rel", "float", "raw", _NONE, ndcg_rel,
                    description="NDCG averaged over the documents with a "
                                "positive gain (gains as ndcg)"),
        TrecMeasure("Rndcg", "float", "raw", _NONE, rndcg,
                    description="NDCG averaged at the ranks where the ideal "
                                "gain changes (gains as ndcg)"),
        TrecMeasure("ndcg_cut", "float", "cutoff", CUTOFFS,
                    library("ndcg_cut", gain=True),
                    description="NDCG at cutoffs"),
        TrecMeasure("map_cut", "float", "cutoff", CUTOFFS,
                    library("map_cut"),
                    description="average precision at cutoffs (divided by R)"),
        TrecMeasure("relative_P", "float", "cutoff", CUTOFFS, relative_p,
                    description="relevant in the top k over min(k, R)"),
        TrecMeasure("success", "float", "cutoff", (1, 5, 10), library("success"),
                    description="a relevant document in the top k"),
        TrecMeasure("set_P", "float", None, _NONE,
                    set_measure(lambda rr, ret, rel, p: safe_divide(rr, ret)),
                    description="relevant retrieved over retrieved"),
        TrecMeasure("set_relative_P", "float", None, _NONE,
                    set_measure(lambda rr, ret, rel, p: safe_divide(
                        rr, np.minimum(ret, rel))),
                    description="relevant retrieved over min(retrieved, R)"),
        TrecMeasure("set_recall", "float", None, _NONE,
                    set_measure(lambda rr, ret, rel, p: safe_divide(rr, rel)),
                    description="relevant retrieved over R"),
        TrecMeasure("set_map", "float", None, _NONE,
                    set_measure(lambda rr, ret, rel, p: safe_divide(rr * rr,
                                                                   ret * rel)),
                    description="set precision times set recall"),
        TrecMeasure("set_F", "float", "raw", _NONE, set_measure(set_f),
                    description="F-measure of the retrieved set (beta 1)"),
        TrecMeasure("num_nonrel_judged_ret", "count", None, _NONE,
                    num_nonrel_judged_ret,
                    description="judged non-relevant documents retrieved"),
        TrecMeasure("rbp", "float", "raw", _NONE, rbp,
                    description="rank-biased precision, p=0.9 (rbp.p=0.8)"),
        TrecMeasure("rbp_resid", "float", "raw", _NONE, rbp_resid,
                    description="RBP's residual from unjudged and unranked "
                                "documents"),
        TrecMeasure("unj", "float", "cutoff", (5, 10, 20), unj,
                    description="share of unjudged documents in the top k"),
        TrecMeasure("gauc", "float", None, _NONE, gauc, skips_nan=True,
                    description="ROC AUC within each query (not trec_eval's); "
                                "queries with one class only are left out"),
    ]
}
#: trec_eval's ``all_trec`` set (measures.c, trec_names): every measure but
#: dcg, ideal_dcg (asked for by name only) and gauc (not trec_eval's).
ALL_TREC = tuple(name for name in MEASURES
                 if name not in ("dcg", "ideal_dcg", "gauc"))
#: trec_eval's ``official`` set: what it prints when no ``-m`` is given.
OFFICIAL = ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map",
            "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P")
_SUFFIXED = re.compile(r"(.+?)_([0-9]*\.?[0-9]+)")


def _parse_params(measure, text, spec):
    if measure.param == "raw":
        return [text]
    params = []
    for item in text.split(","):
        if measure.param == "cutoff":  # trec_eval reads a cutoff with atol
            value = atol(item)
            value = value if value >= 1 else None
        else:
            try:
                value = float(item.strip())
            except ValueError:
                value = None
        if measure.param == "mult" and (value is None or value <= 0):
            raise TrecError(f"measure {spec!r}: {item!r} is not a positive number")
        if measure.param == "cutoff" and (value is None or value < 1):
            raise TrecError(f"measure {spec!r}: cutoff {item!r} is not a "
                            f"positive integer")
        if measure.param == "level":
            if value is None or not 0.0 <= value <= 1.0:
                raise TrecError(f"measure {spec!r}: recall level {item!r} is "
                                f"not a number in [0, 1]")
            if abs(value * 100 - round(value * 100)) > 1e-9:
                raise TrecError(f"measure {spec!r}: recall level {item!r} has "
                                f"more than 2 decimals")
        params.append(value)
    return params


def parse_measures(specs):
    """Measures and parameters from ``-m`` values, in trec_eval's order.

    Parameters
    ----------
    specs : list of str or None
        trec_eval's syntax: ``"map"``, ``"P"`` (default cutoffs),
        ``"P.5,10"`` (parameters after a dot), and also the printed names
        ``"P_5"``, ``"iprec_at_recall_0.10"``; ``"all_trec"`` selects
        trec_eval's ``all_trec`` set (and rbp, rbp_resid, unj, as trec_eval
        10), ``"all"`` every measure (dcg, ideal_dcg and gauc too);
        ``"official"`` trec_eval's official set.  None or empty: the official
        set, as trec_eval without ``-m``.  A diversity measure, by the
        registry's name or ir_measures' (``"alpha_nDCG@20"``, ``"ERR_IA@20"``,
        ``"NRBP"``, ``"P_IA@10"``, ``"StRecall@10"``), is printed under that
        name after trec_eval's measures (it reads ndeval's qrels).  A cutoff
        is read as trec_eval's ``atol`` does (``ndcg_cut.23.4`` is
        ``ndcg_cut_23``).  Parameters given for a measure replace its
        default ones, as in trec_eval
        (``-m all_trec -m relstring.20`` prints ``relstring_20`` only); the
        parameters of several ``-m`` of one measure are merged.

    Returns
    -------
    selected : list of (TrecMeasure, tuple)
        Each selected measure once, with its sorted parameters.

    Raises
    ------
    TrecError
        For an unknown measure or a bad parameter.
    """
    chosen, explicit, diversity = {}, {}, {}
    for spec in specs or ["official"]:
        if spec in ("all", "all_trec", "official"):
            names = {"all": MEASURES, "all_trec": ALL_TREC}.get(spec, OFFICIAL)
            for name in names:
                chosen.setdefault(name, set()).update(MEASURES[name].defaults)
            continue
        name, params = spec, None
        if name not in MEASURES:
            match = _SUFFIXED.fullmatch(spec)
            if match and match.group(1) in MEASURES:
                name, params = match.group(1), match.group(2)
            else:
                name, _, params = spec.partition(".")
        measure = MEASURES.get(name)
        if measure is None and diversity_measure(spec) is not None:
            diversity.setdefault(spec, TrecMeasure(
                spec, "float", None, _NONE, diversity_measure(spec),
                description="a diversity measure of ndeval's qrels"))
            continue
        if measure is None:
            raise TrecError(
                f"unknown measure {spec!r}; the measures are "
                f"{', '.join(MEASURES)} (parameters as in P.5,10), or all_trec"
            )
        if params is None:
            chosen.setdefault(name, set()).update(measure.defaults)
        elif measure.param is None:
            raise TrecError(f"measure {name!r} takes no parameter, got {spec!r}")
        else:
            chosen.setdefault(name, set())
            explicit.setdefault(name, set()).update(
                _parse_params(measure, params, spec))
    chosen.update(explicit)
    return [
        (m, tuple(sorted(chosen[m.name], key=lambda p: (
            p is not None, p if isinstance(p, (int, float)) else 0, str(p)))))
        for m in MEASURES.values() if m.name in chosen
    ] + [(m, _NONE) for m in diversity.values()]


def is_diversity(measure):
    """Whether a selected measure reads ndeval's qrels (grades per subtopic)."""
    return measure.name not in MEASURES
