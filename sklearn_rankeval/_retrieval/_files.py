"""Runs and qrels on disk as the frames of ``retrieval_report``.

Read with pandas' C parser (no Python loop over lines):

* a TREC run (``query Q0 doc rank score tag``, whitespace separated): the
  rank column is ignored, as trec_eval ranks by score;
* TREC qrels (``query iteration doc relevance``), relevance any number;
* BEIR's folders (``<folder>/qrels/<split>.tsv``, or the ``.tsv`` itself:
  a header, then ``query-id corpus-id score``);
* a delimited file with a header naming ``query_id``, ``doc_id`` and
  ``score`` (or ``relevance``) columns (``.csv`` or ``.tsv``).

Ids are read as text, as trec_eval and BEIR read them.
"""

from pathlib import Path

from .._core import InvalidArgumentError

__all__ = ["read_qrels_file", "read_run_file"]


def _whitespace(path, names, columns, argument, what, *, more=False):
    import pandas as pd

    try:
        table = pd.read_csv(path, sep=r"\s+", header=None, comment="#",
                            dtype=str, engine="c")
    except (pd.errors.ParserError, pd.errors.EmptyDataError) as exc:
        raise InvalidArgumentError(
            argument, f"file {str(path)!r} is not a {what} file: "
                      f"{' '.join(str(exc).split())}") from None
    if table.shape[1] < len(names) or (table.shape[1] > len(names)
                                       and not more):
        raise InvalidArgumentError(
            argument, f"file {str(path)!r} has {table.shape[1]} fields per "
                      f"line; a {what} file has {len(names)} "
                      f"({' '.join(names)}).")
    out = table.iloc[:, list(columns)]
    out.columns = ["query_id", "doc_id", names[columns[-1]]]
    return _numeric(out, names[columns[-1]], argument, path)


def _numeric(frame, column, argument, path):
    import pandas as pd

    values = pd.to_numeric(frame[column], errors="coerce")
    bad = values.isna()
    if bad.any():
        i = int(bad.to_numpy().nonzero()[0][0])
        raise InvalidArgumentError(
            argument, f"file {str(path)!r}: the {column} "
                      f"{frame[column].iloc[i]!r} of line {i + 1} is not a "
                      f"number.")
    return frame.assign(**{column: values.astype(float)})


def _delimited(path, column, argument):
    import pandas as pd

    sep = "\t" if str(path).endswith((".tsv", ".tsv.gz")) else ","
    table = pd.read_csv(path, sep=sep, dtype={"query_id": str, "doc_id": str,
                                              "query-id": str, "corpus-id": str})
    table = table.rename(columns={"query-id": "query_id", "corpus-id": "doc_id",
                                  "qid": "query_id", "docid": "doc_id"})
    if column == "relevance" and "relevance" not in table and "score" in table:
        table = table.rename(columns={"score": "relevance"})  # BEIR's qrels
    missing = [c for c in ("query_id", "doc_id", column) if c not in table]
    if missing:
        raise InvalidArgumentError(
            argument, f"file {str(path)!r} has no column "
                      f"{', '.join(map(repr, missing))} (its header: "
                      f"{list(table.columns)}).")
    return _numeric(table[["query_id", "doc_id", column]], column, argument,
                    path)


def _has_header(path):
    suffixes = "".join(Path(path).suffixes[-2:])
    return any(suffixes.endswith(s) for s in (".csv", ".tsv", ".csv.gz",
                                              ".tsv.gz"))


def read_run_file(path):
    """A run file as a ``(query_id, doc_id, score)`` frame."""
    path = Path(path)
    if not path.is_file():
        raise InvalidArgumentError("run", f"file {str(path)!r} does not exist.")
    if _has_header(path):
        return _delimited(path, "score", "run")
    return _whitespace(path, ("query", "Q0", "doc", "rank", "score", "tag"),
                       (0, 2, 4), "run", "TREC run", more=True)


def read_qrels_file(path, split="test"):
    """Qrels as a ``(query_id, doc_id, relevance)`` frame: a BEIR folder
    (its ``qrels/<split>.tsv``), a BEIR or delimited file, or TREC qrels."""
    path = Path(path)
    if path.is_dir():
        tsv = path / "qrels" / f"{split}.tsv"
        if not tsv.is_file():
            raise InvalidArgumentError(
                "qrels", f"folder {str(path)!r} has no qrels/{split}.tsv (a "
                         f"BEIR dataset folder holds qrels/<split>.tsv).")
        path = tsv
    if not path.is_file():
        raise InvalidArgumentError("qrels", f"file {str(path)!r} does not exist.")
    if _has_header(path):
        return _delimited(path, "relevance", "qrels")
    return _whitespace(path, ("query", "iteration", "doc", "relevance"),
                       (0, 2, 3), "qrels", "TREC qrels")
