"""Writing results: JSON (NaN as null), CSV (``repr`` of floats: exact) and
plain tables."""

import csv
import json
import math
import sys

import numpy as np

__all__ = ["csv_number", "json_value", "table_lines", "write_csv", "write_json"]


def json_value(value):
    """A JSON-ready Python value: NaN as None, NumPy scalars as Python's."""
    if isinstance(value, dict):
        return {k: json_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_value(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def csv_number(value):
    """A number as CSV text: ``repr`` of the float (it reads back exactly),
    an empty cell for None."""
    return "" if value is None else repr(float(value))


def write_json(doc):
    json.dump(json_value(doc), sys.stdout, indent=2, allow_nan=False)
    sys.stdout.write("\n")


def write_csv(header, rows):
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)


def table_lines(values, digits):
    """``name   value`` lines of a ``{name: number}`` dict, aligned."""
    width = max(len(k) for k in values) + 2
    return [f"{k:<{width}s}{v:>12.{digits}f}" for k, v in values.items()]
