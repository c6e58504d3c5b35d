#!/usr/bin/env bash
# GeoParquet output, timed and sized: `dateline parse` to JSON Lines and to
# GeoParquet on one thread over the same generated captions, the writer
# alone over a million records, and bytes per record of the JSON Lines, CSV
# and GeoParquet exports of one archive of the same captions.
#
# Usage: scripts/bench-parquet.sh [--captions N] [--archive-captions N]
#   --captions N          captions for the parse runs (default 1000000)
#   --archive-captions N  captions ingested for the export sizes (default 100000)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
captions=1000000 archive_captions=100000
while [ $# -gt 0 ]; do
  case "$1" in
    --captions) captions=$2; shift 2 ;;
    --archive-captions) archive_captions=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
target=${CARGO_TARGET_DIR:-$top/target}
(cd "$top" && cargo build --release -q -p dateline -p xtask && cargo build --release -q -p columnar --example write_records)
bin=$target/release/dateline
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# About 330 bytes a caption.
"$target/release/xtask" corpus --mb $((captions * 340 / 1000000 + 1)) --out "$work/raw.txt" >/dev/null
python3 - "$work/raw.txt" "$work/corpus.txt" "$captions" <<'PY'
import sys
paragraphs = open(sys.argv[1], encoding="utf-8").read().split("\n\n")[: int(sys.argv[3])]
open(sys.argv[2], "w", encoding="utf-8").write("".join(p + "\n\n" for p in paragraphs))
PY
head -c $((archive_captions * 340)) "$work/corpus.txt" | python3 -c '
import sys
t = sys.stdin.read(); print(t[: t.rfind("\n\n")])' > "$work/archive.txt"

# Wall seconds, peak RSS in kB, and CPU seconds (user + system: on a shared
# machine the wall time also counts other work's turns on the core).
# measure OUT CMD...: runs CMD with its stdout in OUT, prints "wall kB cpu".
measure() {
  local out=$1
  shift
  /usr/bin/time -f "%e %M %U %S" -o "$work/time" "$@" > "$out"
  read -r e m u s < <(tail -1 "$work/time")
  echo "$e $m $(python3 -c "print(f'{$u + $s:.2f}')")"
}
per() { python3 -c "print(f'{$1 / $2:.0f}')"; }

read -r js jkb jcpu < <(measure "$work/out.jsonl" "$bin" parse --threads 1 "$work/corpus.txt")
records=$(wc -l < "$work/out.jsonl")
read -r ps pkb pcpu < <(measure /dev/null "$bin" parse --threads 1 --format parquet --out "$work/out.parquet" "$work/corpus.txt")
echo "dateline parse --threads 1, $records records: JSON Lines ${js} s wall, ${jcpu} s CPU (peak RSS $((jkb / 1024)) MB)," \
  "GeoParquet ${ps} s wall, ${pcpu} s CPU (peak RSS $((pkb / 1024)) MB)"
echo "  bytes per record: JSON Lines $(per "$(stat -c %s "$work/out.jsonl")" "$records"), GeoParquet $(per "$(stat -c %s "$work/out.parquet")" "$records")"
read -r ws wkb wcpu < <(measure "$work/writer.out" "$target/release/examples/write_records" "$work/corpus.txt" "$work/writer.parquet" 1000000)
echo "  the writer alone: $(cat "$work/writer.out")"
echo "    (the whole process, parsing its 100,000 distinct records included: ${ws} s wall, ${wcpu} s CPU, peak RSS $((wkb / 1024)) MB)"

"$bin" ingest --archive "$work/a" "$work/archive.txt" >/dev/null 2>&1
"$bin" export --archive "$work/a" > "$work/e.jsonl"
"$bin" export --archive "$work/a" --format csv > "$work/e.csv"
"$bin" export --archive "$work/a" --format parquet --out "$work/e.parquet"
n=$(wc -l < "$work/e.jsonl")
echo "export of an archive of $archive_captions captions ($n records), bytes per record:" \
  "JSON Lines $(per "$(stat -c %s "$work/e.jsonl")" "$n"), CSV $(per "$(stat -c %s "$work/e.csv")" "$n")," \
  "GeoParquet $(per "$(stat -c %s "$work/e.parquet")" "$n")"
