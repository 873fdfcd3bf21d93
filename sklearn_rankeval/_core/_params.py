"""Declared parameters: each option's constraint written once, one error kind.

As scikit-learn declares the parameters of its functions
(``sklearn.utils._param_validation``: ``Interval``, ``StrOptions``), an
option of this package is declared by its constraints, and
:func:`declared` makes its check.  Every violated constraint raises
:class:`InvalidParameterError`, which is both a ``ValueError`` and a
``TypeError`` (as scikit-learn's own ``InvalidParameterError``, of which it
is a subclass): a ``k`` of ``"10"`` and a ``k`` of ``0`` are one kind of
mistake, caught by either ``except``.  The message names the parameter,
what it must be and the value given; the command line rephrases it by
argument (:class:`~._validation.InvalidArgumentError`).
"""

import math
from numbers import Integral, Real
from typing import NamedTuple

import numpy as np

from ._compat import SklearnInvalidParameterError as _SklearnInvalidParameterError
from ._validation import InvalidArgumentError

__all__ = [
    "UNDEFINED_OPTIONS",
    "Interval",
    "InvalidParameterError",
    "Options",
    "check_alpha",
    "check_average",
    "check_k",
    "check_n_points",
    "check_negative_sampling_rate",
    "check_option",
    "check_positive_int",
    "check_undefined",
    "declared",
]


class InvalidParameterError(InvalidArgumentError, _SklearnInvalidParameterError):
    """A parameter outside its declared constraints.

    Both a ``ValueError`` and a ``TypeError`` (a subclass of
    scikit-learn's ``InvalidParameterError``), with the parameter's name in
    ``argument`` and what is wrong in ``problem``, as every
    :class:`~._validation.InvalidArgumentError`.
    """

    def __reduce__(self):  # picklable (Dask and Spark workers raise it)
        return _rebuild, (self.argument, self.problem, self.value, str(self))


def _rebuild(argument, problem, value, message):
    return InvalidParameterError(argument, problem, value=value, message=message)


class Interval(NamedTuple):
    """Numbers of ``kind`` (``Integral`` or ``Real``) between ``left`` and
    ``right`` (None: unbounded), ``closed`` one of ``"left"``, ``"right"``,
    ``"both"``, ``"neither"``.  Booleans are never numbers here, NaN never
    in an interval."""

    kind: type
    left: object = None
    right: object = None
    closed: str = "both"

    def holds(self, value):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, self.kind):
            return False
        if isinstance(value, Real) and math.isnan(value):
            return False
        lo_ok = (self.left is None or value > self.left
                 or (value == self.left and self.closed in ("left", "both")))
        hi_ok = (self.right is None or value < self.right
                 or (value == self.right and self.closed in ("right", "both")))
        return lo_ok and hi_ok

    def text(self):
        kind = "an integer" if self.kind is Integral else "a number"
        lo = "[" if self.closed in ("left", "both") else "("
        hi = "]" if self.closed in ("right", "both") else ")"
        if self.right is None and self.left is not None:
            op = ">=" if lo == "[" else ">"
            return f"{kind} {op} {self.left:g}"
        if self.left is None and self.right is not None:
            op = "<=" if hi == "]" else "<"
            return f"{kind} {op} {self.right:g}"
        if self.left is None:
            return kind
        return f"{kind} in {lo}{self.left:g}, {self.right:g}{hi}"


class Options(NamedTuple):
    """One of the strings ``values`` (exact, case included)."""

    values: tuple

    def holds(self, value):
        return isinstance(value, str) and value in self.values

    def text(self):
        return "one of " + ", ".join(repr(v) for v in self.values)


def declared(name, *constraints, text=None, convert=None):
    """The check of the parameter ``name``: ``check(value) -> value``.

    ``constraints``: :class:`Interval`, :class:`Options`, or None (None is
    allowed); the value must satisfy one.  ``text``: what the parameter must
    be, in the message (by default, the constraints' own words);
    ``convert``: applied to an accepted value that is not None (``int``,
    ``float``).  A value outside every constraint raises
    :class:`InvalidParameterError`: ``"<name> must be <text>, got <value>."``.

    Examples
    --------
    >>> from numbers import Integral
    >>> from sklearn_rankeval._core._params import Interval, declared
    >>> check_k = declared("k", Interval(Integral, 1, None), None, convert=int)
    >>> check_k(5), check_k(None)
    (5, None)
    >>> try:
    ...     check_k(0)
    ... except ValueError as exc:  # also a TypeError
    ...     print(exc)
    k must be an integer >= 1 or None, got 0.
    """
    allows_none = None in constraints
    rules = [c for c in constraints if c is not None]
    if text is None:
        text = " or ".join([c.text() for c in rules] + (["None"] if allows_none
                                                           else []))

    def check(value):
        if value is None:
            if allows_none:
                return None
        elif any(rule.holds(value) for rule in rules):
            return (value if convert is None or isinstance(value, str)
                    else convert(value))
        shown = value.item() if isinstance(value, np.generic) else value
        raise InvalidParameterError(name, f"must be {text}, got {shown!r}.",
                                    value=shown)

    check.__name__ = f"check_{name}"
    check.__doc__ = f"``{name}``: {text} (:func:`declared`)."
    check.text = text
    return check


# ---------------------------------------------------------------------------
# the options shared by the metric functions, declared once
# ---------------------------------------------------------------------------
_POSITIVE_INT = Interval(Integral, 1, None)

#: ``k``: the cutoff, a positive integer (None: the whole ranking).
check_k_or_none = declared("k", _POSITIVE_INT, None, convert=int,
                           text="a positive integer or None")
_check_k_required = declared("k", _POSITIVE_INT, convert=int,
                             text="a positive integer")


def check_k(k, *, allow_none=True):
    """``k`` as a Python int (or None where allowed): a positive integer."""
    return (check_k_or_none if allow_none else _check_k_required)(k)


def check_positive_int(value, name, *, allow_none=True):
    """``value`` as a Python int (or None where allowed): a positive integer;
    the messages name the parameter ``name``."""
    return declared(name, _POSITIVE_INT, *((None,) if allow_none else ()),
                    convert=int, text="a positive integer"
                    + (" or None" if allow_none else ""))(value)


#: ``n_points``: the recall levels of interpolated AP, >= 2 (None: all points).
check_n_points = declared("n_points", Interval(Integral, 2, None), None,
                          convert=int, text="an integer >= 2 or None")
#: ``alpha``: F-alpha's weight of precision, in [0, 1].
check_alpha = declared("alpha", Interval(Real, 0, 1, "both"), convert=float,
                       text="a real number in [0, 1]")
#: ``negative_sampling_rate``: the share of negatives kept, in (0, 1].
check_negative_sampling_rate = declared(
    "negative_sampling_rate", Interval(Real, 0, 1, "right"), None, convert=float,
    text="a number in (0, 1] (the share of negatives kept) or None")

#: The string values of ``undefined=``: leave undefined groups out and say
#: how many (the default of every group metric, as scikit-learn's
#: ``zero_division="warn"``), leave them out silently, or raise.
UNDEFINED_OPTIONS = ("warn", "skip", "raise")


def _finite_float(value):
    return float(value) if not isinstance(value, str) else value


#: ``undefined``: ``"warn"``, ``"skip"``, ``"raise"`` or a finite number
#: (strict: any other string is an error, on every path).
check_undefined = declared(
    "undefined", Options(UNDEFINED_OPTIONS),
    Interval(Real, -math.inf, math.inf, "neither"), convert=_finite_float,
    text="'warn', 'skip', 'raise' or a finite number")

def check_option(value, name, options):
    """``value`` is one of the strings ``options``."""
    return declared(name, Options(tuple(options)))(value)


def check_average(average, options):
    """``average`` is None or one of ``options`` (strings)."""
    return declared("average", Options(tuple(options)), None)(average)
