"""Is the compiled engine built from the sources beside it?

``pip install .`` compiles ``_grouped.pyx`` (and the ``.pxd`` files it
cimports) into an extension module and records :func:`source_hash` of
those sources in it (``setup.py`` reads this file by path, so that the build
and the import hash the same way).  A source checkout keeps the built module
beside its sources; when they have changed since, the module is stale and
importing it is an error that says to rebuild, rather than results of code
that is no longer there.  An installed wheel carries no Cython sources: then
there is nothing to compare.

Standard library only (``setup.py`` runs it before anything is installed).
"""

import hashlib
from pathlib import Path

__all__ = ["SOURCES", "check_fresh", "source_hash"]

#: The compiled engine's sources, by name: the module and the ``.pxd`` files
#: it cimports.  ``setup.py`` builds from (and hashes) exactly these, so a
#: file beside them that the build does not read -- an editor's lock or swap
#: file, a backup, a copy -- never makes the module look stale.  A new
#: ``.pxd`` is added here (tests/engine/test_compiled.py checks that every
#: local module a source cimports is listed).
SOURCES = ("_grouped.pyx", "_group_kernels.pxd", "_intent_kernels.pxd")


def _sources(folder):
    return [Path(folder) / name for name in sorted(SOURCES)
            if (Path(folder) / name).is_file()]


def source_hash(folder):
    """SHA-256 of the Cython sources in ``folder`` (names and bytes), or None
    when there are none."""
    files = _sources(folder)
    if not files:
        return None
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.name.encode() + b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def check_fresh(module):
    """ImportError if ``module`` was built from other sources than those
    beside it (a source checkout edited or updated since ``pip install .``)."""
    found = source_hash(Path(module.__file__).parent)
    if found is not None and found != module.SOURCE_HASH:
        raise ImportError(
            f"sklearn_rankeval's compiled engine ({Path(module.__file__).name}) is "
            f"stale: its Cython sources changed after it was built. Rebuild it: "
            f"run `pip install .` in the source tree."
        )
