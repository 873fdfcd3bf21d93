"""What every other part of the package stands on, and imports nothing of it.

* :mod:`._array_api` -- the namespace of the inputs and the segment helpers
  the Array API standard lacks (``xpx``);
* :mod:`._validation` -- the one definition of every array check and of the
  labels' reading (one rule, one message, from every entry point);
* :mod:`._params` -- declared parameters: each option's constraint written
  once, one error kind (``InvalidParameterError``) for every violation;
* :mod:`._config` -- ``get_config`` / ``set_config`` / ``config_context``;
* :mod:`._warnings` -- warnings attributed to the user's line;
* :mod:`._compat` -- the only importer of scikit-learn's private API.
"""

from . import _array_api as xpx
from ._array_api import (
    asarray,
    astype,
    concat,
    cumsum,
    device_of,
    flatnonzero,
    full,
    get_namespace,
    is_foreign_array,
    lgamma,
    namespace_of,
    reject_host_options,
    repeat_index,
    sum_by_owner,
    take,
    to_numpy,
)
from ._compat import get_response_values_binary
from ._config import config_context, get_config, set_config
from ._params import (
    Interval,
    InvalidParameterError,
    Options,
    check_alpha,
    check_average,
    check_k,
    check_n_points,
    check_negative_sampling_rate,
    check_option,
    check_positive_int,
    check_undefined,
    declared,
)
from ._validation import (
    InvalidArgumentError,
    as_numeric,
    as_numeric_array_api,
    binary_labels,
    check_binary_labels,
    column_or_2d,
    validate_binary,
    validate_positions,
    validate_positive,
    validate_probabilities,
    validate_relevance,
    validate_sample_weight,
    validate_scores,
)
from ._warnings import warn

__all__ = [
    "Interval",
    "InvalidArgumentError",
    "InvalidParameterError",
    "Options",
    "as_numeric",
    "as_numeric_array_api",
    "asarray",
    "astype",
    "binary_labels",
    "check_alpha",
    "check_average",
    "check_binary_labels",
    "check_k",
    "check_n_points",
    "check_negative_sampling_rate",
    "check_option",
    "check_positive_int",
    "check_undefined",
    "column_or_2d",
    "concat",
    "config_context",
    "declared",
    "cumsum",
    "device_of",
    "flatnonzero",
    "full",
    "get_config",
    "get_namespace",
    "get_response_values_binary",
    "is_foreign_array",
    "lgamma",
    "namespace_of",
    "reject_host_options",
    "repeat_index",
    "set_config",
    "sum_by_owner",
    "take",
    "to_numpy",
    "validate_probabilities",
    "validate_binary",
    "validate_positions",
    "validate_positive",
    "validate_relevance",
    "validate_sample_weight",
    "validate_scores",
    "warn",
    "xpx",
]
