"""The only module that imports scikit-learn's private API.

Everything here exists, with the same signature, in every supported
scikit-learn (1.4.2 to 1.9); where a private helper differs between versions,
the package has its own small equivalent instead.
"""

from sklearn.utils._param_validation import (
    InvalidParameterError as SklearnInvalidParameterError,
)
from sklearn.utils._response import (
    _get_response_values_binary as get_response_values_binary,
)

__all__ = ["SklearnInvalidParameterError", "get_response_values_binary"]
