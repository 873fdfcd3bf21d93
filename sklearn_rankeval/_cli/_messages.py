"""What the command line tells the user on stderr: errors and warnings.

Every error is one line, ``rankeval COMMAND: error: ...``, exit status 2.
The library's bad-value errors (:class:`InvalidArgumentError`) carry the
argument they are about: the command names the file's column (and the line
of the first offending value) or its own option instead.  The warnings the
library gives while computing (such as why a metric is NaN) are printed as
``rankeval COMMAND: warning: ...``, each once.
"""

import math
import sys
import warnings
from contextlib import contextmanager

import numpy as np

from .._core import InvalidArgumentError
from ._io import InputFileError

__all__ = ["InputFileError", "UsageError", "file_values", "relayed_warnings",
           "say"]


class UsageError(ValueError):
    """A bad option value found after parsing (unknown metric name, ...)."""


def say(command, kind, message):
    """``rankeval COMMAND: kind: message`` on stderr, on one line."""
    sys.stdout.flush()
    text = " ".join(str(message).split())
    print(f"rankeval {command}: {kind}: {text}", file=sys.stderr)


def _first_row(values, value):
    """The index of the first element of ``values`` equal to ``value``."""
    if values is None or value is None:
        return None
    values = np.asarray(values)
    try:
        if isinstance(value, float) and math.isnan(value):
            hits = np.flatnonzero(np.isnan(values))
        else:
            hits = np.flatnonzero(values == value)
    except TypeError:
        return None
    return int(hits[0]) if hits.size else None


@contextmanager
def file_values(table, columns, values=None, start=0):
    """The library's errors about an argument, as errors of ``table``'s file.

    ``columns`` maps the library's argument names (``"y_true"``,
    ``"y_prob"``) to the :class:`~._io.Column` they were read from, or to
    a list of columns passed in turn (``compare``'s score columns: the first
    holding the offending value is named); ``values`` (``{role: array}``)
    are the rows passed, ``start`` the index of the first in the file, to
    find the line of the offending value.  Other ``ValueError``s name the
    file only.
    """
    values = values or {}
    try:
        yield
    except InvalidArgumentError as exc:
        candidates = columns.get(exc.argument)
        if candidates is None:
            raise InputFileError(table.path, str(exc)) from None
        if not isinstance(candidates, list):
            candidates = [candidates]
        rows = [_first_row(values.get(c.role), exc.value) for c in candidates]
        column, row = next(((c, r) for c, r in zip(candidates, rows)
                            if r is not None), (candidates[0], None))
        where = {} if row is None else table.locate(start + row)
        raise InputFileError(table.path, f"{column.describe()} {exc.problem}",
                             **where) from None
    except (ValueError, TypeError) as exc:
        if isinstance(exc, (InputFileError, UsageError)):
            raise
        raise InputFileError(table.path, str(exc)) from None


#: Warnings that are the library's explanations, printed; others (a third
#: party's deprecations) are left to Python's own filters.
_SHOWN = (UserWarning, RuntimeWarning)
_HIDDEN = (DeprecationWarning, PendingDeprecationWarning, FutureWarning)


@contextmanager
def relayed_warnings(command):
    """Print each distinct warning raised inside the block on stderr, once,
    as ``rankeval COMMAND: warning: ...`` (none if the block fails: the
    error is then the one line)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    seen = dict.fromkeys(
        str(w.message) for w in caught
        if issubclass(w.category, _SHOWN) and not issubclass(w.category, _HIDDEN))
    for message in seen:
        say(command, "warning", message)
