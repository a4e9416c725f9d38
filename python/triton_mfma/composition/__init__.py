"""The project's passes composed into Triton's pipeline: the insertion points (points), the pass registry (passes),
Triton's make_ttgir with our passes at their points (pipeline), how remarks and warnings reach the user (remarks),
and the LLVM flags a compile passed (llvm_flags). One layer with models/ (docs/development.md)."""
