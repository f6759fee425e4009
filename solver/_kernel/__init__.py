"""The counting kernel: private Cython modules, one algorithm each (docs/design.md).

Each module is a ``_name.pyx`` beside its ``_name.pxd`` (what the other modules cimport) and its
``_name.pyi`` (what Python sees). The typed Python modules of the package validate their input
and call these; nothing outside the package should.
"""
