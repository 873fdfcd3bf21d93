"""The counterfactual report of a click log in an engine's partitions.

The driver reads the report's arguments as in memory
(:func:`~sklearn_rankeval._counterfactual.report_plan`, then the weight of a
click at each position, :func:`~sklearn_rankeval._counterfactual.position_weights`):
a :class:`ClickPlan`.  Each partition holds whole impressions (a shuffle by
group) and, piece by piece, runs the in-memory report's checks in its order
(:class:`LogChecks`), turns its clicks into gains with the same transform (a
gather of the weights by position,
:func:`~sklearn_rankeval._counterfactual.relevance_estimates`) and feeds them
to a :class:`~sklearn_rankeval.RankingAccumulator` over the report's own table
of names (:data:`~sklearn_rankeval._counterfactual.REPORT_TABLE`): one row of
partials per impression goes back (:func:`click_partials`), with the
partition's checks, a few numbers.  The driver merges the checks and raises
what the in-memory report raises on the whole log, else aggregates the
partials as the in-memory report does (:func:`reduce_clicks`: the groups
sorted by id, each metric's default average) and formats them as it does.

Two in-memory messages read the whole log: the values of non-binary clicks
(the ten smallest) and the rows shown beyond the propensities (their number
and the largest position).  Each partition sends what they need of its rows
(its ten smallest click values, its largest position and its rows beyond),
and the driver applies the same rules to the merged numbers, so that the
message is the one of the collected rows.
"""

import json
import math
from typing import NamedTuple

import numpy as np

from .._counterfactual import (
    REPORT_TABLES,
    beyond,
    check_beyond,
    check_clicks,
    check_log,
    check_repeated,
    encode_ids,
    position_weights,
    relevance_estimates,
    repeated_impressions,
    report_plan,
)
from .._metrics import substitute_doc
from .._reports import format_report
from ._partials import accumulate, accumulator_of, metric_plan, partial_dtypes

__all__ = ["ClickPlan", "LogChecks", "click_doc", "click_partials", "click_plan",
           "reduce_clicks", "split_log_rows"]

#: The checks of the in-memory report, in its order: the log's arrays
#: (clicks, then positions), the scores, the positions against the
#: propensities, the pipeline's (group ids, weights), then a position shown
#: twice in an impression.
LOG, SCORES, BEYOND, ROWS, REPEATED, NONE = range(6)
#: How many click values the in-memory message lists.
N_VALUES = 10


class ClickPlan(NamedTuple):
    """What each partition needs: the metric ``names``, the statistics of
    their pooled averages (``pooled``), the ``weights`` of a click at each
    position, the report's ``output`` and the estimator's table of names
    (``table``, a key of :data:`~sklearn_rankeval._counterfactual.REPORT_TABLES`)."""

    names: list
    pooled: dict
    weights: np.ndarray
    output: str
    table: str = "naive"

    @property
    def metric_table(self):
        return REPORT_TABLES[self.table]


def click_plan(metrics, *, estimator, clip, propensities, output):
    """The :class:`ClickPlan` of the report's arguments, checked on the
    driver with the in-memory report's rules and messages (one estimator:
    the side-by-side table of several is the in-memory report's only)."""
    if output == "text":
        raise ValueError("output must be one of ('dict', 'frame') on Spark and "
                         "Dask, got 'text'.")
    estimator, parsed = report_plan(metrics, estimator, output)
    weights = position_weights(propensities, estimator=estimator, clip=clip)
    names, pooled = metric_plan(None, None, parsed=parsed)
    return ClickPlan(names, pooled, weights, output, estimator)


def _click_values(clicks, checked):
    """The click values the in-memory message may list: of checked clicks,
    which of 0 and 1 occur (two passes); else the ten smallest and NaN (a
    sort, on bad input only)."""
    c = np.asarray(clicks)
    if checked:
        return ([c.dtype.type(0).item()] if not c.all() else []) + (
            [c.dtype.type(1).item()] if c.any() else [])
    values = np.unique(c)
    out = values[:N_VALUES].tolist()
    if values.shape[0] > N_VALUES and values.dtype.kind == "f" \
            and np.isnan(values[-1]):
        out.append(math.nan)
    return out


class LogChecks:
    """The in-memory report's checks of a log, gathered over its pieces.

    :meth:`check` checks a piece of the log (rows of whole or cut
    impressions) as the in-memory report checks the whole log, stage by
    stage, and keeps what the whole log's messages need: the click values
    (:func:`_click_values`), the largest position and the rows beyond the
    propensities, and the first message of each other stage.  A stage is
    checked on every piece while no earlier stage has failed on any, so
    that the merged checks (:meth:`merged`) raise what the whole log
    raises (:meth:`raise_first`).
    """

    def __init__(self, values=(), top=0, n_beyond=0, errors=None, n_repeated=0):
        self.values, self.top, self.n_beyond = list(values), top, n_beyond
        self.errors = dict(errors or {})
        self.n_repeated = n_repeated
        self.tail = None  # the last impression of a piece: (id, positions)

    @property
    def stage(self):
        """The earliest stage that failed (``NONE``: none)."""
        return min([*self.errors, BEYOND if self.n_beyond else NONE,
                    REPEATED if self.n_repeated else NONE])

    def count_repeated(self, groups, positions, cut):
        """Count the impressions of a piece that show a position twice;
        ``cut``: the piece's last impression may go on in the next piece
        (rows sorted by impression), so it is counted with that piece."""
        ids = np.asarray(groups)
        if self.tail is not None:
            ids = np.concatenate([np.asarray([self.tail[0]], dtype=ids.dtype)
                                  .repeat(self.tail[1].shape[0]), ids])
            positions = np.concatenate([self.tail[1], positions])
            self.tail = None
        try:
            code, labels = encode_ids(ids, ids.shape[0], "groups")
        except (ValueError, TypeError):
            return  # bad ids: the pipeline's message
        last = None
        if cut and code.shape[0]:
            last = int(code[-1])
            self.tail = (labels[last], positions[code == last])
        self.n_repeated += repeated_impressions(code, positions, exclude=last)

    def finish(self):
        """Count the impression held over from the last piece."""
        if self.tail is not None:
            ids = np.zeros(self.tail[1].shape[0], dtype=np.int64)
            self.n_repeated += repeated_impressions(ids, self.tail[1])
            self.tail = None

    def fail(self, stage, exc):
        self.errors.setdefault(stage, f"{type(exc).__name__}:{exc}")

    def check(self, clicks, y_score, positions, n_propensities, groups=None,
              cut=False):
        """``(clicks, y_score, positions)`` of a piece, checked, or None if
        the piece (or an earlier one) failed a check."""
        try:
            c, pos, _, _ = check_log(clicks, positions)
        except (ValueError, TypeError) as exc:
            self.values += _click_values(clicks, checked=False)
            self.fail(LOG, exc)
            return None
        self.values += _click_values(c, checked=True)
        if self.stage <= SCORES:
            return None
        try:
            _, _, s, _ = check_log(c, pos, y_score=y_score)
        except (ValueError, TypeError) as exc:
            self.fail(SCORES, exc)
            return None
        top, n_beyond = beyond(pos, n_propensities)
        self.top, self.n_beyond = max(self.top, top), self.n_beyond + n_beyond
        if groups is not None and self.stage > REPEATED:
            self.count_repeated(groups, pos, cut)
        return None if self.stage <= ROWS else (c, s, pos)

    def to_json(self):
        return json.dumps({"values": self.values, "top": self.top,
                           "beyond": self.n_beyond, "errors": self.errors,
                           "repeated": self.n_repeated})

    @classmethod
    def merged(cls, texts):
        """The checks of the whole log, from each partition's :meth:`to_json`."""
        out = cls()
        for text in texts:
            got = json.loads(text)
            out.values += got["values"]
            out.top = max(out.top, got["top"])
            out.n_beyond += got["beyond"]
            out.n_repeated += got.get("repeated", 0)
            for stage, message in got["errors"].items():
                out.errors.setdefault(int(stage), message)
        return out

    def raise_first(self, n_propensities):
        """Raise what the in-memory report raises on the whole log, if any:
        the click values (none: an empty log) and the positions beyond the
        propensities by their rules, the other stages' first messages."""
        check_clicks(np.asarray(self.values))
        for stage in (LOG, SCORES, BEYOND, ROWS, REPEATED):
            if stage == BEYOND:
                check_beyond(n_propensities, self.top, self.n_beyond)
            elif stage == REPEATED:
                check_repeated(self.n_repeated)
            elif stage in self.errors:
                kind, _, message = self.errors[stage].partition(":")
                raise (TypeError if kind == "TypeError" else ValueError)(message)


def click_partials(pieces, plan, *, group_rows="complete"):
    """One partition's ``(partials or None, LogChecks)``.

    ``pieces``: ``(clicks, y_score, positions, groups, sample_weight)`` of
    the partition's rows, piece by piece (whole impressions, or impressions
    cut between consecutive pieces with ``group_rows="sorted"``).  Each
    piece is checked (:class:`LogChecks`), its gains are the in-memory
    transform's, and the accumulator over the report's table ranks and
    measures them; the partials are
    :meth:`~sklearn_rankeval.RankingAccumulator.partials` (None if a check
    failed or the partition has no row).  Bad input is not raised here: it
    is in the checks, raised on the driver.
    """
    checks, pieces = LogChecks(), iter(pieces)
    n_propensities = plan.weights.shape[0]
    cut = group_rows == "sorted"

    def gains():
        for clicks, y_score, positions, groups, weight in pieces:
            checked = checks.check(clicks, y_score, positions, n_propensities,
                                   groups, cut)
            if checked is not None:
                c, s, pos = checked
                yield relevance_estimates(c, pos, plan.weights), s, groups, weight

    state = None
    try:
        acc = accumulate(gains(), plan.names, group_rows=group_rows,
                         metric_table=plan.metric_table)
        checks.finish()
        if acc is not None and checks.stage == NONE:
            state = acc.partials()
    except (ValueError, TypeError) as exc:
        checks.fail(ROWS, exc)
    for clicks, y_score, positions, groups, _ in pieces:  # after an error: the rest
        checks.check(clicks, y_score, positions, n_propensities, groups, cut)
    checks.finish()
    return state, checks


def split_log_rows(columns, plan, column="log"):
    """Collected rows of partials and of checks -> ``(partials columns, typed
    as :func:`~._partials.partial_dtypes`, [the checks' texts])``: a row
    whose ``column`` holds text is a partition's checks."""
    texts = np.asarray(columns[column], dtype=object)
    is_log = np.array([isinstance(t, str) for t in texts], dtype=bool)
    keep = ~is_log
    out = {"group": np.asarray(columns["group"])[keep]}
    for name, dtype in partial_dtypes(plan.names, plan.pooled):
        out[name] = np.asarray(columns[name])[keep].astype(dtype)
    return out, list(texts[is_log])


def reduce_clicks(columns, texts, plan):
    """The report of the collected partials (``columns``, as
    :func:`~._partials.partial_columns`) after the merged checks of every
    partition (``texts``): the in-memory report's values and format."""
    LogChecks.merged(texts).raise_first(plan.weights.shape[0])
    values = accumulator_of(columns, plan.names, plan.pooled,
                            metric_table=plan.metric_table).result()
    summaries = {name: (values[name],
                        int(np.count_nonzero(np.asarray(columns[f"m{i}_defined"]))))
                 for i, name in enumerate(plan.names)}
    return format_report(summaries, plan.output, digits=4)


#: The parameters that the Spark and Dask reports share.
CLICK_DOCS = {
    "click_columns": """\
clicks : str
    Name of the click column: 0/1 (numeric) or boolean.
y_score : str
    Name of the new ranker's score column (numeric; higher ranks first).
positions : str
    Name of the column of the 1-based rank at which the old ranker displayed
    each row (integers ``>= 1``).
groups : str
    Name of the impression id column (a ranking shown once): string, integer
    or float.""",
    "click_options": """\
propensities : PositionBiasEstimator or array-like of shape (n_positions,)
    A fitted :class:`~sklearn_rankeval.PositionBiasEstimator`, or the
    examination propensity of positions ``1 .. n_positions`` (finite,
    ``> 0``), sent to the workers with the function.
metrics : str or list of str, default=None
    As :func:`~sklearn_rankeval.counterfactual_report`: ``"dcg@K"``,
    ``"precision@K"``, ``"avg_rel_rank"`` (``estimator='ips'``),
    ``"recall@K"`` (``estimator='snips'``, pooled over the log), every one
    and ``"ndcg@K"`` with ``'naive'``; None: the estimator's own.
estimator : {'ips', 'snips', 'naive'}, default='ips'
    As :func:`~sklearn_rankeval.counterfactual_report` (one estimator per
    call here).
clip : float, default=None
    Largest inverse propensity, at least 1 (each click weighs
    ``min(1 / propensity, clip)``).
sample_weight : str, default=None
    Name of a weight column: the weight of each impression, constant within
    it.
output : {'dict', 'frame'}, default='dict'
    ``{metric: value}``, or a pandas DataFrame with the columns ``metric``,
    ``value`` and ``n_groups``.""",
    "click_returns": """\
report : dict or pandas.DataFrame
    The values of :func:`~sklearn_rankeval.counterfactual_report` on the
    collected rows (to 1e-12).""",
    "click_raises": """\
ValueError
    A column that does not exist, a bad argument (a metric name, an
    estimator, ``clip``, the propensities), or bad data (a non-binary click,
    a position below 1 or beyond the propensities, an impression that shows
    a position on several rows, a NaN score, a missing impression id): the
    in-memory report's message, raised on the driver.
TypeError
    A frame of another type, a column name that is not a string, or a column
    of the wrong type.""",
    "click_notes": """\
Each row's gain is computed in its partition (``click * min(1 / theta,
clip)``, one gather of the weights by position); the impressions are
ranked and measured there by the accumulator of the in-memory pipeline,
and one row of partials per impression (and a few numbers per partition:
the checks of its rows) comes back to the driver, which averages them as
in memory.  ``confidence=`` (the in-memory report's bootstrap intervals)
is not offered, as ``ranking_report`` on Spark and Dask offers none.

Bad data raises the in-memory report's error on the driver.  A non-binary
click, a position beyond the propensities and impressions that show a
position twice give its exact message (the values and counts of the whole
log); where rows are bad in several ways,
the first check of the in-memory report that fails is the one raised, with
the message of one partition that fails it.""",
}


def click_doc(func):
    """Substitute the shared paragraphs of :data:`CLICK_DOCS`."""
    return substitute_doc(func, CLICK_DOCS)
