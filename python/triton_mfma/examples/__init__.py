"""Kernels bundled with the package: the demo, the tests and the benches compile these."""
from .kernels import ARCHS, CORPUS

__all__ = ["ARCHS", "CORPUS"]
