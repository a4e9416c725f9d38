"""A bench's recorded output: the report's lines printed, and written where the command says (`--out`)."""
from __future__ import annotations


def emit(lines: list[str], path: str | None) -> None:
    """Print `lines`; with `path`, write them there too (the file in bench/results that starts with its command)."""
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if path:
        with open(path, "w") as f:
            f.write(text)
