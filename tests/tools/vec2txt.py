#!/usr/bin/env python3
"""Flatten a JSON test-vector file into the line format tests/common/vecfile.c reads.

Usage: vec2txt.py INPUT.json OUTPUT.txt LISTKEY

Every element of every list named LISTKEY becomes one record. A record holds
the scalar fields of the element and of every enclosing object (dotted names,
inner names win), as lines "name value"; records end with a blank line.
Strings are written as they are (hex stays hex); lists of scalars are joined
with ','; fields whose values contain newlines (PEM text) are dropped. The
first line is "#count N" so a reader can check it saw every record.
"""
import json
import sys

# Prose that no test reads.
SKIP = {"notes", "header"}


def scalars(obj, prefix, out):
    for k, v in obj.items():
        if k in SKIP:
            continue
        name = prefix + k
        if isinstance(v, dict):
            scalars(v, name + ".", out)
        elif isinstance(v, list):
            if all(not isinstance(x, (dict, list)) for x in v):
                out[name] = ",".join(str(x) for x in v)
        elif isinstance(v, bool):
            out[name] = "true" if v else "false"
        elif v is not None:
            s = str(v)
            if "\n" not in s:
                out[name] = s


def walk(obj, ctx, key, records):
    if isinstance(obj, dict):
        here = dict(ctx)
        scalars(obj, "", here)
        for k, v in obj.items():
            if k == key and isinstance(v, list):
                for el in v:
                    rec = dict(here)
                    if isinstance(el, dict):
                        scalars(el, "", rec)
                    records.append(rec)
            elif isinstance(v, (dict, list)):
                walk(v, here, key, records)
    elif isinstance(obj, list):
        for el in obj:
            walk(el, ctx, key, records)


def main():
    src, dst, key = sys.argv[1:4]
    with open(src, encoding="utf-8") as f:
        data = json.load(f)
    records = []
    walk(data, {}, key, records)
    if not records:
        sys.exit(f"{src}: no records under '{key}'")
    with open(dst, "w", encoding="utf-8") as f:
        f.write(f"#count {len(records)}\n")
        for rec in records:
            for k in sorted(rec):
                f.write(f"{k} {rec[k]}\n")
            f.write("\n")


if __name__ == "__main__":
    main()
