"""Builds the optional native core (src/alhambra/native/_core.pyx) with Cython.

Everything else is configured in pyproject.toml. Cython is a build requirement there, so
``pip install`` fetches it; when the C compiler fails the package still installs without the
extension and :mod:`alhambra.native` falls back to the Python engine (saying so once).
"""

from __future__ import annotations

import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext


class OptionalBuildExt(build_ext):
    """Build the extension if possible; never fail the installation because of it."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as e:
            print(f"alhambra: the native core was not built ({e}); the Python engine will be used")

    def build_extension(self, ext):  # type: ignore[no-untyped-def]
        try:
            super().build_extension(ext)
        except Exception as e:
            print(f"alhambra: the native core was not built ({e}); the Python engine will be used")


def _extensions() -> list[object]:
    if os.environ.get("ALHAMBRA_BUILD_NATIVE", "1") == "0":
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        print("alhambra: Cython is missing, the native core is not built")
        return []
    from setuptools import Extension

    # no fused multiply-add: the bots' evaluation must round exactly as Python's floats do
    args = ["/O2", "/fp:precise"] if sys.platform == "win32" else ["-O2", "-ffp-contract=off"]
    ext = Extension("alhambra.native._core", ["src/alhambra/native/_core.pyx"], extra_compile_args=args)
    return list(cythonize([ext], language_level=3, quiet=True))


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
