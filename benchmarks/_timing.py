"""The one timing helper of ``benchmarks/``: every script times through it.

* :func:`timed` -- ``repeat`` runs after ``warmup`` runs: median, min, max,
  the times and the last result (:class:`Timing`);
* :func:`paired` -- two callables timed back to back, ``repeat`` rounds: the
  median of each and the median of the ratios of the pairs (on a shared
  machine, pairing keeps the load of the two sides alike);
* :func:`traced_peak` -- the peak bytes ``tracemalloc`` sees during a call
  (NumPy's allocations), the engine's workspace dropped first when ``cold``;
* :func:`machine` -- one line on the machine: NumPy, cores, threads, load,
  and this machine's ``np.sort`` / ``np.argsort`` of 2M float64;
* :func:`emit` -- one printed line per measurement, and with
  :func:`write_to` a JSON-lines file of them.
"""

import gc
import json
import os
import platform
import time
import tracemalloc
from typing import Any, NamedTuple

import numpy as np

__all__ = ["Timing", "emit", "load", "machine", "one_thread", "paired",
           "sort_speed", "timed", "traced_peak", "write_to"]

_OUT = None


class Timing(NamedTuple):
    """Seconds of the timed runs: their median, min and max, the runs
    themselves and the last run's result."""

    median: float
    min: float
    max: float
    times: np.ndarray
    result: Any


def timed(fn, repeat=3, warmup=1, before=None, after=None):
    """Time ``fn()`` ``repeat`` times after ``warmup`` untimed runs.

    ``before`` / ``after`` run around each timed call, outside the timing
    when they are given (e.g. a device synchronisation).
    """
    result = None
    for _ in range(warmup):
        result = fn()
    times = []
    for _ in range(max(repeat, 1)):
        gc.collect()
        if before is not None:
            before()
        t0 = time.perf_counter()
        result = fn()
        if after is not None:
            after()
        times.append(time.perf_counter() - t0)
    times = np.array(times)
    return Timing(float(np.median(times)), float(times.min()), float(times.max()),
                  times, result)


def paired(fa, fb, repeat, warmup=1):
    """``(median a, median b, median of b / a)``, the two timed in turn."""
    for _ in range(warmup):
        fa(), fb()
    ta, tb = [], []
    for _ in range(max(repeat, 1)):
        for f, out in ((fa, ta), (fb, tb)):
            gc.collect()
            t0 = time.perf_counter()
            f()
            out.append(time.perf_counter() - t0)
    ta, tb = np.array(ta), np.array(tb)
    return float(np.median(ta)), float(np.median(tb)), float(np.median(tb / ta))


def traced_peak(fn, cold=False):
    """Peak bytes traced by ``tracemalloc`` during ``fn()``.

    ``cold``: the compiled engine's workspace (kept from call to call) is
    dropped first, so that the call allocates it and it is counted.
    """
    if cold:
        from sklearn_rankeval._engine import _compiled

        _compiled._LOCAL.__dict__.pop("ws", None)
    gc.collect()
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def load():
    """The one-minute load average, as text."""
    try:
        return f"load {os.getloadavg()[0]:.1f}"
    except OSError:  # pragma: no cover
        return "load ?"


def one_thread():
    """A context in which the compiled pass runs on one thread."""
    from threadpoolctl import threadpool_limits

    return threadpool_limits(limits=1, user_api="openmp")


def sort_speed(repeat=5):
    """This machine's ``(np.sort, np.argsort)`` seconds of 2M float64 (medians)."""
    s = np.random.default_rng(0).random(2_000_000)
    a, b, _ = paired(lambda: np.sort(s), lambda: np.argsort(s), repeat)
    return a, b


def machine(sort=True):
    """One line on the machine and the library (and its sort speed)."""
    import sklearn

    import sklearn_rankeval as rk
    from sklearn_rankeval._engine import _grouped

    text = (f"# {time.strftime('%Y-%m-%d %H:%M')}, {platform.machine()}, "
            f"{os.cpu_count()} cores, python {platform.python_version()}, numpy "
            f"{np.__version__}, scikit-learn {sklearn.__version__}, "
            f"sklearn_rankeval {rk.__version__} ({os.path.dirname(rk.__file__)}), OpenMP {_grouped.OPENMP} "
            f"({_grouped.max_threads()} threads), working_memory "
            f"{rk.get_config()['working_memory']} MiB, {load()}")
    if sort:
        a, b = sort_speed()
        text += f"; np.sort of 2M float64 {a:.3f} s, np.argsort {b:.3f} s"
    return text


def write_to(path):
    """Append every later :func:`emit` row to the JSON-lines file ``path``."""
    global _OUT
    _OUT = path


def emit(**row):
    """Print one measurement (``key=value`` pairs) and record it."""
    print("  ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                    for k, v in row.items()), flush=True)
    if _OUT is not None:
        with open(_OUT, "a") as fh:
            fh.write(json.dumps(row) + "\n")
    return row
