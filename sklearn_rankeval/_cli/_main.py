"""The ``rankeval`` command line (also ``python -m sklearn_rankeval``).

One module per command, each with ``add_parser(subparsers)`` (its options;
``run(args)``, the parser's default ``handler``):

* ``_demo``: ``rankeval demo``, the library end to end on synthetic data
  (``_demo_figures``: every display as a PNG file);
* ``_trec/_command``: ``rankeval trec QRELS RUN``, trec_eval's measures;
* ``_evaluate``: ``rankeval evaluate FILE``, the metrics of a file of
  predictions;
* ``_recommendations``: ``rankeval evaluate-recommendations REC HELD``;
* ``_retrieval``: ``rankeval evaluate-retrieval RUN QRELS``, a retrieval run
  by any harness's rules;
* ``_compare``: ``rankeval compare``, ``compare_rankings``' table;
* ``_counterfactual``: ``rankeval counterfactual LOG``, the naive, IPS and
  SNIPS estimates of a click log side by side.

They read files with ``_io`` (pandas' C parser, pyarrow), show progress with
``_progress`` and say what went wrong with ``_messages``: bad arguments and
bad input files give one line on stderr and exit status 2.
"""

import argparse
import os
import sys

from . import (
    _compare,
    _counterfactual,
    _demo,
    _evaluate,
    _recommendations,
    _retrieval,
)
from ._io import InputFileError
from ._messages import UsageError, say
from ._trec import TrecError
from ._trec import _command as _trec_command

__all__ = ["main"]

EXIT_OK = 0
EXIT_BAD_INPUT = 2

#: The commands, in the order of ``rankeval --help``.
COMMANDS = (_demo, _trec_command, _evaluate, _recommendations, _retrieval,
            _compare, _counterfactual)


def _version():
    from .. import __version__

    return __version__


def build_parser():
    """The ``rankeval`` parser with every command's subparser."""
    parser = argparse.ArgumentParser(
        prog="rankeval",
        description="Grouped ranking metrics for scikit-learn: a demo, "
                    "trec_eval-compatible evaluation, and files of predictions "
                    "and of recommendation lists.")
    parser.add_argument("--version", action="version",
                        version=f"rankeval (sklearn-rankeval) {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


def main(argv=None):
    """Entry point of the ``rankeval`` console script.

    Parameters
    ----------
    argv : list of str, default=None
        The arguments; None: ``sys.argv[1:]``.

    Returns
    -------
    status : int
        0 on success, 2 for bad arguments or a bad input file (after a
        one-line message on stderr).
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, or a usage error already printed
        return exc.code if isinstance(exc.code, int) else EXIT_BAD_INPUT
    try:
        return args.handler(args)
    except (InputFileError, TrecError, UsageError) as exc:
        say(args.command, "error", exc)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # e.g. rankeval trec ... | head
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
