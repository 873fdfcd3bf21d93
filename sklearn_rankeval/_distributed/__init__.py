"""What the Spark and Dask adapters share: partials in, the same finalize out.

Neither engine is imported here; ``sklearn_rankeval.spark`` and
``sklearn_rankeval.dask`` import only this subpackage.

* :mod:`._partials` -- ranking metrics: one row of partials per group, the
  accumulator of a partition, the reduction on the driver;
* :mod:`._lists` -- top-N lists: the recommendation report's plan, each
  partition's partials (whole users) and their reduction on the driver.
"""

from .._metrics import fill_doc
from ._lists import (
    TrainItems,
    list_layout,
    list_plan,
    partition_columns,
    reduce_columns,
)
from ._partials import (
    accumulate,
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
    "TrainItems",
    "accumulate",
    "check_column_types",
    "check_frame",
    "fill_doc",
    "input_order_column",
    "list_layout",
    "list_plan",
    "metric_plan",
    "partial_columns",
    "partial_dtypes",
    "partition_columns",
    "reduce_columns",
    "reduce_partials",
    "summarize_partials",
]
