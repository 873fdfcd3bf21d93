"""What the Spark and Dask adapters share: partials in, the same finalize out.

Neither engine is imported here; ``sklearn_rankeval.spark`` and
``sklearn_rankeval.dask`` import only this subpackage.
"""

from ._partials import (
    check_column_types,
    check_frame,
    input_order_column,
    metric_plan,
    partial_columns,
    partial_dtypes,
    reduce_partials,
    summarize_partials,
)

__all__ = [
    "check_column_types",
    "check_frame",
    "input_order_column",
    "metric_plan",
    "partial_columns",
    "partial_dtypes",
    "reduce_partials",
    "summarize_partials",
]
