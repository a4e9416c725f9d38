"""passes_json.py RECORDS OUT: distill `llvm-tblgen --dump-json` of include/TritonMFMA/Passes.td into the pass registry
Python reads (python/triton_mfma/_native/passes.json, `triton_mfma.ir.native.pass_registry()`).

OUT is a JSON object keyed by pass argument ("mfma-grid-order"), in Passes.td order:
  {"argument", "name" (the TableGen def), "summary", "description" (dedented),
   "options": [{"argument", "cpp_name", "type" (C++), "default" (C++ text), "default_value" (JSON: the default
                as bool / int / float / str where the C++ text is a literal of that kind, else the text),
                "description", "list" (a ListOption)}]}
"""
import json
import re
import sys
import textwrap


def default_value(cpp_type: str, text: str):
    t = text.strip()
    if cpp_type == "bool" and t in ("true", "false"):
        return t == "true"
    if re.fullmatch(r"-?\d+", t) and re.search(r"int|unsigned|long|size_t", cpp_type):
        return int(t)
    if re.fullmatch(r"-?\d+\.\d*([eE][-+]?\d+)?", t) and cpp_type in ("float", "double"):
        return float(t)
    if len(t) >= 2 and t[0] == t[-1] == '"':
        return json.loads(t)  # a C++ string literal without escapes beyond JSON's
    if t == "" and cpp_type == "std::string":
        return ""
    return t


def main(records_path: str, out_path: str) -> None:
    records = json.load(open(records_path))
    passes = {}
    defs = sorted(records["!instanceof"]["Pass"], key=lambda n: int(records[n]["!locs"][0].rsplit(":", 1)[1]))
    for name in defs:
        r = records[name]
        options = []
        for ref in r["options"]:
            o = records[ref["def"]]
            options.append({
                "argument": o["argument"],
                "cpp_name": o["cppName"],
                "type": o["type"],
                "default": o["defaultValue"],
                "default_value": default_value(o["type"], o["defaultValue"]),
                "description": o["description"],
                "list": "ListOption" in o["!superclasses"],
            })
        passes[r["argument"]] = {
            "argument": r["argument"],
            "name": name,
            "summary": r["summary"],
            "description": textwrap.dedent(r["description"]).strip("\n"),
            "options": options,
        }
    with open(out_path, "w") as f:
        json.dump(passes, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
