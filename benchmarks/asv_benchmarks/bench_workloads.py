"""The W1/W2/W3 workloads of ``benchmarks/`` at small size, for asv.

``asv continuous main HEAD`` (run from ``benchmarks/``) times each of these
on both commits and flags a change beyond its threshold (10% by default,
``-f 1.1``): a slowdown such as the 20% of the engine's common path between
waves 1 and 2 shows.  The data come from the generators of ``_data.py`` (the
same rows as the workload scripts, smaller).
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from _data import click_log, click_log_lean, multiclass, retrieval_run  # noqa: E402

import sklearn_rankeval as rk  # noqa: E402

#: The five W2 metrics beside pytrec_eval's (see README.md).
W2_METRICS = ["map", "mrr", "ndcg@10", "precision@10", "recall@10"]
#: The CTR report of issue 30.
CTR_METRICS = ["log_loss", "ne", "pcoc", "ece"]


class W1ClickLog:
    """W1: GAUC of a shuffled click log (about 300,000 rows, 30,000 users)."""

    timeout = 120

    def setup(self):
        import pandas as pd

        self.y, self.s, self.g = click_log(30_000)
        self.names = np.array([f"user{i:07d}" for i in range(30_000)],
                              dtype=object)[self.g]
        self.categories = pd.Categorical(self.names)

    def time_gauc(self):
        rk.gauc_score(self.y, self.s, groups=self.g)

    def time_gauc_chunked(self):
        # chunks of about 100,000 rows: the one sort of all rows, by slices
        with rk.config_context(working_memory=6):
            rk.gauc_score(self.y, self.s, groups=self.g)

    def time_report(self):
        rk.ranking_report(self.y, self.s, groups=self.g, output="dict")

    def time_report_string_ids(self):
        rk.ranking_report(self.y, self.s, groups=self.names, output="dict")

    def time_report_categorical_ids(self):
        rk.ranking_report(self.y, self.s, groups=self.categories, output="dict")

    def time_ctr_report(self):
        rk.ranking_report(self.y, self.s, groups=self.g, metrics=CTR_METRICS,
                          output="dict")

    def time_argsort_reference(self):
        # the reference the README's ratios divide by
        np.argsort(self.s)

    def peakmem_gauc(self):
        rk.gauc_score(self.y, self.s, groups=self.g)


class W1Scaling:
    """GAUC of W1's rows at 1M and 4M rows (100k and 400k users): the step
    of the radix partition (from ~250k groups) shows as the time a row at
    4M against 1M, beside ``np.argsort`` of the same scores."""

    params = [1_000_000, 4_000_000]
    param_names = ["rows"]
    timeout = 300

    def setup(self, rows):
        self.y, self.s, self.g = click_log_lean(rows)

    def time_gauc(self, rows):
        rk.gauc_score(self.y, self.s, groups=self.g)

    def time_argsort_reference(self, rows):
        np.argsort(self.s)


class W2RetrievalRun:
    """W2: the five metrics of a run of 2,000 queries x 100 documents."""

    timeout = 120

    def setup(self):
        Y, S = retrieval_run(2_000)
        self.Y, self.S = Y, S
        self.y, self.s = Y.ravel(), S.ravel()
        self.g = np.repeat(np.arange(Y.shape[0]), Y.shape[1])

    def time_report_grouped(self):
        rk.ranking_report(self.y, self.s, groups=self.g, metrics=W2_METRICS,
                          output="dict")

    def time_report_2d(self):
        rk.ranking_report(self.Y, self.S, metrics=W2_METRICS, output="dict")

    def time_ndcg_shuffled(self):
        order = np.random.default_rng(0).permutation(self.y.shape[0])
        rk.ndcg_score(self.y[order], self.s[order], groups=self.g[order], k=10)


class W3Multiclass:
    """W3: MRR and HR@5 of 20,000 samples x 100 classes."""

    timeout = 120

    def setup(self):
        self.y, self.P = multiclass(20_000)

    def time_mrr(self):
        rk.mean_reciprocal_rank_score(self.y, self.P)

    def time_hit_rate_at_5(self):
        rk.hit_rate_score(self.y, self.P, k=5)
