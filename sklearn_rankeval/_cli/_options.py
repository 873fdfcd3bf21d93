"""Option types and checks shared by the commands."""

import argparse

from .._metrics import parse_metrics
from ._messages import UsageError

__all__ = ["check_metrics", "delimiter", "int_at_least", "level", "margin",
           "nonnegative_int", "positive_int"]


def int_at_least(minimum):
    """An argparse type: an integer of at least ``minimum``."""
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") \
                from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{text!r} is less than {minimum}")
        return value

    parse.__name__ = f"integer >= {minimum}"
    return parse


positive_int = int_at_least(1)
nonnegative_int = int_at_least(0)


def level(text):
    """An argparse type: a confidence level strictly between 0 and 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not in (0, 1)")
    return value


level.__name__ = "level in (0, 1)"


def margin(text):
    """An argparse type: a finite number >= 0 (a margin on a metric's scale)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number >= 0")
    return value


margin.__name__ = "margin >= 0"


def delimiter(text):
    """An argparse type: one character; ``\\t`` or ``tab`` for a tab."""
    if text in ("\\t", "tab"):
        return "\t"
    if len(text) != 1:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not one character (a tab: '\\t')")
    return text


delimiter.__name__ = "delimiter"


def check_metrics(names, extra=()):
    """The ``-m`` names, checked by the library's reader of metric names
    before any file is read (``extra``: names the command handles itself)."""
    names = list(dict.fromkeys(names))
    ranking = [name for name in names if name not in extra]
    if ranking:
        try:
            parse_metrics(ranking, argument="-m")
        except (ValueError, TypeError) as exc:
            raise UsageError(str(exc)) from None
    return names
