"""Global configuration: ``get_config``, ``set_config``, ``config_context``.

As scikit-learn's: the settings are thread-local (a thread starts from the
defaults), ``config_context`` restores the previous values on exit.
"""

import threading
from contextlib import contextmanager
from numbers import Real

import numpy as np

__all__ = ["config_context", "get_config", "set_config"]

#: Defaults of every thread.
_DEFAULTS = {"working_memory": 64}

_local = threading.local()


def _config():
    if not hasattr(_local, "config"):
        _local.config = dict(_DEFAULTS)
    return _local.config


def _check_working_memory(value):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, Real):
        raise TypeError(
            f"working_memory must be a positive number of MiB, got {value!r} of "
            f"type {type(value).__name__}."
        )
    if not (np.isfinite(value) and value > 0):
        raise ValueError(
            f"working_memory must be a positive finite number of MiB, got {value!r}."
        )
    return value.item() if isinstance(value, np.generic) else value


def get_config():
    """The current values of the settings of ``set_config``.

    Read more in the :ref:`User Guide <memory>`.

    Returns
    -------
    config : dict
        Keys are the parameter names of :func:`set_config`.

    See Also
    --------
    config_context : Settings for a block of code.
    set_config : Change the settings.

    Examples
    --------
    >>> import sklearn_rankeval
    >>> sklearn_rankeval.get_config()["working_memory"]
    64
    """
    return dict(_config())


def set_config(working_memory=None):
    """Set the settings of the metric functions (in the current thread).

    Read more in the :ref:`User Guide <memory>`.

    Parameters
    ----------
    working_memory : float, default=None
        Size in MiB of the temporary arrays of one chunk of groups (64 when
        never set).  The grouped metrics, :func:`ranking_report`,
        :func:`per_group_scores` and :class:`RankingAccumulator` rank the
        groups in chunks of whole groups of about ``working_memory`` MiB
        (about 64 bytes a row), so that their extra memory is bounded by the
        chunk instead of growing with the input; the values do not depend on
        it.  A group is never split: a chunk holds at least one group.  None
        leaves the setting unchanged.

    See Also
    --------
    config_context : Settings for a block of code.
    get_config : The current settings.

    Examples
    --------
    >>> import sklearn_rankeval
    >>> sklearn_rankeval.set_config(working_memory=256)
    >>> sklearn_rankeval.get_config()["working_memory"]
    256
    >>> sklearn_rankeval.set_config(working_memory=64)
    """
    if working_memory is not None:
        _config()["working_memory"] = _check_working_memory(working_memory)


@contextmanager
def config_context(*, working_memory=None):
    """Settings for a block of code, restored on exit (in the current thread).

    Read more in the :ref:`User Guide <memory>`.

    Parameters
    ----------
    working_memory : float, default=None
        As in :func:`set_config`: size in MiB of the temporary arrays of one
        chunk of groups.  None leaves the setting unchanged.

    Yields
    ------
    None

    See Also
    --------
    set_config : Change the settings.
    get_config : The current settings.

    Examples
    --------
    >>> from sklearn_rankeval import config_context, gauc_score
    >>> y_true = [1, 0, 0, 0, 1, 1]
    >>> y_score = [0.9, 0.2, 0.4, 0.8, 0.8, 0.1]
    >>> groups = [1, 1, 1, 2, 2, 2]
    >>> # a chunk of about one byte: one group per chunk, the same value
    >>> # group 1 ranks its click first (AUC 1); in group 2 one click ties
    >>> # with the non-click and one is below it (AUC 1/4)
    >>> with config_context(working_memory=1e-6):
    ...     round(gauc_score(y_true, y_score, groups=groups), 4)
    0.625
    >>> round(gauc_score(y_true, y_score, groups=groups), 4)
    0.625
    """
    old = get_config()
    set_config(working_memory=working_memory)
    try:
        yield
    finally:
        _config().update(old)
