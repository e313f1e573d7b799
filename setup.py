"""Builds henge's compiled modules: Cython compiles the Python source named in henge/compiled.py.

Nothing here is a second copy of any rule: each extension is built from the ``.py`` file that the
pure-Python path runs. Where no C compiler (or no Cython) is at hand, the build says so once and
installs the pure-Python package, which runs everywhere (slower).

``HENGE_COMPILE_ONLY=henge/games/fightin,henge/core/state.py`` compiles only the modules under those
paths (while working on them: ``python setup.py build_ext --inplace``).
"""

import os
import runpy
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

COMPILED = runpy.run_path(os.path.join("henge", "compiled.py"))["COMPILED"]

DIRECTIVES = {
    "language_level": 3,
    "binding": True,  # functions keep their signatures (the plugin checks read them)
    "embedsignature": True,
    # Python's meaning everywhere: no C type is taken from an annotation or inferred for a local
    # (``x: float`` would become a C double, ``ok = bool(...)`` a C truth value that cannot hold None).
    # The hot paths declare their C types explicitly (cython.locals, cython.declare).
    "annotation_typing": False,
    "infer_types": False,
}


COMPILE_ARGS = ["-O2", "-Wno-array-bounds"]  # -Warray-bounds: a false alarm on Cython's reading of Python ints


def _say(message):
    print(f"henge: {message}", file=sys.stderr)


def extensions():
    if os.environ.get("HENGE_PURE") == "1":
        _say("HENGE_PURE=1: installing the pure-Python path, nothing compiled")
        return []
    try:
        from Cython.Build import cythonize
        from Cython.Compiler import Options
    except ImportError:
        _say("Cython is not installed: installing the pure-Python path, nothing compiled")
        return []
    from setuptools import Extension

    # A warning is an error: "local variable referenced before assignment", say, is how Cython tells of
    # a C-typed local read inside a generator expression, which would silently compute something else.
    Options.warning_errors = True
    only = [prefix for prefix in os.environ.get("HENGE_COMPILE_ONLY", "").split(",") if prefix]
    modules = [
        Extension(path[: -len(".py")].replace("/", "."), [path], extra_compile_args=COMPILE_ARGS)
        for path in COMPILED
        if not only or any(path.startswith(prefix) for prefix in only)
    ]
    try:
        return cythonize(modules, compiler_directives=DIRECTIVES, nthreads=os.cpu_count() or 1, quiet=True)
    except Exception as error:  # a module Cython cannot translate: the source runs as it is
        _say(f"Cython could not translate the engine ({error}); installing the pure-Python path")
        return []


class OptionalBuildExt(build_ext):
    """Builds the extensions in parallel; a failure to compile leaves the pure-Python path, said once."""

    def finalize_options(self):
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1

    def run(self):
        try:
            super().run()
        except Exception as error:  # no compiler, no Python headers: the source runs as it is
            _say(f"could not compile the engine ({error}); installing the pure-Python path")

    def build_extensions(self):
        try:
            super().build_extensions()
        except Exception as error:
            self.extensions = []
            _say(f"could not compile the engine ({error}); installing the pure-Python path")


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
