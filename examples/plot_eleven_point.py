"""
==============================================
The 11-point chart: comparing two rankers
==============================================

The TREC and PASCAL VOC 2007 evaluations summarise a ranking system by its
interpolated precision at the eleven recall levels 0.0, 0.1, ..., 1.0,
averaged over queries, and draw the systems under comparison on one chart.
The mean of the eleven values is the 11-point average precision.

This example draws that chart with
:class:`~sklearn_rankeval.ElevenPointDisplay` for two click models on a
synthetic click log (one query per user): a logistic regression on every
feature and one that does not see the two most informative item features.
Passing the first display's axes as ``ax=`` adds the second system.
"""

# %%
# Two rankers on a click log, split by user
# -----------------------------------------
import matplotlib.pyplot as plt
from sklearn.compose import ColumnTransformer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupShuffleSplit
from sklearn.pipeline import make_pipeline

from sklearn_rankeval import (
    ElevenPointDisplay,
    interpolated_average_precision_score,
)
from sklearn_rankeval.datasets import make_click_log

X, y, groups = make_click_log(n_users=600, random_state=0)
splitter = GroupShuffleSplit(test_size=0.5, random_state=0)
train, test = next(splitter.split(X, y, groups))
weak_columns = ColumnTransformer([("keep", "passthrough", [0, 3, 4, 5, 6])])
models = {
    "All features": LogisticRegression(),
    "Without features 1-2": make_pipeline(weak_columns, LogisticRegression()),
}
for model in models.values():
    model.fit(X[train], y[train])
X_test, y_test, groups_test = X[test], y[test], groups[test]

# %%
# The 11-point chart
# ------------------
# Each marker is the interpolated precision at one recall level, averaged over
# the users who clicked (users without a click have no recall levels to reach).
# The steps hold each value over the recall interval that ends at its level,
# where the interpolated precision is at least that value.
fig, ax = plt.subplots(figsize=(5.5, 5.5), layout="constrained")
displays = {}
for name, model in models.items():
    displays[name] = ElevenPointDisplay.from_estimator(
        model, X_test, y_test, groups=groups_test, name=name, ax=ax
    )
ax.set_title("Interpolated precision at 11 recall levels")

# %%
# The values behind the chart
# ---------------------------
# The legend's 11-point AP is the mean of the eleven values, that is
# :func:`~sklearn_rankeval.interpolated_average_precision_score`.
print(f"{'recall':>8s}" + "".join(f"{name:>22s}" for name in displays))
recall = next(iter(displays.values())).recall
for j, level in enumerate(recall):
    values = "".join(f"{d.precision[j]:22.4f}" for d in displays.values())
    print(f"{level:8.1f}{values}")
for name, model in models.items():
    score = model.predict_proba(X_test)[:, 1]
    # (users without a click have no AP: left out, explicitly)
    ap = interpolated_average_precision_score(y_test, score, groups=groups_test,
                                              undefined="skip")
    shown = displays[name].average_precision
    print(f"{name}: 11-point AP {ap:.4f} (legend: {shown:.4f})")
