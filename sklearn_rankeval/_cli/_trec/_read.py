"""Reading TREC files: qrels and runs as dicts, and C's number parsing.

trec_eval reads its measure parameters with C's ``atof`` / ``atol``;
:func:`atof` and :func:`atol` read them the same way.
"""

import math
import re

from .._io import InputFileError, reported_lines

__all__ = ["atof", "atol", "read_qrels", "read_run"]


def _content_lines(path, progress=None):
    """(line number, fields) of the non-blank, non-comment lines
    (``progress``: see :func:`~.._io.reported_lines`)."""
    for lineno, text in reported_lines(path, progress):
        fields = text.split()
        if fields and not fields[0].startswith("#"):
            yield lineno, fields


def _store(table, qid, docno, value, verb, path, lineno):
    """``table[qid][docno] = value``; a document met twice is an error."""
    docs = table.setdefault(qid, {})
    if docno in docs:
        raise InputFileError(
            path, f"document {docno!r} is {verb} twice for query {qid!r}",
            line=lineno,
        )
    docs[docno] = value


def read_qrels(path, progress=None, subtopics=False):
    """Read a TREC qrels file (``query iteration document relevance``).

    Parameters
    ----------
    path : str or path-like
        The file.  Blank lines and lines starting with ``#`` are skipped.
    progress : callable, default=None
        Told ``(lines read, share of the file)`` as the file is read (the
        command line's progress bar); None: nothing.
    subtopics : bool, default=False
        Read ndeval's qrels (TREC Web 2009-2014 diversity task): the second
        column is the subtopic (intent) the line judges the document for
        (``query subtopic document relevance``), so that a document may be
        judged once per subtopic.  False: trec_eval's reading (the second
        column ignored, a document judged once per query).

    Returns
    -------
    qrels : dict
        ``{query id: {document id: relevance (int)}}``; with ``subtopics``,
        ``{query id: {document id: {subtopic: relevance (int)}}}``.

    Raises
    ------
    InputFileError
        Wrong number of fields, a relevance that is not an integer, a
        document judged twice for a query (for a subtopic of a query, with
        ``subtopics``), or no judgment at all.
    """
    qrels = {}
    for lineno, fields in _content_lines(path, progress):
        if len(fields) != 4:
            raise InputFileError(
                path, f"expected 4 fields (query, "
                f"{'subtopic' if subtopics else 'iteration'}, document, "
                f"relevance), got {len(fields)}", line=lineno,
            )
        qid, subtopic, docno, rel = fields
        try:
            rel = int(rel)
        except ValueError:
            raise InputFileError(
                path, f"relevance {rel!r} is not an integer", line=lineno
            ) from None
        if subtopics:
            grades = qrels.setdefault(qid, {}).setdefault(docno, {})
            if subtopic in grades:
                raise InputFileError(
                    path, f"document {docno!r} is judged twice for subtopic "
                    f"{subtopic!r} of query {qid!r}", line=lineno)
            grades[subtopic] = rel
        else:
            _store(qrels, qid, docno, rel, "judged", path, lineno)
    if not qrels:
        raise InputFileError(path, "empty file (no judgments)")
    return qrels


def read_run(path, progress=None):
    """Read a TREC run file (``query Q0 document rank score tag``).

    Parameters
    ----------
    path : str or path-like
        The file.  The rank column is ignored (trec_eval ranks by score);
        fields after the tag are ignored; blank lines and lines starting with
        ``#`` are skipped.
    progress : callable, default=None
        As for :func:`read_qrels`.

    Returns
    -------
    run : dict
        ``{query id: {document id: score (float)}}``.
    run_id : str
        The tag of the last line (trec_eval's ``runid``).

    Raises
    ------
    InputFileError
        Fewer than 6 fields, a score that is not a number (or NaN), a
        document retrieved twice for a query, or no line at all.
    """
    run = {}
    run_id = None
    for lineno, fields in _content_lines(path, progress):
        if len(fields) < 6:
            raise InputFileError(
                path, f"expected 6 fields (query, Q0, document, rank, score, "
                f"run tag), got {len(fields)}", line=lineno,
            )
        qid, docno, score = fields[0], fields[2], fields[4]
        try:
            value = float(score)
        except ValueError:
            raise InputFileError(
                path, f"score {score!r} is not a number", line=lineno
            ) from None
        if math.isnan(value):
            raise InputFileError(path, "score is NaN", line=lineno)
        _store(run, qid, docno, value, "retrieved", path, lineno)
        run_id = fields[5]
    if not run:
        raise InputFileError(path, "empty file (no results)")
    return run, run_id


def atof(text):
    """C's ``atof``: the longest leading number, 0.0 if there is none."""
    match = re.match(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", text)
    return float(match.group(0)) if match else 0.0


def atol(text):
    """C's ``atol``: the leading integer (``"23.4"`` -> 23), 0 if none."""
    match = re.match(r"\s*[+-]?\d+", text)
    return int(match.group(0)) if match else 0
