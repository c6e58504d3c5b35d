#!/usr/bin/env python3
"""Writes the realistic benchmark corpus: every shared gold caption and page
fixture, and our own page fixtures, repeated to at least MB megabytes.

    realistic-corpus.py SHARED_EVAL OWN_PAGES MB OUT
"""
import glob
import json
import os
import sys

evaldir, own, mb, out = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
parts = []
for name in ("dev", "dev-world", "dev-pages"):
    with open(os.path.join(evaldir, name + ".jsonl"), encoding="utf-8") as f:
        parts.append("\n\n".join(json.loads(l)["text"] for l in f if l.strip()))
pages = sorted(glob.glob(os.path.join(evaldir, "pages*", "page-*.txt")))
pages += sorted(glob.glob(os.path.join(own, "*.txt")))
for page in pages:
    with open(page, encoding="utf-8") as f:
        parts.append(f.read().strip())
unit = ("\n\n".join(parts) + "\n\n").encode("utf-8")
with open(out, "wb") as f:
    for _ in range(int(mb * 1e6 / len(unit)) + 1):
        f.write(unit)
