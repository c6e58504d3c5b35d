#!/usr/bin/env bash
# Scale figures of the archive on a generated corpus: ingest time and peak
# memory, archive size per caption, search latency over 1,000 varied
# queries, and the same records in SQLite FTS5 for comparison (same run).
#
# Usage: scripts/bench-archive.sh [--captions N] [--per-file M] [--keep DIR] [--profile release|dev]
#   --captions N   captions to generate (default 100000; the goal is 1,000,000)
#   --per-file M   captions per document file (default 10000): each document
#                  is one store transaction
#   --keep DIR     work in DIR (created, must not exist) and keep it: the
#                  corpus, its documents and the archive, to search again with
#                  target/release/examples/search_latency DIR/archive
#   --profile P    release (default) or dev (opt-level 1, dependencies 2),
#                  where a release build (thin LTO) is too long to make; the
#                  figures are then of the dev build
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
captions=100000 per_file=10000 keep= profile=release
while [ $# -gt 0 ]; do
  case "$1" in
    --captions) captions=$2; shift 2 ;;
    --per-file) per_file=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    --profile) profile=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
target=${CARGO_TARGET_DIR:-$top/target}
case "$profile" in release) dir=release ;; dev) dir=debug ;; *) echo "--profile is release or dev" >&2; exit 2 ;; esac
(cd "$top" && cargo build --profile "$profile" -q -p dateline -p xtask && cargo build --profile "$profile" -q -p archive --example search_latency)
bin=$target/$dir
if [ -n "$keep" ]; then
  if [ -e "$keep" ]; then echo "--keep $keep: it exists; give a new directory" >&2; exit 2; fi
  mkdir -p "$keep"
  work=$(cd "$keep" && pwd)
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi

# The corpus averages ~330 bytes a caption plus the blank line; generate a
# little more than needed, then keep exactly N captions in files of M.
mb=$(( captions * 380 / 1000000 + 1 ))
"$bin/xtask" corpus --mb "$mb" --out "$work/corpus.txt"
mkdir "$work/docs"
awk -v n="$captions" -v m="$per_file" -v dir="$work/docs" '
  BEGIN { RS = ""; ORS = "\n\n" }
  NR > n { exit }
  { file = sprintf("%s/part-%05d.txt", dir, int((NR - 1) / m)); print > file }
' "$work/corpus.txt"
got=$(cat "$work"/docs/*.txt | awk 'BEGIN { RS = "" } END { print NR }')
bytes=$(cat "$work"/docs/*.txt | wc -c)
echo "corpus: $got captions, $(ls "$work/docs" | wc -l) files, $((bytes / 1000000)) MB"

/usr/bin/time -f "%e %M" -o "$work/time" \
  "$bin/dateline" ingest --archive "$work/archive" "$work/docs" > "$work/ingest.out"
read -r s kb < "$work/time"
cat "$work/ingest.out"
echo "ingest: ${s} s ($(python3 -c "print(f'{$got / $s:.0f}')") captions/s), peak RSS $((kb / 1024)) MB"
size=$(du -sb "$work/archive" | cut -f1)
store=$(du -sb "$work/archive/archive.sqlite3" | cut -f1)
echo "archive: $((size / 1000000)) MB ($((size / got)) bytes per caption; store $((store / got)), index $(( (size - store) / got )))"
/usr/bin/time -f "%e %M" -o "$work/time" \
  "$bin/dateline" ingest --archive "$work/archive" "$work/docs" > /dev/null 2>&1
read -r s kb < "$work/time"
echo "re-ingest of the same files (all already present): ${s} s"
"$bin/dateline" check --archive "$work/archive" | tail -1
"$bin/examples/search_latency" "$work/archive" 1000
