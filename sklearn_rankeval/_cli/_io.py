"""Reading the input files of the ``rankeval`` command.

Errors name the file, the line (or, in Parquet, the row) and the problem, as
an :class:`InputFileError` that the command line prints without a traceback.
CSV and TSV are read with the ``csv`` module and NumPy only (no pandas);
Parquet needs pyarrow.
"""

import csv
import gzip
import re
from pathlib import Path

import numpy as np

__all__ = [
    "InputFileError",
    "file_columns",
    "iter_columns",
    "iter_table",
    "iter_text_lines",
    "read_table",
]

_PARQUET_SUFFIXES = (".parquet", ".pq")
_TAB_SUFFIXES = (".tsv", ".tab", ".tsv.gz", ".tab.gz")
_CANONICAL_INT = re.compile(r"0|-?[1-9][0-9]{0,17}")


class InputFileError(ValueError):
    """A problem in an input file, located by line (text) or row (Parquet).

    Parameters
    ----------
    path : str or path-like
        The file.
    problem : str
        What is wrong, as a sentence fragment.
    line : int, default=None
        1-based line number in a text file.
    row : int, default=None
        1-based data row in a Parquet file.
    """

    def __init__(self, path, problem, *, line=None, row=None):
        self.path = str(path)
        self.problem = problem
        self.line = line
        self.row = row
        where = self.path
        if line is not None:
            where += f", line {line}"
        elif row is not None:
            where += f", row {row}"
        super().__init__(f"{where}: {problem}")


def _open_binary(path):
    path = Path(path)
    if path.is_dir():
        raise InputFileError(path, "is a directory, not a file")
    try:
        if path.name.endswith(".gz"):
            return gzip.open(path, "rb")
        return open(path, "rb")
    except OSError as exc:
        raise InputFileError(path, f"cannot be read ({exc.strerror or exc})") from None


def iter_text_lines(path):
    """Yield ``(line_number, text)`` for each line of a UTF-8 text file.

    Parameters
    ----------
    path : str or path-like
        The file; a name ending in ``.gz`` is decompressed.

    Yields
    ------
    line_number : int
        1-based.
    text : str
        The line, with its line break (and without a byte order mark).

    Raises
    ------
    InputFileError
        If the file cannot be opened or a line is not UTF-8.
    """
    with _open_binary(path) as f:
        lineno = 0
        try:
            for lineno, raw in enumerate(f, start=1):  # noqa: B007
                try:
                    # utf-8-sig on line 1: drop a byte order mark (Excel's CSV)
                    yield lineno, raw.decode("utf-8-sig" if lineno == 1 else "utf-8")
                except UnicodeDecodeError as exc:
                    raise InputFileError(
                        path, f"not UTF-8 text (byte {exc.start + 1} of the line)",
                        line=lineno,
                    ) from None
        except (OSError, EOFError) as exc:  # e.g. a truncated .gz file
            raise InputFileError(path, f"cannot be read ({exc})",
                                 line=lineno + 1) from None


class FileShare:
    """The share of a text file read so far: the characters of the lines
    read over the file's size in bytes (exact for ASCII); None for a gzipped
    file (its text's size is not known) or one whose size cannot be read."""

    def __init__(self, path):
        self.size = None
        if not str(path).endswith(".gz"):
            try:
                self.size = Path(path).stat().st_size
            except OSError:  # iter_text_lines says why the file cannot be read
                pass
        self.read = 0

    def lines(self, lines):
        """``lines`` (``(line number, text)``), counting their characters."""
        for lineno, text in lines:
            self.read += len(text)
            yield lineno, text

    def __call__(self):
        return None if not self.size else min(self.read / self.size, 1.0)


def reported_lines(path, progress, every=100_000):
    """:func:`iter_text_lines`, telling ``progress(lines, share)`` every
    ``every`` lines and at the end (``progress`` None: nothing)."""
    if progress is None:
        yield from iter_text_lines(path)
        return
    share = FileShare(path)
    pending = 0
    for line in share.lines(iter_text_lines(path)):
        yield line
        pending += 1
        if pending == every:
            progress(pending, share())
            pending = 0
    progress(pending, share())


def _delimiter(path, first_line):
    name = Path(path).name.lower()
    if name.endswith(_TAB_SUFFIXES):
        return "\t"
    if name.endswith((".csv", ".csv.gz")):
        return ","
    return "\t" if "\t" in first_line else ","


def _group_ids(values):
    """Group ids as given; all-canonical integer strings become integers."""
    values = np.asarray(values)
    if values.dtype.kind in "US" and all(map(_CANONICAL_INT.fullmatch, values)):
        return values.astype(np.int64)
    if values.dtype.kind == "O":
        values = values.astype(str)
    return values


def _show(value):
    return repr(value) if isinstance(value, str) else str(value)


def _to_float(path, values, column, locate, *, allow_negative_inf):
    """Column ``values`` as float64, or an error at the first bad value."""
    try:
        out = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        for i, v in enumerate(values):
            try:
                float(v)
            except (TypeError, ValueError):
                what = ("empty" if str(v).strip() == ""
                        else f"{_show(v)} is not a number")
                raise InputFileError(path, f"column {column!r}: {what}",
                                     **locate(i)) from None
        raise  # pragma: no cover - numpy and float() disagree
    bad = np.isnan(out) | (out == np.inf)
    if not allow_negative_inf:
        bad |= out == -np.inf
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InputFileError(
            path, f"column {column!r}: {_show(values[i])} is not a finite number",
            **locate(i),
        )
    return out


def _iter_delimited(path, columns, delimiter, chunk_rows=None):
    """``(values, locate, share)`` of every ``chunk_rows`` rows (None: one chunk).

    ``share``: the part of the file read, from the characters read over the
    file's size in bytes (exact for ASCII); None for a gzipped file.
    """
    share = FileShare(path)
    lines = share.lines(iter_text_lines(path))
    first = None
    for lineno, text in lines:  # the header: first non-blank line
        if text.strip():
            first = (lineno, text)
            break
    if first is None:
        raise InputFileError(path, "empty file (expected a header line and rows)")
    header_line, header_text = first
    delim = delimiter or _delimiter(path, header_text)
    header = next(csv.reader([header_text], delimiter=delim))
    header = [h.strip() for h in header]
    index = {}
    for role, name in columns.items():
        if name not in header:
            raise InputFileError(
                path, f"no column {name!r} (for --{role}); the header has "
                f"{', '.join(repr(h) for h in header)}", line=header_line,
            )
        index[role] = header.index(name)
    need = max(index.values()) + 1
    offset = header_line
    reader = csv.reader((text for _, text in lines), delimiter=delim, strict=True)

    def chunk(values, line_of_row):
        def locate(i):
            return {"line": line_of_row[i]}

        return values, locate, share()

    values = {role: [] for role in columns}
    line_of_row = []
    any_row = False
    try:
        for row in reader:
            lineno = offset + reader.line_num
            if not row or (len(row) == 1 and not row[0].strip()):
                continue  # blank line
            if len(row) < need:
                raise InputFileError(
                    path, f"expected {len(header)} fields, got {len(row)}",
                    line=lineno,
                )
            for role, i in index.items():
                values[role].append(row[i].strip())
            line_of_row.append(lineno)
            if chunk_rows is not None and len(line_of_row) >= chunk_rows:
                any_row = True
                yield chunk(values, line_of_row)
                values = {role: [] for role in columns}
                line_of_row = []
    except csv.Error as exc:
        raise InputFileError(path, f"malformed CSV ({exc})",
                             line=offset + reader.line_num) from None
    if not line_of_row and not any_row:
        raise InputFileError(path, "empty file (a header line but no rows)",
                             line=header_line)
    if line_of_row:
        yield chunk(values, line_of_row)


def _parquet_file(path, columns):
    """The opened ``pyarrow.parquet.ParquetFile``, its columns checked."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as exc:
        # absent, or installed but unusable (e.g. built for another numpy)
        reason = "" if isinstance(exc, ModuleNotFoundError) else f" ({exc})"
        raise InputFileError(
            path, 'reading Parquet needs pyarrow: pip install "sklearn-rankeval'
            f'[parquet]" (or pip install pyarrow){reason}',
        ) from None

    try:
        # pre_buffer=False: Arrow's default read cache keeps every column
        # chunk read until the file is closed (the whole file, in chunked reads)
        file = pq.ParquetFile(path, pre_buffer=False)
    except FileNotFoundError:
        raise InputFileError(path, "cannot be read (No such file or directory)") \
            from None
    except (OSError, pa.ArrowException) as exc:
        raise InputFileError(path, f"not a Parquet file ({exc})") from None
    names = file.schema_arrow.names
    for role, name in columns.items():
        if name not in names:
            raise InputFileError(
                path, f"no column {name!r} (for --{role}); the file has "
                f"{', '.join(repr(h) for h in names)}",
            )
    if file.metadata.num_rows == 0:
        raise InputFileError(path, "empty file (no rows)")
    return file


def _iter_parquet(path, columns, chunk_rows=None):
    """``(values, locate, share)`` of each batch of at most ``chunk_rows`` rows."""
    file = _parquet_file(path, columns)
    n_rows = file.metadata.num_rows
    wanted = list(dict.fromkeys(columns.values()))
    if chunk_rows is None:
        batches = [file.read(columns=wanted)]
    else:
        batches = file.iter_batches(batch_size=chunk_rows, columns=wanted)
    start = 0
    for batch in batches:
        values = {}
        for role, name in columns.items():
            col = batch.column(name)
            if col.null_count:
                mask = np.asarray(col.is_null().to_numpy(zero_copy_only=False))
                raise InputFileError(path, f"column {name!r}: missing value",
                                     row=start + int(np.flatnonzero(mask)[0]) + 1)
            values[role] = col.to_numpy(zero_copy_only=False)

        def locate(i, start=start):
            return {"row": start + i + 1}

        start += batch.num_rows
        yield values, locate, start / n_rows


def read_table(path, *, group, label, score, delimiter=None):
    """Read the group, label and score columns of a CSV, TSV or Parquet file.

    Parameters
    ----------
    path : str or path-like
        ``.parquet`` / ``.pq``: Parquet (needs pyarrow).  ``.tsv`` / ``.tab``:
        tab-separated; ``.csv``: comma-separated; other names: tab-separated
        if the header line has a tab, else comma-separated.  Text files may
        be gzipped (``.gz``).  Text files start with a header line.
    group, label, score : str
        Column names: the query / user id, the relevance (``>= 0``), the
        predicted score.
    delimiter : str, default=None
        Field separator of a text file; None: from the file name.

    Returns
    -------
    groups : ndarray of shape (n_rows,)
        Integers if every id is an integer written plainly, else strings.
    y_true : ndarray of shape (n_rows,), float
    y_score : ndarray of shape (n_rows,), float
        ``-inf`` is kept (an item that was not retrieved).

    Raises
    ------
    InputFileError
        For an unreadable or empty file, a missing column, a missing,
        non-numeric, negative or non-finite value, with the line (row).
    """
    return next(iter_table(path, group=group, label=label, score=score,
                           delimiter=delimiter, chunk_rows=None))


def iter_table(path, *, group, label, score, delimiter=None, chunk_rows=1_000_000,
               progress=None):
    """:func:`read_table` chunk by chunk: memory bounded by ``chunk_rows``.

    Yields ``(groups, y_true, y_score)`` of every ``chunk_rows`` rows (None:
    the whole file at once), checked as :func:`read_table` checks them, with
    the line (row) of a bad value counted in the whole file.  Integer ids are
    recognised from the first chunk: a later chunk of a text file with an id
    that is not an integer is an error.  ``progress``: None, or a callable
    told ``(rows of the chunk, share of the file read or None)`` after each
    chunk (the command line's progress bar).
    """
    columns = {"group": group, "label": label, "score": score}
    if Path(path).name.lower().endswith(_PARQUET_SUFFIXES):
        chunks = _iter_parquet(path, columns, chunk_rows)
    else:
        chunks = _iter_delimited(path, columns, delimiter, chunk_rows)
    int_ids = None
    for values, locate, share in chunks:
        groups, y_true, y_score = _check_chunk(path, values, locate, columns)
        if progress is not None:
            progress(len(y_true), share)
        if int_ids is None:
            int_ids = groups.dtype.kind in "iu"
        elif int_ids and groups.dtype.kind not in "iu":
            bad = next(i for i, g in enumerate(values["group"])
                       if not (isinstance(g, (int, np.integer))
                               or _CANONICAL_INT.fullmatch(str(g))))
            raise InputFileError(
                path, f"column {group!r}: group id {_show(values['group'][bad])} "
                f"is not an integer, unlike the ids before it", **locate(bad))
        yield groups, y_true, y_score


def _first_missing(ids):
    """The index of the first missing id (None, empty, NaN), or None."""
    if isinstance(ids, list) or ids.dtype.kind in "OUS":
        missing = (i for i, g in enumerate(ids) if g is None or str(g) == "")
    else:
        missing = iter(np.flatnonzero(np.isnan(ids)) if ids.dtype.kind == "f"
                       else ())
    return next(missing, None)


def _check_chunk(path, values, locate, columns):
    group, label, score = columns["group"], columns["label"], columns["score"]
    groups = values["group"]
    first = _first_missing(groups)
    if first is not None:
        raise InputFileError(path, f"column {group!r}: missing group id",
                             **locate(int(first)))
    y_true = _to_float(path, values["label"], label, locate,
                       allow_negative_inf=False)
    negative = np.flatnonzero(y_true < 0)
    if negative.size:
        i = int(negative[0])
        raise InputFileError(
            path, f"column {label!r}: relevance {_show(values['label'][i])} is "
            f"negative (labels must be >= 0)", **locate(i),
        )
    y_score = _to_float(path, values["score"], score, locate,
                        allow_negative_inf=True)
    return _group_ids(groups), y_true, y_score


def file_columns(path, delimiter=None):
    """The column names of a CSV, TSV or Parquet file (its header or schema)."""
    if Path(path).name.lower().endswith(_PARQUET_SUFFIXES):
        return list(_parquet_file(path, {}).schema_arrow.names)
    for _, text in iter_text_lines(path):  # the header: first non-blank line
        if text.strip():
            delim = delimiter or _delimiter(path, text)
            return [h.strip() for h in next(csv.reader([text], delimiter=delim))]
    raise InputFileError(path, "empty file (expected a header line and rows)")


def iter_columns(path, columns, *, numbers=None, delimiter=None,
                 chunk_rows=1_000_000, progress=None):
    """Id and number columns of a CSV, TSV or Parquet file, chunk by chunk.

    ``columns`` maps a role (the option that names the column, e.g.
    ``"user-col"``) to a column name; a missing column is an error naming
    the column and the option.  ``numbers`` maps the roles read as numbers
    to whether ``-inf`` is allowed (NaN, ``+inf`` and text are errors with
    their line or row); the other roles are ids (a missing id is an error;
    integers written plainly become integers, as :func:`read_table`'s group
    ids).  Yields ``{role: array}`` of every ``chunk_rows`` rows; calls
    ``progress(rows, share)`` after each chunk (see :func:`iter_table`).
    """
    numbers = numbers or {}
    if Path(path).name.lower().endswith(_PARQUET_SUFFIXES):
        chunks = _iter_parquet(path, columns, chunk_rows)
    else:
        chunks = _iter_delimited(path, columns, delimiter, chunk_rows)
    for values, locate, share in chunks:
        out = {}
        for role, name in columns.items():
            column = values[role]
            if role in numbers:
                out[role] = _to_float(path, column, name, locate,
                                      allow_negative_inf=numbers[role])
                continue
            first = _first_missing(column)
            if first is not None:
                raise InputFileError(path, f"column {name!r}: missing id",
                                     **locate(int(first)))
            out[role] = _group_ids(column)
        if progress is not None:
            progress(len(next(iter(out.values()))), share)
        yield out
