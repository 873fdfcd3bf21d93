"""Progress of the long commands, on stderr when it is a terminal.

``rankeval evaluate``, ``evaluate-recommendations``, ``compare`` and ``trec``
read their files in chunks; ``compare`` then draws ``--n-resamples``
bootstrap resamples and sign flips.
On a terminal, each shows a tqdm bar on stderr: the rows read, rows per
second and the share of the file where its size is known (a Parquet file's
row count, a text file's bytes; not a ``.gz`` file's), then the resamples
drawn.  Nothing is written to stdout, so piped output stays clean;
``--quiet``, a stderr that is not a terminal, or tqdm not installed
(``pip install "sklearn-rankeval[progress]"``) turn it off.
"""

import pathlib
import sys
from contextlib import contextmanager

from .._stats import resample_progress

__all__ = ["Progress", "add_quiet_option", "progress_of"]


def _tqdm():
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm


def add_quiet_option(parser):
    parser.add_argument(
        "--quiet", action="store_true",
        help="no progress on stderr (shown only when stderr is a terminal and "
             "tqdm is installed)")


class Progress:
    """One command's bars: rows read from files, then resamples drawn.

    A disabled instance does nothing; every method is safe to call.
    """

    def __init__(self, enabled):
        self.tqdm = _tqdm() if enabled else None
        self._bar = None

    def _new_bar(self, **kwargs):
        self.close()
        self._bar = self.tqdm(file=sys.stderr, leave=False,
                              unit_scale=True, **kwargs)
        return self._bar

    def rows(self, path):
        """A callable ``(n_rows, share)`` for the reader of ``path``.

        ``n_rows``: the rows of the chunk just read; ``share``: the part of
        the file read so far, in [0, 1], or None where its size is unknown.
        """
        if self.tqdm is None:
            return None
        bar = self._new_bar(desc=pathlib.Path(path).name, unit=" rows")

        def update(n_rows, share):
            if share is not None:
                bar.set_postfix_str(f"{100 * min(share, 1.0):.0f}% of the file",
                                    refresh=False)
            bar.update(n_rows)

        return update

    @contextmanager
    def resamples(self, total, desc="resamples"):
        """Count the resamples and flips drawn inside the block."""
        if self.tqdm is None:
            yield
            return
        bar = self._new_bar(desc=desc, total=total, unit=" draws")
        token = resample_progress.set(bar.update)
        try:
            yield
        finally:
            resample_progress.reset(token)
            self.close()

    def close(self):
        """Show the final count, then clear the bar."""
        if self._bar is not None:
            self._bar.refresh()
            self._bar.close()
            self._bar = None


def progress_of(args):
    """The :class:`Progress` of a command's arguments."""
    return Progress(not getattr(args, "quiet", False) and sys.stderr.isatty())
