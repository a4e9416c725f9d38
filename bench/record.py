"""A bench's recorded output: the report's lines printed, and written where the command says (`--out`); its JSON
records, stored xz-compressed (`X.json.xz`, read with `xz -dc` or `read_json`).

A record is named as it always was, `X.json`: `read_json` and `open_record` open `X.json` where it is there, else
`X.json.xz`, so a recorded command naming `bench/results/X.json` still runs; `write_json` writes `X.json.xz` (and
removes a plain `X.json` it replaces). `record_stem` is the name without `.json` / `.json.xz` (its `.txt` beside it).
"""
from __future__ import annotations

import json
import lzma
import os


def emit(lines: list[str], path: str | None) -> None:
    """Print `lines`; with `path`, write them there too (the file in bench/results that starts with its command)."""
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if path:
        with open(path, "w") as f:
            f.write(text)


def emit_table(header: list[str], table, lines: list[str], path: str | None) -> None:
    """`emit` a bench's report: its header lines, then each key of the Counter `table` with its count, a blank
    line, and its per-kernel `lines`."""
    emit(header + [f"{n:4}  {', '.join(key)}" for key, n in sorted(table.items())] + [""] + lines, path)


def record_path(path: str) -> str:
    """The file that holds the record named `path`: `path` itself where it exists, else `path` + ".xz" (or, for a
    name ending in .xz, the plain file without it); `path` where neither exists (opening it says so)."""
    if os.path.exists(path):
        return path
    other = path[:-3] if path.endswith(".xz") else path + ".xz"
    return other if os.path.exists(other) else path


def record_stem(path: str) -> str:
    """`path` without ".xz" and then ".json": bench/results/X.json(.xz) -> bench/results/X."""
    path = path[:-3] if path.endswith(".xz") else path
    return path[:-5] if path.endswith(".json") else path


def open_record(path: str):
    """The record named `path` (plain or xz-compressed: record_path) opened as text."""
    path = record_path(path)
    return lzma.open(path, "rt", encoding="utf-8") if path.endswith(".xz") else open(path, encoding="utf-8")


def read_json(path: str):
    """The JSON record named `path` (plain or xz-compressed)."""
    with open_record(path) as f:
        return json.load(f)


def write_json(path: str, obj, **dump_args) -> str:
    """Write `obj` as JSON (json.dump with `dump_args`) xz-compressed to `path` + ".xz" (`path` where it already ends
    in .xz), through a temporary file renamed into place; a plain file of the same name, now stale, is removed.
    xz's default preset (6: a 6 MB record in about 2 s of CPU, while a run's children compile; `xz -9e` of the
    decompressed file saves about 15% more). The path written."""
    target = path if path.endswith(".xz") else path + ".xz"
    tmp = f"{target}.tmp{os.getpid()}"
    try:
        with lzma.open(tmp, "wt", encoding="utf-8") as f:
            json.dump(obj, f, **dump_args)
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    if os.path.exists(target[:-3]):
        os.unlink(target[:-3])
    return target
