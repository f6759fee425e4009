"""Build the Cython kernels in ``solver/_kernel/`` (each ``_name.pyx`` beside its ``.pxd`` and ``.pyi``)."""
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

KERNEL = Path("solver") / "_kernel"

extensions = [
    Extension(
        f"solver._kernel.{source.stem}",
        [str(source)],
        include_dirs=[numpy.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=["-O3"],
    )
    for source in sorted(KERNEL.glob("_*.pyx"))
]

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
