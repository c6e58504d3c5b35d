#!/usr/bin/env bash
# Instructions `dateline parse --threads 1` executes on a generated and a
# realistic corpus (see bench-throughput.sh), counted by valgrind's
# callgrind: unlike seconds on a shared VM, the count is the same from one
# run to the next, so a change's cost shows even when the machine is busy.
# The start-up (decoding the embedded gazetteer) is counted on an empty
# input and left out, so the figures are the parse work alone.
#
# Usage: scripts/bench-instructions.sh [--mb N] [--against BIN]
#   --mb N         corpus size (default 2; callgrind runs ~50x slower)
#   --against BIN  also count another dateline build: the figures then read
#                  as a ratio
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$top/../shared}
mb=2 against=
while [ $# -gt 0 ]; do
  case "$1" in
    --mb) mb=$2; shift 2 ;;
    --against) against=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
command -v valgrind >/dev/null || { echo "needs valgrind (Debian package valgrind)" >&2; exit 1; }
target=${CARGO_TARGET_DIR:-$top/target}
(cd "$top" && cargo build --release -q -p dateline -p xtask)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$target/release/xtask" corpus --mb "$mb" --out "$work/generated.txt" > /dev/null
python3 "$top/scripts/realistic-corpus.py" "$shared/eval" "$top/crates/dateline/tests/data/pages" "$mb" "$work/realistic.txt"

# Instructions one run executes.
count() {
  valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$@" 2>&1 >/dev/null \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

for bin in "$target/release/dateline" ${against:+"$against"}; do
  startup=$(count "$bin" parse /dev/null)
  for corpus in generated realistic; do
    total=$(count "$bin" parse --threads 1 "$work/$corpus.txt")
    echo "$bin $corpus $(( (total - startup) / 1000000 ))M instructions (start-up $(( startup / 1000000 ))M left out)"
  done
done
