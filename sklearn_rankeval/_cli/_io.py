"""Reading the input files of the ``rankeval`` command.

CSV and TSV files (gzipped or not) are read by pandas' C parser, chunk by
chunk; Parquet files by pyarrow, batch by batch.  Both give, for each chunk,
the columns the command asked for: ids as pandas infers them (integers when
every id of the file is an integer, else text) and numbers as float64.

What this module checks is the file's form, before any value reaches the
library: the columns exist, every row has as many fields as the header, no
value is missing, a number column holds numbers.  Whether a number is a valid
label, score or probability is the library's rule (``_core``), reported by
the command with the file's column and line.

Errors are :class:`InputFileError`: the file, the line (text) or row
(Parquet), and the problem, printed by the command line on one line.
Locating a line is exact (the ``csv`` module reads the file again up to it),
and done only on the way to an error.
"""

import csv
import gzip
import io
from pathlib import Path
from typing import NamedTuple

import numpy as np

__all__ = [
    "Column",
    "InputFileError",
    "file_columns",
    "iter_text_lines",
    "open_table",
    "read_columns",
    "read_svmlight",
    "reported_lines",
]

_PARQUET_SUFFIXES = (".parquet", ".pq")
#: names read as svmlight / LETOR files by ``--input-format auto``
SVMLIGHT_SUFFIXES = (".svm", ".svmlight", ".libsvm", ".letor", ".svm.gz",
                     ".svmlight.gz", ".libsvm.gz", ".letor.gz")
_TAB_SUFFIXES = (".tsv", ".tab", ".tsv.gz", ".tab.gz")
#: bytes pandas asks for at a time; the progress moves at least this often
_BLOCK = 1 << 18
#: Parquet rows converted at a time (the progress moves once per batch)
_PARQUET_BATCH = 1 << 16


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


class Column(NamedTuple):
    """A column a command reads: ``role`` is the option that names it
    (``"score"`` for ``--score``), ``name`` its header in the file, and
    ``number`` whether it holds numbers (float64) rather than ids."""

    role: str
    name: str
    number: bool = False

    def describe(self):
        """``column 'p' (--score)``, as messages name it."""
        return f"column {self.name!r} (--{self.role})"


# ---------------------------------------------------------------------------
# opening files
# ---------------------------------------------------------------------------
def _is_parquet(path):
    return Path(path).name.lower().endswith(_PARQUET_SUFFIXES)


def _open_raw(path):
    path = Path(path)
    if path.is_dir():
        raise InputFileError(path, "is a directory, not a file")
    try:
        return open(path, "rb")
    except OSError as exc:
        raise InputFileError(path, f"cannot be read ({exc.strerror or exc})") from None


def _open_binary(path):
    """The file's bytes (decompressed for ``.gz``) and the raw file under them."""
    raw = _open_raw(path)
    if str(path).endswith(".gz"):
        return gzip.GzipFile(fileobj=raw, mode="rb"), raw
    return raw, raw


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
    stream, raw = _open_binary(path)
    with raw, stream:
        lineno = 0
        try:
            for lineno, line in enumerate(stream, start=1):  # noqa: B007
                try:
                    # utf-8-sig on line 1: drop a byte order mark (Excel's CSV)
                    yield lineno, line.decode("utf-8-sig" if lineno == 1 else "utf-8")
                except UnicodeDecodeError as exc:
                    raise InputFileError(
                        path, f"not UTF-8 text (byte {exc.start + 1} of the line)",
                        line=lineno,
                    ) from None
        except (OSError, EOFError) as exc:  # e.g. a truncated .gz file
            raise InputFileError(path, f"cannot be read ({exc})",
                                 line=lineno + 1) from None


def _file_size(path):
    try:
        return Path(path).stat().st_size
    except OSError:
        return None


def reported_lines(path, progress, every=100_000):
    """:func:`iter_text_lines`, telling ``progress(lines, share)`` every
    ``every`` lines and at the end (``progress`` None: nothing).  ``share``:
    the characters read over the file's size (None for a ``.gz`` file)."""
    if progress is None:
        yield from iter_text_lines(path)
        return
    size = None if str(path).endswith(".gz") else _file_size(path)
    read = pending = 0
    for line in iter_text_lines(path):
        yield line
        read += len(line[1])
        pending += 1
        if pending == every:
            progress(pending, min(read / size, 1.0) if size else None)
            pending = 0
    progress(pending, min(read / size, 1.0) if size else None)


def _delimiter(path, first_line):
    name = Path(path).name.lower()
    if name.endswith(_TAB_SUFFIXES):
        return "\t"
    if name.endswith((".csv", ".csv.gz")):
        return ","
    return "\t" if "\t" in first_line else ","


def _header(path, delimiter):
    """``(line number, names, delimiter)`` of the first non-blank line."""
    for lineno, text in iter_text_lines(path):
        if text.strip():
            delim = delimiter or _delimiter(path, text)
            names = next(csv.reader([text], delimiter=delim))
            return lineno, [name.strip() for name in names], delim
    raise InputFileError(path, "empty file (expected a header line and rows)")


def file_columns(path, delimiter=None):
    """The column names of a CSV, TSV or Parquet file (its header or schema)."""
    if _is_parquet(path):
        return list(_parquet_file(path).schema_arrow.names)
    return _header(path, delimiter)[1]


def _positions(path, names, columns, where):
    """Each column's position in ``names``; a missing one is an error."""
    positions = []
    for column in columns:
        if column.name not in names:
            hint = ""
            if where == "header" and len(names) == 1:
                # one column: another delimiter than the one read with?
                found = [name for sep, name in (("\t", "tab"), (";", "';'"),
                                                ("|", "'|'"), (",", "','"))
                         if sep in names[0]]
                if found:
                    sep = {"tab": "'\\t'"}.get(found[0], found[0])
                    hint = (f" (one column: is the file {found[0]}-separated? "
                            f"pass --delimiter {sep})")
            raise InputFileError(
                path, f"no column {column.name!r} (for --{column.role}); the "
                f"{where} has {', '.join(repr(n) for n in names)}{hint}",
                line=1 if where == "header" else None)
        positions.append(names.index(column.name))
    return positions


# ---------------------------------------------------------------------------
# checking one chunk's values
# ---------------------------------------------------------------------------
def _check_values(table, column, values, start):
    """A chunk's column as an array: float64 numbers, or ids as read."""
    import pandas as pd

    series = pd.Series(values, copy=False)
    if column.number and series.dtype.kind not in "biuf":
        numbers = pd.to_numeric(series, errors="coerce")
        bad = np.flatnonzero(numbers.isna().to_numpy() & series.notna().to_numpy())
        if bad.size:
            row = start + int(bad[0])
            text = table.field_text(row, column, series.iloc[int(bad[0])])
            raise InputFileError(table.path, f"{column.describe()}: {text!r} is "
                                 "not a number", **table.locate(row))
        series = numbers
    missing = np.flatnonzero(series.isna().to_numpy())
    if missing.size:
        row = start + int(missing[0])
        text = table.field_text(row, column, None)
        what = table.missing if text is None or not text.strip() else f"{text!r}"
        raise InputFileError(table.path, f"{column.describe()}: missing value "
                             f"({what})", **table.locate(row))
    if column.number:
        return series.to_numpy(dtype=np.float64)
    if series.dtype.kind in "biuf":
        return series.to_numpy()
    return series.to_numpy(dtype=object)


# ---------------------------------------------------------------------------
# CSV and TSV: pandas' C parser, fed by a stream that counts the fields
# ---------------------------------------------------------------------------
class _FieldCounter:
    """The bytes pandas reads, checked line by line as they pass.

    Counts the delimiters of every line after the header (a line of
    whitespace only is skipped, as pandas skips it): a line with more or
    fewer fields than the header is remembered (the first one), and the
    rows seen are told to ``progress`` after each block.  A quote character
    anywhere makes the count by lines inexact (a quoted field may hold a
    delimiter or a line break); the table then checks the fields with the
    ``csv`` module.
    """

    def __init__(self, stream, raw, *, delimiter, n_fields, header_line,
                 size, progress):
        self.stream, self.raw = stream, raw
        self.delim = ord(delimiter)
        self.n_fields = n_fields
        self.lines = 0  # complete lines seen
        self.header_line = header_line
        self.rows = 0
        self.carry = b""
        self.quoted = False
        self.bad = None  # (line, fields) of the first line with a wrong count
        self.size = size
        self.progress = progress

    def read(self, n=-1):
        block = self.stream.read(_BLOCK if n is None or n < 0 else n)
        before = self.rows
        if not self.quoted and b'"' in block:
            self.quoted = True
        if self.quoted:  # rows: the line breaks, near enough for the progress
            self.rows += block.count(b"\n")
        else:
            self._count(block)
        if self.progress is not None:
            share = min(self.raw.tell() / self.size, 1.0) if self.size else None
            self.progress(self.rows - before, share)
        return block

    def _count(self, block):
        data = self.carry + block
        if not block:  # end of file: a last line without a line break
            self.carry = b""
            if not data.strip():
                return
            data += b"\n"
        end = data.rfind(b"\n") + 1
        self.carry = data[end:]
        if not end:
            return
        arr = np.frombuffer(data, dtype=np.uint8, count=end)
        breaks = np.flatnonzero(arr == 10)
        delims = np.flatnonzero(arr == self.delim)
        per_line = np.diff(np.searchsorted(delims, breaks), prepend=0)
        first = self.lines + 1  # the line number of breaks[0]
        self.lines += breaks.size
        skip = max(self.header_line - first + 1, 0)  # the header and above
        rows = breaks.size - min(skip, breaks.size)
        for i in np.flatnonzero(per_line != self.n_fields - 1).tolist():
            if i < skip:
                continue
            if not data[breaks[i - 1] + 1 if i else 0:breaks[i]].strip():
                rows -= 1  # a blank line, skipped as pandas skips it
            elif self.bad is None:
                self.bad = (first + i, int(per_line[i]) + 1)
        self.rows += rows


class _CsvTable:
    """A CSV or TSV file read in chunks by pandas' C parser."""

    #: what a missing value is in messages
    missing = "empty"

    def __init__(self, path, columns, *, delimiter=None, chunk_rows=1_000_000,
                 progress=None):
        self.path = str(path)
        self.columns = list(columns)
        self.header_line, names, self.delimiter = _header(path, delimiter)
        self.n_fields = len(names)
        self.positions = _positions(path, names, self.columns, "header")
        self.chunk_rows = chunk_rows
        self.progress = progress

    # -- errors ---------------------------------------------------------------
    def _records(self):
        """``(line, fields)`` of every data row (exact: the ``csv`` module)."""
        stream, raw = _open_binary(self.path)
        with raw, stream:
            text = io.TextIOWrapper(stream, encoding="utf-8-sig", newline="")
            reader = csv.reader(text, delimiter=self.delimiter, strict=True)
            header = False
            while True:
                first = reader.line_num + 1  # where the record starts
                try:
                    fields = next(reader, None)
                except csv.Error as exc:
                    raise InputFileError(self.path, f"malformed CSV ({exc})",
                                         line=first) from None
                if fields is None:
                    return
                if not fields or (len(fields) == 1 and not fields[0].strip()):
                    continue
                if header:
                    yield reader.line_num, fields
                header = True

    def _record(self, row):
        for i, record in enumerate(self._records()):
            if i == row:
                return record
        return None, None

    def locate(self, row):
        """``{"line": n}`` of the 0-based data row ``row``."""
        line, _ = self._record(row)
        return {"line": line}

    def field_text(self, row, column, default):
        """The text of ``column`` in data row ``row`` (None if absent)."""
        _, fields = self._record(row)
        position = self.positions[self.columns.index(column)]
        if fields is None or position >= len(fields):
            return default
        return fields[position]

    def _check_fields(self, counter):
        """The first row whose field count differs from the header's."""
        if counter.bad is not None:
            line, got = counter.bad
        elif counter.quoted:  # count with the csv module instead
            line, got = next(((line, len(fields)) for line, fields in self._records()
                              if len(fields) != self.n_fields), (None, None))
            if line is None:
                return
        else:
            return
        raise InputFileError(self.path, f"expected {self.n_fields} fields, got "
                             f"{got}", line=line)

    # -- reading --------------------------------------------------------------
    def chunks(self):
        """Yield ``(start, {role: array})`` of every ``chunk_rows`` rows."""
        import pandas as pd

        stream, raw = _open_binary(self.path)
        counter = _FieldCounter(
            stream, raw, delimiter=self.delimiter, n_fields=self.n_fields,
            header_line=self.header_line,
            size=_file_size(self.path), progress=self.progress)
        used = sorted(set(self.positions))
        start = 0
        with raw, stream:
            try:
                for frame in pd.read_csv(
                        counter, sep=self.delimiter, header=0, usecols=used,
                        engine="c", encoding="utf-8", chunksize=self.chunk_rows):
                    if counter.bad is not None:
                        self._check_fields(counter)
                    values = {
                        c.role: _check_values(
                            self, c, frame.iloc[:, used.index(p)].to_numpy(), start)
                        for c, p in zip(self.columns, self.positions)}
                    yield start, values
                    start += len(frame)
            except (pd.errors.ParserError, pd.errors.EmptyDataError,
                    UnicodeDecodeError, OSError, EOFError) as exc:
                self._check_fields(counter)
                for _ in iter_text_lines(self.path):  # bytes that are not UTF-8
                    pass
                for _ in self._records():  # a malformed quoted field
                    pass
                raise InputFileError(self.path, f"cannot be read ({exc})") from None
        self._check_fields(counter)
        if start == 0:
            raise InputFileError(self.path, "empty file (a header line but no "
                                 "rows)", line=self.header_line)

    def text_column(self, column):
        """``column`` of every row as text (ids written as in the file)."""
        import pandas as pd

        frame = pd.read_csv(self.path, sep=self.delimiter, header=0,
                            usecols=[self.positions[self.columns.index(column)]],
                            dtype=str, engine="c", encoding="utf-8",
                            keep_default_na=False)
        return frame.iloc[:, 0].to_numpy(dtype=object)


# ---------------------------------------------------------------------------
# Parquet: pyarrow, batch by batch
# ---------------------------------------------------------------------------
def _parquet_file(path):
    """The opened ``pyarrow.parquet.ParquetFile``."""
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
    if Path(path).is_dir():
        raise InputFileError(path, "is a directory, not a file")
    try:
        # pre_buffer=False: Arrow's default read cache keeps every column
        # chunk read until the file is closed (the whole file, in chunked reads)
        return pq.ParquetFile(path, pre_buffer=False)
    except FileNotFoundError:
        raise InputFileError(path, "cannot be read (No such file or directory)") \
            from None
    except (OSError, pa.ArrowException) as exc:
        raise InputFileError(path, f"not a Parquet file ({exc})") from None


class _ParquetTable:
    """A Parquet file read in batches by pyarrow."""

    missing = "null"

    def __init__(self, path, columns, *, delimiter=None, chunk_rows=1_000_000,
                 progress=None):
        del delimiter
        self.path = str(path)
        self.columns = list(columns)
        self.file = _parquet_file(path)
        self.names = self.file.schema_arrow.names
        _positions(path, self.names, self.columns, "file")
        self.n_rows = self.file.metadata.num_rows
        if self.n_rows == 0:
            raise InputFileError(path, "empty file (no rows)")
        self.chunk_rows = chunk_rows
        self.progress = progress

    def locate(self, row):
        return {"row": row + 1}

    def field_text(self, row, column, default):
        return default

    def _batches(self):
        wanted = list(dict.fromkeys(c.name for c in self.columns))
        done = 0
        for batch in self.file.iter_batches(
                batch_size=min(self.chunk_rows, _PARQUET_BATCH), columns=wanted):
            done += batch.num_rows
            if self.progress is not None:
                self.progress(batch.num_rows, done / self.n_rows)
            yield batch

    def chunks(self):
        import pyarrow as pa

        start, pending, size = 0, [], 0
        batches = self._batches()
        while True:
            batch = next(batches, None)
            if batch is not None:
                pending.append(batch)
                size += batch.num_rows
                if size < self.chunk_rows:
                    continue
            if not pending:
                return
            table = pa.Table.from_batches(pending)
            values = {}
            for column in self.columns:
                values[column.role] = _check_values(
                    self, column, _arrow_values(table.column(column.name)), start)
            yield start, values
            start += table.num_rows
            pending, size = [], 0
            if batch is None:
                return

    def text_column(self, column):
        import pyarrow as pa

        values = self.file.read(columns=[column.name]).column(0)
        return values.cast(pa.string()).to_numpy(zero_copy_only=False)


def _arrow_values(array):
    """An Arrow column as NumPy (nulls as None or NaN, caught as missing)."""
    import pyarrow as pa

    if pa.types.is_dictionary(array.type):
        array = array.cast(array.type.value_type)
    return array.to_numpy(zero_copy_only=False)


# ---------------------------------------------------------------------------
# what the commands call
# ---------------------------------------------------------------------------
def open_table(path, columns, *, delimiter=None, chunk_rows=1_000_000,
               progress=None):
    """The table of a CSV, TSV or Parquet file, for ``columns``.

    Parameters
    ----------
    path : str or path-like
        ``.parquet`` / ``.pq``: Parquet (needs pyarrow).  ``.tsv`` / ``.tab``:
        tab-separated; ``.csv``: comma-separated; other names: tab-separated
        if the header line has a tab, else comma-separated.  Text files may
        be gzipped (``.gz``) and start with a header line.
    columns : list of Column
        The columns to read; a missing one is an error naming its option.
    delimiter : str, default=None
        Field separator of a text file; None: from the file name.
    chunk_rows : int, default=1_000_000
        Rows per chunk.
    progress : callable, default=None
        Told ``(rows read, share of the file or None)`` as the file is read:
        every 256 KiB of a text file, every 65,536 rows of a Parquet file.

    Returns
    -------
    table
        ``table.chunks()`` yields ``(start, {role: array})``: the 0-based
        index of the chunk's first row and its columns (numbers as float64,
        ids as read); ``table.locate(row)`` gives the line (row) of a row for
        :class:`InputFileError`; ``table.text_column(column)`` reads one
        column again as text.
    """
    kind = _ParquetTable if _is_parquet(path) else _CsvTable
    return kind(path, columns, delimiter=delimiter, chunk_rows=chunk_rows,
                progress=progress)


def _kind(values):
    return "number" if values.dtype.kind in "biuf" else "text"


def read_columns(path, columns, *, delimiter=None, chunk_rows=1_000_000,
                 progress=None):
    """Every row of ``columns`` of a file, as ``(table, {role: array})``.

    Read chunk by chunk (see :func:`open_table`); an id column that is
    numbers in one chunk and text in another is read again as text, so that
    its ids are the file's (``007`` stays ``007``).
    """
    table = open_table(path, columns, delimiter=delimiter,
                       chunk_rows=chunk_rows, progress=progress)
    parts = {c.role: [] for c in columns}
    for _, values in table.chunks():
        for role, array in values.items():
            parts[role].append(array)
    out = {}
    for column in columns:
        arrays = parts[column.role]
        if not column.number and len({_kind(a) for a in arrays}) > 1:
            out[column.role] = table.text_column(column)
        elif len(arrays) == 1:
            out[column.role] = arrays[0]
        else:
            out[column.role] = np.concatenate(arrays)
    return table, out


# ---------------------------------------------------------------------------
# svmlight / LETOR files: scikit-learn's reader
# ---------------------------------------------------------------------------
class _SvmlightTable:
    """A svmlight file already read: where its rows are, for messages."""

    missing = "empty"

    def __init__(self, path):
        self.path = str(path)

    def locate(self, row):
        return {"row": row + 1}


def is_svmlight(path):
    """Whether ``--input-format auto`` reads ``path`` as svmlight/LETOR."""
    return Path(path).name.lower().endswith(SVMLIGHT_SUFFIXES)


def _score_file(path, n_rows):
    """The last whitespace-separated field of every line of ``path``."""
    import pandas as pd

    _open_raw(path).close()  # a missing file or a directory: one message
    try:
        frame = pd.read_csv(path, sep=r"\s+", header=None, engine="c",
                            comment="#", skip_blank_lines=True)
    except pd.errors.EmptyDataError:
        raise InputFileError(path, "empty file (expected one score per line)") \
            from None
    except (pd.errors.ParserError, UnicodeDecodeError, OSError) as exc:
        raise InputFileError(path, f"cannot be read ({exc})") from None
    scores = pd.to_numeric(frame.iloc[:, -1], errors="coerce").to_numpy(
        dtype=np.float64)
    bad = np.flatnonzero(np.isnan(scores))
    if bad.size:
        raise InputFileError(path, f"score {frame.iloc[bad[0], -1]!r} is not a "
                             "number", row=int(bad[0]) + 1)
    if scores.size != n_rows:
        raise InputFileError(path, f"{scores.size} scores for the {n_rows} "
                             "rows of the svmlight file (one score per line, "
                             "in the file's order)")
    return scores


def read_svmlight(path, score_file):
    """The labels, query ids and scores of a svmlight / LETOR file.

    Every line is ``label qid:Q index:value ...`` (the features are read and
    not used); :func:`sklearn.datasets.load_svmlight_file` with
    ``query_id=True`` reads it (``.gz`` and ``.bz2`` too).  The scores are
    in ``score_file``, one line per row of ``path`` in its order, the score
    being the line's last field: a file of numbers (LightGBM's and
    XGBoost's predictions) or RankLib's ``-score`` output (``qid index
    score``).

    Returns
    -------
    table, values
        As :func:`read_columns`: ``values`` has ``"group"`` (the qids),
        ``"label"`` and ``"score"``.
    """
    from sklearn.datasets import load_svmlight_file

    path = str(path)
    _open_raw(path).close()
    try:
        _, labels, qids = load_svmlight_file(path, query_id=True)
    except (ValueError, TypeError, OSError, EOFError) as exc:
        raise InputFileError(path, f"not a svmlight file ({exc})") from None
    if labels.size == 0:
        raise InputFileError(path, "empty file (no rows)")
    if qids.size != labels.size:
        raise InputFileError(path, f"{labels.size - qids.size} of {labels.size} "
                             "lines have no qid: (every line needs "
                             "'label qid:Q ...' to be evaluated by query)")
    scores = _score_file(score_file, labels.size)
    return _SvmlightTable(path), {"group": qids, "label": labels,
                                  "score": scores}
