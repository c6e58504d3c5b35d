#!/usr/bin/env bash
# Scores `dateline parse` on every shared gold set: the caption sets (dev,
# dev-world, dev-pages) field by field, and the page fixtures (pages,
# pages-world) on segmentation, the way the shared scorer defines both.
# Usage: scripts/score-all.sh [--misses SET]   (SET: dev, dev-world or dev-pages)
# Env: DATELINE (binary, default target/release/dateline), SHARED (default ../shared).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$top/../shared}
bin=${DATELINE:-${CARGO_TARGET_DIR:-$top/target}/release/dateline}
misses=""
[ "${1:-}" = "--misses" ] && misses=${2:?--misses takes a set name}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for set in dev dev-world dev-pages; do
  gold="$shared/eval/$set.jsonl"
  python3 -c '
import json, sys
for line in open(sys.argv[1], encoding="utf-8"):
    if line.strip():
        print(json.loads(line)["text"] + "\n")
' "$gold" > "$tmp/$set.txt"
  "$bin" parse "$tmp/$set.txt" > "$tmp/$set.pred"
  if [ "$set" = "$misses" ]; then
    python3 "$shared/eval/score.py" --gold "$gold" --pred "$tmp/$set.pred" --misses
  else
    printf '%-10s %s\n' "$set" "$(python3 "$shared/eval/score.py" --gold "$gold" --pred "$tmp/$set.pred" \
      | awk '{s = s sprintf("%s %s  ", $1, $2)} END {print s}')"
  fi
done
for dir in pages pages-world; do
  mkdir -p "$tmp/$dir"
  for page in "$shared/eval/$dir"/page-*.txt; do
    "$bin" parse --unique "$page" > "$tmp/$dir/$(basename "$page" .txt).jsonl"
  done
  printf '%-10s %s\n' "$dir" "$(python3 "$shared/eval/score.py" --pages "$shared/eval/$dir" --pred-dir "$tmp/$dir" | head -n1)"
done
