#!/usr/bin/env bash
# Scores `dateline parse` on the shared dev gold set with the shared scorer.
# Usage: scripts/score-dev.sh [extra score.py args, e.g. --misses or --json]
# Env: DATELINE (binary, default target/release/dateline), SHARED (default ../shared).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$top/../shared}
bin=${DATELINE:-${CARGO_TARGET_DIR:-$top/target}/release/dateline}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -c '
import json, sys
for line in open(sys.argv[1], encoding="utf-8"):
    if line.strip():
        print(json.loads(line)["text"] + "\n")
' "$shared/eval/dev.jsonl" > "$tmp/dev.txt"
"$bin" parse ${GAZETTEER:+--gazetteer "$GAZETTEER"} "$tmp/dev.txt" > "$tmp/pred.jsonl"
python3 "$shared/eval/score.py" --gold "$shared/eval/dev.jsonl" --pred "$tmp/pred.jsonl" "$@"
