"""Build the Cython kernels in ``ext/`` as private modules of the ``solver`` package."""
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = [
    Extension(
        f"solver.{source.stem}",
        [str(source)],
        include_dirs=[numpy.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=["-O3"],
    )
    for source in sorted(Path("ext").glob("_*.pyx"))
]

# cythonize follows the .pxd files a module cimports, not its own declarations (the .pyx is in
# ext/, its .pxd in solver/): a .c older than them is generated again, not compiled stale
for source in Path("ext").glob("_*.pyx"):
    own, generated = Path("solver") / f"{source.stem}.pxd", source.with_suffix(".c")
    if own.exists() and generated.exists() and generated.stat().st_mtime < own.stat().st_mtime:
        generated.unlink()

setup(
    ext_modules=cythonize(
        extensions,
        language_level=3,
        include_path=["."],
        compiler_directives={
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    )
)
