"""
=====================================================
Calibration of a click model per user segment
=====================================================

A click-through-rate (CTR) model is used not only to order items but to
price them: its probabilities must be *calibrated*, a predicted 5% must mean
5 clicks in 100 impressions. The reliability curve bins the predicted
probabilities and plots, for each bin, the observed click rate against the
mean prediction: a calibrated model lies on the diagonal. Two numbers sum it
up: the calibration ratio PCOC (predicted over observed clicks; 1 is
calibrated, above 1 over-predicts) and the expected calibration error ECE
(the weighted distance of the bins to the diagonal).

A model can be calibrated overall and still wrong on a part of the traffic.
:class:`~sklearn_rankeval.CalibrationCurveDisplay` draws one curve per
segment, here users of low and high activity, with PCOC and ECE in the
legend and a bootstrap band over users, and
:func:`~sklearn_rankeval.ranking_report` gives these numbers per segment
beside the group AUC and the normalized entropy.
"""

# %%
# A click log, and two models
# ---------------------------
# Both are logistic regressions on the same features. The first is trained on
# the log as it is. The second is trained, as is common for CTR models, on
# the clicks and only 20% of the non-clicks (negative down-sampling), and
# its probabilities are not corrected for it: it over-predicts every click
# rate.
import matplotlib.pyplot as plt
import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupShuffleSplit

from sklearn_rankeval import CalibrationCurveDisplay, ranking_report
from sklearn_rankeval.datasets import make_click_log

X, y, groups = make_click_log(n_users=1500, random_state=0)
train, test = next(GroupShuffleSplit(test_size=0.5, random_state=0).split(
    X, y, groups))
rng = np.random.default_rng(0)
kept = train[(y[train] == 1) | (rng.random(len(train)) < 0.2)]
models = {
    "Calibrated": LogisticRegression().fit(X[train], y[train]),
    "Down-sampled": LogisticRegression().fit(X[kept], y[kept]),
}

# %%
# Segments: users of low and high activity
# ----------------------------------------
# Column 0 of ``X`` is a noisy user-activity feature; the users whose mean
# of it is above the median user's are "high activity" (a label per row,
# constant within a user).
X_test, y_test, users = X[test], y[test], groups[test]
ids, row_user = np.unique(users, return_inverse=True)
n_rows = np.bincount(row_user)
user_activity = np.bincount(row_user, weights=X_test[:, 0]) / n_rows
high = user_activity > np.median(user_activity)
activity = np.where(high[row_user], "high activity", "low activity")

# %%
# The reliability curve of each segment
# -------------------------------------
# With ``strategy="quantile"`` each of the 8 bins holds an eighth of a
# segment's impressions, so the points spread over the range of the
# predictions (click rates are small: most predictions are below 0.3). The
# band is the 90% bootstrap interval of each bin's click rate over the
# segment's users: users, not impressions, are resampled. The calibrated
# model stays on the diagonal in both segments; the down-sampled one lies
# below it, and its PCOC well above 1.
fig, axes = plt.subplots(1, 2, figsize=(11, 5.5), layout="constrained")
for ax, (name, model) in zip(axes, models.items()):
    CalibrationCurveDisplay.from_estimator(
        model, X_test, y_test, segments=activity, n_bins=8,
        strategy="quantile", groups=users, confidence=0.9, n_resamples=300,
        random_state=0, ax=ax, name=name,
    )
    ax.set_title(name)
    ax.legend(loc="upper left", fontsize="small")

# %%
# The numbers behind the legend
# -----------------------------
# ``curves_`` holds, for each segment, the points (``prob_pred``,
# ``prob_true``), the weight of each bin and the segment's PCOC and ECE.
disp = CalibrationCurveDisplay.from_estimator(
    models["Down-sampled"], X_test, y_test, segments=activity, n_bins=8,
    strategy="quantile")
for segment, curve in disp.curves_.items():
    pcoc, ece = curve["pcoc"], curve["ece"]
    print(f"{segment:>14s}: PCOC = {pcoc:.3f}, ECE = {ece:.3f}")
plt.close(disp.figure_)

# %%
# Ranking and probabilities, per segment
# --------------------------------------
# :func:`~sklearn_rankeval.ranking_report` puts the group AUC beside the
# metrics of the probabilities, per segment: the log loss, the normalized
# entropy (NE: the log loss over that of predicting the segment's click rate
# to everyone; below 1 is better than that), PCOC and ECE (here with 10
# bins of equal width). Down-sampling leaves the order of each user's items
# as it was (the GAUC barely moves) but costs the NE: only the probabilities
# are wrong. ``normalized_entropy(..., negative_sampling_rate=0.2)`` would
# undo it (see :ref:`ctr-negative-sampling`).
metrics = ["gauc", "log_loss", "ne", "pcoc", "ece"]
for name, model in models.items():
    report = ranking_report(
        y_test, model.predict_proba(X_test)[:, 1], groups=users,
        metrics=metrics, segments=activity, output="frame")
    table = report.pivot(index="metric", columns="segment", values="value")
    print(f"{name}:\n{table.loc[metrics].round(4)}\n")
plt.show()
