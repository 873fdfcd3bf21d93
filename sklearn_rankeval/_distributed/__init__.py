"""What the Spark and Dask adapters share: partials in, the same finalize out.

Neither engine is imported here; ``sklearn_rankeval.spark`` and
``sklearn_rankeval.dask`` import only this subpackage.

* :mod:`._partials` -- ranking metrics: one row of partials per group, the
  accumulator of a partition, the reduction on the driver;
* :mod:`._arrow` -- Arrow batches in and out of Spark's partitions;
* :mod:`._lists` -- top-N lists: the recommendation report's plan, each
  partition's partials (whole users) and their reduction on the driver;
* :mod:`._clicks` -- click logs: the counterfactual report's plan, each
  partition's gains, checks and partials (through the accumulator over the
  report's table of names) and their reduction on the driver.
"""

from .._metrics import fill_doc
from ._arrow import arrow_calls, group_type_tap, note_row, record_batches
from ._clicks import (
    click_doc,
    click_partials,
    click_plan,
    reduce_clicks,
    split_log_rows,
)
from ._lists import (
    TrainItems,
    list_plan,
    partition_columns,
    reduce_columns,
)
from ._partials import (
    FrameInputs,
    accumulate,
    check_column_types,
    check_frame,
    concat_partial_columns,
    frame_doc,
    input_order_column,
    metric_plan,
    parquet_doc,
    partial_columns,
    partial_dtypes,
    reduce_partials,
    summarize_partials,
)
from ._spark_columns import check_spark_columns, quoted

__all__ = [
    "FrameInputs",
    "TrainItems",
    "accumulate",
    "arrow_calls",
    "check_column_types",
    "check_frame",
    "check_spark_columns",
    "click_doc",
    "click_partials",
    "click_plan",
    "concat_partial_columns",
    "fill_doc",
    "frame_doc",
    "group_type_tap",
    "input_order_column",
    "list_plan",
    "metric_plan",
    "note_row",
    "partial_columns",
    "partial_dtypes",
    "partition_columns",
    "quoted",
    "record_batches",
    "reduce_clicks",
    "reduce_columns",
    "reduce_partials",
    "split_log_rows",
    "parquet_doc",
    "summarize_partials",
]
