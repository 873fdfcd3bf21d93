"""The compiled engine's build (Cython, setuptools' ``build_ext``).

All package metadata lives in ``pyproject.toml``; this file declares the one
extension module, ``sklearn_rankeval._engine._grouped``, and how it is built:

* Cython 3 with typed memoryviews only: no NumPy C-API, so the build needs no
  NumPy headers and the module runs with any NumPy the package supports;
* portable flags (``-O3`` at most, never ``-march=native``), and
  ``-ffp-contract=off`` so that no compiler fuses a multiply and an add into
  one rounding on some CPUs and not on others;
* OpenMP where the compiler has it (a test compile of a tiny OpenMP program
  decides; ``SKLEARN_RANKEVAL_NO_OPENMP=1`` forces it off), else one thread;
* the module records the hash of its Cython sources
  (``sklearn_rankeval/_engine/_fresh.py``), which the package checks at import
  in a source tree;
* built from a source checkout (``pip install .`` in a clone), the module is
  also copied beside its sources, so that ``pytest`` and the documentation
  build, which import the package from the source tree, import the module
  just built.
"""

import importlib.util
import os
import tempfile
import textwrap
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
ENGINE = Path("sklearn_rankeval", "_engine")


def _load_fresh():
    """``_engine/_fresh.py`` by path (the package is not importable yet)."""
    spec = importlib.util.spec_from_file_location(
        "_rankeval_fresh", ROOT / ENGINE / "_fresh.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _gcc_like(compiler):
    return getattr(compiler, "compiler_type", "") != "msvc"


class BuildExt(build_ext):
    """``build_ext`` with OpenMP detection, the source hash, and a copy of the
    built module into a source checkout."""

    def _openmp_flags(self):
        if os.environ.get("SKLEARN_RANKEVAL_NO_OPENMP", "") not in ("", "0"):
            print("sklearn_rankeval: OpenMP turned off (SKLEARN_RANKEVAL_NO_OPENMP)")
            return [], []
        if _gcc_like(self.compiler):
            compile_flags, link_flags = ["-fopenmp"], ["-fopenmp"]
        else:
            compile_flags, link_flags = ["/openmp"], []
        program = textwrap.dedent("""\
            #include <omp.h>
            int main(void) {
                int n = 0;
                #pragma omp parallel reduction(+:n)
                n += omp_get_num_threads();
                return n > 0 ? 0 : 1;
            }
            """)
        with tempfile.TemporaryDirectory() as tmp:
            source = Path(tmp, "openmp_check.c")
            source.write_text(program)
            try:
                objects = self.compiler.compile(
                    [str(source)], output_dir=tmp, extra_postargs=compile_flags)
                self.compiler.link_executable(
                    objects, "openmp_check", output_dir=tmp,
                    extra_postargs=link_flags)
            except Exception as exc:  # CompileError, LinkError
                print(f"sklearn_rankeval: no OpenMP ({type(exc).__name__}); the "
                      f"compiled engine runs on one thread")
                return [], []
        return compile_flags, link_flags

    def build_extensions(self):
        compile_flags, link_flags = self._openmp_flags()
        if _gcc_like(self.compiler):
            compile_flags = [*compile_flags, "-O3", "-ffp-contract=off"]
        digest = _load_fresh().source_hash(ROOT / ENGINE)
        for ext in self.extensions:
            ext.extra_compile_args = [*ext.extra_compile_args, *compile_flags]
            ext.extra_link_args = [*ext.extra_link_args, *link_flags]
            ext.define_macros = [*ext.define_macros,
                                 ("SKRE_SOURCE_HASH", f'"{digest}"')]
        super().build_extensions()

    def run(self):
        super().run()
        if not self.inplace and (ROOT / ".git").exists():
            # a source checkout: the tests and the docs import the package
            # from here (pyproject's pytest pythonpath), so the module goes
            # beside its sources too
            self.copy_extensions_to_source()


def _extensions():
    from Cython.Build import cythonize

    sources = _load_fresh().SOURCES  # the module first, then its .pxd files
    ext = Extension("sklearn_rankeval._engine._grouped",
                    [str(ENGINE / sources[0])],
                    depends=[str(ENGINE / name) for name in sources[1:]])
    return cythonize(
        [ext],
        build_dir=str(Path("build", "cython")),
        compiler_directives={"language_level": "3"},
        quiet=True,
    )


setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildExt})
