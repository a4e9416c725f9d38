"""What a kernel's IR or compiled code says, read without running it: occupancy, resources, the LDS budget and LDS
instructions, dot work and the figures of a dot kernel, the one judge of two compiles (cost_model), waves_per_eu
"auto" (autowaves), the grid order and L2 (grid, l2model), loop order, and the kernel report. One layer with
composition/ (docs/development.md)."""
