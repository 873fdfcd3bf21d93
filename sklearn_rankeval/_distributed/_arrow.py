"""Arrow batches in and out of an engine's partitions (Spark's
``mapInArrow``): the partition's rows as NumPy columns per engine call, the
partials as record batches, and one-row notes (an error, a partition's
checks) to the driver.  pyarrow is imported when a function is called.
"""

import numpy as np

from ._partials import partial_dtypes

__all__ = ["OUT_ROWS", "arrow_calls", "group_type_tap", "note_row", "record_batches"]

#: Rows per output Arrow batch.
OUT_ROWS = 1 << 16


def arrow_calls(batches, rows_per_call):
    """A partition's rows as NumPy columns, one dict per engine call: the
    buffered batches, at least ``rows_per_call`` rows (or the rest)."""
    import pyarrow as pa

    def columns(buffer):
        table = pa.Table.from_batches(buffer)
        return {name: table.column(name).to_numpy() for name in table.column_names}

    buffer, buffered = [], 0
    for batch in batches:
        if batch.num_rows == 0:
            continue
        buffer.append(batch)
        buffered += batch.num_rows
        if buffered >= rows_per_call:
            yield columns(buffer)
            buffer, buffered = [], 0
    if buffer:
        yield columns(buffer)


def record_batches(columns, group_name, group_type, extra=None):
    """Columns (``"group"`` first) -> Arrow record batches of ``OUT_ROWS``."""
    import pyarrow as pa

    names = list(columns)
    n = len(columns["group"])
    arrays = [pa.array(columns["group"], type=group_type)]
    arrays += [pa.array(np.asarray(columns[c])) for c in names[1:]]
    names[0] = group_name
    if extra is not None:
        arrays.append(pa.nulls(n, type=extra[1]))
        names.append(extra[0])
    table = pa.Table.from_arrays(arrays, names=names)
    yield from table.to_batches(max_chunksize=max(min(n, OUT_ROWS), 1))


def group_type_tap(batches, holder):
    """Pass the batches through, noting the Arrow type of the group column
    and its first id."""
    for batch in batches:
        if "type" not in holder:
            holder["type"] = batch.schema.field("g").type
            holder["first"] = batch.column("g").slice(0, 1)
        yield batch


def note_row(group, names, pooled, column, text):
    """One row that carries ``text`` (an error, a partition's checks) in
    ``column`` to the driver: ``group`` (a 1-row Arrow array), zero partials."""
    import pyarrow as pa

    arrays = [group] + [pa.array(np.zeros(1, dtype=dtype))
                        for _, dtype in partial_dtypes(names, pooled)]
    arrays.append(pa.array([text], type=pa.string()))
    labels = ["group"] + [c for c, _ in partial_dtypes(names, pooled)] + [column]
    return pa.RecordBatch.from_arrays(arrays, names=labels)
