#!/usr/bin/env bash
# Throughput and peak memory of `dateline parse` on two corpora: a generated
# one (`cargo xtask corpus`) and a realistic one (every shared gold caption
# and page fixture, and our own page fixtures, repeated to the same size:
# real layouts, chrome and credit forms, which cost more than generated
# captions). With --baseline, also the Python baseline (../shared/baseline)
# on the same captions in the same run, so the figures read as a ratio.
#
# Usage: scripts/bench-throughput.sh [--mb N] [--against BIN] [--baseline] [--baseline-mb N]
#   --mb N           corpus size for dateline (default 50)
#   --against BIN    also run another dateline binary (an earlier commit's
#                    release build) on the same corpora, one core, in the
#                    same run: the figures then read as a ratio
#   --baseline       also run the baseline (needs a venv with its
#                    requirements: BASELINE_PYTHON, default ../shared/baseline/venv/bin/python)
#   --baseline-mb N  the baseline's share of each corpus (default 1; it runs ~0.03 MB/s)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$top/../shared}
mb=50 baseline=0 baseline_mb=1 against=
while [ $# -gt 0 ]; do
  case "$1" in
    --mb) mb=$2; shift 2 ;;
    --against) against=$2; shift 2 ;;
    --baseline) baseline=1; shift ;;
    --baseline-mb) baseline_mb=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
target=${CARGO_TARGET_DIR:-$top/target}
(cd "$top" && cargo build --release -q -p dateline -p xtask)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$target/release/xtask" corpus --mb "$mb" --out "$work/corpus.txt"
python3 "$top/scripts/realistic-corpus.py" "$shared/eval" "$top/crates/dateline/tests/data/pages" "$mb" "$work/realistic.txt"

# Runs a command, prints "seconds peak_kb".
measure() {
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" > "$work/out.jsonl"
  cat "$work/time"
}
mbps() { python3 -c "print(f'{$1 / $2 / 1e6:.3g}')"; }

read -r empty_s empty_kb < <(measure "$target/release/dateline" parse /dev/null)
echo "start-up (embedded gazetteer, empty input): ${empty_s} s, peak RSS $((empty_kb / 1024)) MB"
for corpus in corpus realistic; do
  bytes=$(stat -c %s "$work/$corpus.txt")
  for threads in 1 2; do
    read -r s kb < <(measure "$target/release/dateline" parse --threads "$threads" "$work/$corpus.txt")
    records=$(wc -l < "$work/out.jsonl")
    echo "$corpus: dateline parse --threads $threads: $bytes bytes, $records records in ${s} s = $(mbps "$bytes" "$s") MB/s end to end, peak RSS $((kb / 1024)) MB"
  done
done

if [ -n "$against" ]; then
  for corpus in corpus realistic; do
    bytes=$(stat -c %s "$work/$corpus.txt")
    read -r s kb < <(measure "$target/release/dateline" parse --threads 1 "$work/$corpus.txt")
    read -r as akb < <(measure "$against" parse --threads 1 "$work/$corpus.txt")
    echo "$corpus, one core: this build ${s} s = $(mbps "$bytes" "$s") MB/s; $against ${as} s = $(mbps "$bytes" "$as") MB/s; ratio $(python3 -c "print(f'{$as / $s:.2f}')")"
  done
fi

if [ "$baseline" = 1 ]; then
  python=${BASELINE_PYTHON:-$shared/baseline/venv/bin/python}
  # The first MB of each corpus, cut at a paragraph break: the baseline
  # and this build on the same text, one core each.
  for corpus in synthetic realistic; do
    file=$work/corpus.txt
    [ "$corpus" = realistic ] && file=$work/realistic.txt
    head -c $((baseline_mb * 1000000)) "$file" | python3 -c '
import sys
text = sys.stdin.read()
print(text[: text.rfind("\n\n")])' > "$work/sample.txt"
    sample_bytes=$(stat -c %s "$work/sample.txt")
    read -r bs bkb < <(measure "$python" "$shared/baseline/baseline.py" "$work/sample.txt")
    read -r ds dkb < <(measure "$target/release/dateline" parse --threads 1 "$work/sample.txt")
    echo "$corpus sample, baseline (spaCy + dateparser + GeoNames): $sample_bytes bytes in ${bs} s = $(mbps "$sample_bytes" "$bs") MB/s, peak RSS $((bkb / 1024)) MB"
    echo "$corpus sample, dateline --threads 1: ${ds} s = $(mbps "$sample_bytes" "$ds") MB/s, peak RSS $((dkb / 1024)) MB"
    echo "$corpus sample, ratio (same captions, one core): $(python3 -c "print(f'{$bs / $ds:.0f}x')")"
  done
fi
