"""Where Triton's IR meets ours, and the plain facts below everything: the bridge between Triton's MLIR and ours
(bridge), the C API of our library (native), our passes at one insertion point (runner), Triton's parser on a user's
file (safe_parse, triton_ir, and the error it raises: cli_error), the installed Triton's version (triton_version).
Imports nothing else of the package."""
