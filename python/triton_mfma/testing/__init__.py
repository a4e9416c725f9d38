"""Test support shipped with the package: the generator of random, valid Triton kernels (kernelgen)."""
