"""A Spark DataFrame's columns, checked and renamed for the partitions.

pyspark is never imported here: ``sklearn_rankeval.spark`` passes its
``DataFrame`` class and its ``functions`` (``F``) and ``types`` (``T``)
modules.  :func:`check_spark_columns` checks the column-name arguments and
the Spark type of each column on the driver; :func:`input_columns` selects
the :class:`~._partials.FrameInputs` columns under short names (a Spark
``array<numeric>`` column of grades or intent weights is read as one array
per row).
"""

from ._partials import check_column_types, check_columns, check_frame

__all__ = ["check_spark_columns", "quoted"]

#: The column each input is renamed to in the partitions (``j``: the
#: ``j``-th column of an argument of several).
ALIASES = {"y_true": "t", "intent_weights": "iw", "samples": "smp",
           "items": "itm", "item_groups": "ig"}
#: The arguments a call may leave out (None).
OPTIONAL = ("sample_weight", "samples", "items")


def quoted(name):
    """A column name as Spark SQL reads it (backquoted)."""
    return "`" + name.replace("`", "``") + "`"


def alias(arg, j):
    """The partition's name of the ``j``-th column of argument ``arg``."""
    return ALIASES[arg] + (str(j) if j else "")


def check_spark_columns(df, frame_type, F, T, inputs=None, **roles):
    """Check ``df`` and its columns on the driver: ``roles`` maps each
    argument to ``(column name or None, kind)`` or to a list of such pairs
    (an argument of several columns), kind ``"label"`` (numeric or boolean),
    ``"number"``, ``"id"`` or ``"intents"`` (numeric, or an array of
    numbers: a value per intent); ``inputs``: a :class:`FrameInputs`, whose
    columns are checked first.  Returns ``(the Spark type of each column,
    the select expressions of the inputs' columns, the inputs as renamed)``
    (:func:`input_columns`; ``[]`` and None without ``inputs``)."""
    if inputs is not None:
        roles = {**input_roles(inputs), **roles}
        roles = {"y_true": roles.pop("y_true"), **roles}
    pairs = [(arg, name, kind) for arg, role in roles.items()
             for name, kind in (role if isinstance(role, list) else [role])]
    check_frame(df, frame_type, "df", "pyspark.sql.DataFrame")
    for arg, name, _ in pairs:
        if name is not None or arg not in OPTIONAL:
            check_columns(df.columns, **{arg: name})
    types = {f.name: f.dataType for f in df.schema.fields}

    def numbers(t):
        return isinstance(t, T.NumericType) or (
            isinstance(t, T.ArrayType) and isinstance(t.elementType, T.NumericType))

    kinds = {"label": (lambda t: isinstance(t, (T.NumericType, T.BooleanType)),
                       "numeric or boolean"),
             "number": (lambda t: isinstance(t, T.NumericType), "numeric"),
             "id": (lambda t: isinstance(t, (T.StringType, T.IntegralType,
                                             T.FloatType, T.DoubleType)),
                    "string, integer or float"),
             "intents": (numbers, "numeric or array<numeric>")}
    check_column_types(
        [(arg, name, *kinds[kind]) for arg, name, kind in pairs],
        types, "type", shown=lambda t: t.simpleString())
    if inputs is None:
        return types, [], None
    return (types, *input_columns(F, T, inputs, types))


def input_roles(inputs):
    """The ``roles`` of :func:`check_spark_columns` for ``inputs``'s columns
    (one column of ``y_true`` may hold arrays: grades per intent)."""
    true_kind = "intents" if not inputs.listed and len(inputs.y_true) == 1 \
        else "label"
    return dict(
        y_true=[(name, true_kind) for name in inputs.y_true],
        intent_weights=[(name, "intents") for name in inputs.intent_weights],
        samples=(inputs.samples, "id"), items=(inputs.items, "id"),
        item_groups=[(name, "id") for name in inputs.item_groups])


def input_columns(F, T, inputs, types):
    """``(the select expressions of inputs's columns, inputs as renamed)``:
    grades and weights as doubles (arrays of doubles for an array column),
    ids as given."""
    arrays = {name for name in (*inputs.y_true[:1], *inputs.intent_weights[:1])
              if isinstance(types[name], T.ArrayType)}
    inputs = inputs.with_arrays(arrays)

    def column(arg, name, j):
        col = F.col(quoted(name))
        if name in arrays:
            col = col.cast("array<double>")
        elif arg in ("y_true", "intent_weights") and (
                len(getattr(inputs, arg)) > 1 or inputs.listed or
                isinstance(types[name], (T.DecimalType, T.FloatType))):
            col = col.cast("double")
        return col.alias(alias(arg, j))

    cols, counts = [], {}
    for arg, name in inputs.roles():
        j = counts[arg] = counts.get(arg, -1) + 1
        cols.append(column(arg, name, j))
    return cols, inputs.renamed(alias)
