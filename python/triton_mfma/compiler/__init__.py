"""Triton's compiles through triton-mfma: the activation and the one hook (hook), the stage plan that replaces
Triton's stages (stages), and compiling bundled or user kernels for a target without a GPU (compile)."""
