"""The command line: `triton-mfma` and `mfma-opt` (cli), its checks and user errors (cli_checks), and
`triton-mfma opt` (cli_opt). The last layer: it may import any other."""
