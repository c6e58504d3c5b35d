#!/usr/bin/env bash
# Load and crash test of `dateline serve` over an archive (loopback only,
# bounded): 32 clients send searches with facets and record pages while a
# writer posts corrections and an ingest runs beside the server; then the
# server is killed with SIGKILL, and `dateline check` must pass with every
# acknowledged correction in the review log. Reports latencies (server-side
# from Server-Timing, and client-side), errors and the server's peak memory.
#
#   scripts/serve-load.sh --archive DIR [--clients 32] [--requests 200] [--corrections 200] [--ingest DIR] [--readers N] [--profile release|dev]
#
# --readers N is passed to `dateline serve` (its search handles; default 4).
#
# BIN=path/to/dateline (and LOAD=path/to/load) runs those builds instead of
# building this checkout, for before/after pairs.
#
# --profile dev measures the dev build (opt-level 1, dependencies 2) where a
# release build (thin LTO) is too long to make.
#
# Build an archive first, e.g. scripts/bench-archive.sh --captions 1000000 --keep /tmp/a1m
# (its archive is /tmp/a1m/archive); work on a copy if it must stay as it is.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
archive= clients=32 requests=200 corrections=200 ingest= profile=release readers=
while [ $# -gt 0 ]; do
  case "$1" in
    --archive) archive=$2; shift 2 ;;
    --clients) clients=$2; shift 2 ;;
    --requests) requests=$2; shift 2 ;;
    --corrections) corrections=$2; shift 2 ;;
    --ingest) ingest=$2; shift 2 ;;
    --readers) readers=$2; shift 2 ;;
    --profile) profile=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
[ -n "$archive" ] || { echo "--archive DIR is required" >&2; exit 2; }
target=${CARGO_TARGET_DIR:-$top/target}
case "$profile" in release) dir=release ;; dev) dir=debug ;; *) echo "--profile is release or dev" >&2; exit 2 ;; esac
if [ -n "${BIN:-}" ]; then
  # A build kept aside (BIN=path/to/dateline, LOAD=path/to/load), to run
  # an earlier build back to back with this one.
  bin=$BIN
  load=${LOAD:-$target/$dir/examples/load}
else
  (cd "$top" && cargo build --profile "$profile" -q -p dateline && cargo build --profile "$profile" -q -p server --example load)
  bin=$target/$dir/dateline
  load=$target/$dir/examples/load
fi
work=$(mktemp -d)
trap 'kill -9 $server 2>/dev/null || true; rm -rf "$work"' EXIT

start=$(date +%s.%N)
"$bin" serve --archive "$archive" --bind 127.0.0.1:0 ${readers:+--readers "$readers"} > "$work/serve.out" 2> "$work/serve.err" &
server=$!
# Wait (bounded) for the URL line.
for _ in $(seq 1 600); do
  grep -q '^dateline serve: http' "$work/serve.out" 2>/dev/null && break
  kill -0 $server 2>/dev/null || { cat "$work/serve.err" >&2; exit 1; }
  sleep 0.1
done
ready=$(date +%s.%N)
url=$(sed -n 's/^dateline serve: \(http[^ ]*\).*/\1/p' "$work/serve.out")
case "$url" in http://127.0.0.1:*) ;; *) echo "not a loopback URL: $url" >&2; exit 1 ;; esac
token=$(cat "$archive/serve.token")
echo "serve: ready in $(python3 -c "print(f'{$ready - $start:.2f}')") s at $url"

ingest_pid=
if [ -n "$ingest" ]; then
  "$bin" ingest --archive "$archive" "$ingest" > "$work/ingest.out" 2>&1 &
  ingest_pid=$!
fi
# The machine is shared: the load average during the run says how much.
(while sleep 2; do cut -d' ' -f1 /proc/loadavg; done) > "$work/loadavg" &
sampler=$!
"$load" "$url" "$token" --clients "$clients" --requests "$requests" \
  --corrections "$corrections" --acked "$work/acked"
kill $sampler 2>/dev/null || true
echo "load average during the run: $(sort -n "$work/loadavg" | sed -n '1p;$p' | paste -sd' ' | sed 's/ / to /')"
peak=$(awk '/VmHWM/ {print $2}' /proc/$server/status)
echo "server peak RSS: $((peak / 1024)) MB"
if [ -n "$ingest_pid" ]; then
  # Kill only once the ingest has committed a document (it loads the
  # archive's dedup keys first), so the kill lands between commits.
  for _ in $(seq 1 3000); do
    grep -q 'caption(s)' "$work/ingest.out" 2>/dev/null && break
    kill -0 "$ingest_pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "ingest beside the server: $(grep -c 'caption(s)' "$work/ingest.out" || true) document(s) committed before the kill"
fi
# The crash: SIGKILL while a last burst of corrections is in flight.
"$load" "$url" "$token" --clients 4 --requests 20 --corrections 100 \
  --acked "$work/acked-burst" > /dev/null &
burst=$!
sleep 0.5
kill -9 $server
wait $burst 2>/dev/null || true
[ -n "$ingest_pid" ] && kill -9 "$ingest_pid" 2>/dev/null || true
wait 2>/dev/null || true
echo "killed the server with SIGKILL during corrections${ingest:+ and an ingest}"
"$bin" check --archive "$archive"
cat "$work/acked" "$work/acked-burst" 2>/dev/null | python3 "$top/scripts/serve-acked.py" "$archive"
