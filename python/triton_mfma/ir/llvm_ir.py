"""LLVM IR text as make_llir prints it, with a function attribute of the kernel added or removed: how every
waves_per_eu candidate and scheduling strategy of one TTGIR shares one make_llir (Triton's make_llir sets nothing
else from waves_per_eu; test_engine.py checks the patched text equals make_llir's own output).
"""
from __future__ import annotations

import re

_ATTR_GROUP = re.compile(r"^attributes #(\d+) = \{ (.*) \}$", re.MULTILINE)
_KERNEL_DEF = re.compile(r"^define amdgpu_kernel [^\n]*\) (?:[^\n]*?)#(\d+)", re.MULTILINE)


def llir_with_waves(llir: str, w: int) -> str | None:
    """The LLVM IR make_llir gives with waves_per_eu=w, from its w=0 output: the kernel's attribute group gains
    `"amdgpu-waves-per-eu"="w,w"` in LLVM's printing order (enum attributes, then string attributes by key).
    None when that cannot be done exactly (the group is shared, or already has the attribute)."""
    if w == 0:
        return llir
    return llir_with_fn_attr(llir, "amdgpu-waves-per-eu", f"{w},{w}")


def llir_with_fn_attr(llir: str, key: str, value: str) -> str | None:
    """`llir` with the kernel's attribute group gaining the string attribute `"key"="value"` where LLVM prints it
    (enum attributes, then string attributes by key); None where that cannot be done exactly (the group is shared
    with another function, or already has the attribute)."""
    kernels = _KERNEL_DEF.findall(llir)
    if len(kernels) != 1:
        return None
    group = kernels[0]
    if len(re.findall(rf"#{group}\b", llir)) != 2:  # the define and the group itself: nothing else shares it
        return None
    m = next((m for m in _ATTR_GROUP.finditer(llir) if m.group(1) == group), None)
    if m is None or f'"{key}"' in m.group(2):
        return None
    tokens = re.findall(r'"[^"]*"(?:="[^"]*")?|[^\s"(]+(?:\([^)]*\))?', m.group(2))
    enums = [t for t in tokens if not t.startswith('"')]
    strings = [t for t in tokens if t.startswith('"')]
    strings.append(f'"{key}"="{value}"')
    strings.sort(key=lambda t: t.split("=", 1)[0].strip('"'))
    line = f"attributes #{group} = {{ {' '.join(enums + strings)} }}"
    return llir[:m.start()] + line + llir[m.end():]


def llir_without_waves(llir: str, w: int) -> str | None:
    """The inverse of `llir_with_waves`: make_llir's w=0 output from its output at waves_per_eu=w (None where the
    attribute is not there exactly once as make_llir prints it)."""
    token = f' "amdgpu-waves-per-eu"="{w},{w}"'
    if w == 0:
        return llir
    if llir.count(token) != 1:
        return None
    return llir.replace(token, "")
