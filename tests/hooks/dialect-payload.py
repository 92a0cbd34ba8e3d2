#!/usr/bin/env python3
"""dialect-payload.py [SPEC...] : reads the payload on stdin (raw bytes) and prints plain text
(never a verdict, never JSON), one line per SPEC, in argument order:
  @lines    -> newlines=<number of "\n" bytes in the payload>, then ends_with_newline=<true|false>
  @keys     -> keys=<sorted top-level keys, comma-separated>
  PATH      -> PATH=<compact JSON of the value, sorted keys, ASCII>, or "PATH missing"; PATH is
               a dotted path into the payload (e.g. metadata.tool_name)
  len:PATH  -> len:PATH=<UTF-8 byte length of the string value>
  type:PATH -> type:PATH=<str|int|float|bool|null|list|dict> (plus ",empty" for an empty string)
  keys:PATH -> keys:PATH=<sorted keys of the object value, comma-separated>"""
import json
import sys

raw = sys.stdin.buffer.read()
payload = json.loads(raw.decode("utf-8"))
out = []
missing = object()


def get(path):
    cur = payload
    for part in path.split("."):
        if isinstance(cur, dict) and part in cur:
            cur = cur[part]
        else:
            return missing
    return cur


for spec in sys.argv[1:]:
    if spec == "@lines":
        out.append("newlines=%d" % raw.count(b"\n"))
        out.append("ends_with_newline=%s" % ("true" if raw.endswith(b"\n") else "false"))
        continue
    if spec == "@keys":
        out.append("keys=" + ",".join(sorted(payload)))
        continue
    mode, _, path = spec.partition(":") if ":" in spec else ("", "", spec)
    value = get(path)
    if value is missing:
        out.append(spec + " missing")
    elif mode == "len":
        out.append("%s=%d" % (spec, len(value.encode("utf-8"))))
    elif mode == "type":
        name = type(value).__name__ if value is not None else "null"
        out.append("%s=%s%s" % (spec, name, ",empty" if value == "" else ""))
    elif mode == "keys":
        out.append("%s=%s" % (spec, ",".join(sorted(value))))
    else:
        out.append("%s=%s" % (spec, json.dumps(value, separators=(",", ":"), sort_keys=True)))
sys.stdout.write("\n".join(out) + "\n")
