"""The command line's user error, in a module of its own: what reads the user's files below the command line
(triton_ir) raises it as well as the command line's checks."""


class CliError(Exception):
    """A user error: printed as one line, exit status 2."""
