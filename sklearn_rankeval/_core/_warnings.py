"""Warnings attributed to the user's line, whatever the depth of the call.

:func:`warn` walks up the stack to the first frame outside this package and
gives :func:`warnings.warn` that frame's depth as ``stacklevel``, so a warning
points to the caller's code (a script, a test, scikit-learn's scorer
machinery) however many of the package's frames, comprehensions included, lie
between.  No call site counts frames.
"""

import os
import sys
import warnings

__all__ = ["warn"]

_PACKAGE_DIR = os.path.dirname(os.path.dirname(__file__)) + os.sep


def warn(message, category=UserWarning):
    """``warnings.warn(message, category)`` at the first frame outside the package.

    Examples
    --------
    >>> import warnings
    >>> from sklearn_rankeval._core._warnings import warn
    >>> with warnings.catch_warnings(record=True) as record:
    ...     warnings.simplefilter("always")
    ...     warn("look here")
    >>> record[0].filename.endswith("_warnings.py")
    False
    """
    frame = sys._getframe(1)
    level = 2  # stacklevel=2: the caller of warn()
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back
        level += 1
    warnings.warn(message, category, stacklevel=level)
