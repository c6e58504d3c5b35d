#!/usr/bin/env bash
# Fuzzes `dateline serve`'s API with requests generated from its own
# OpenAPI document (schemathesis, from PyPI, in a virtualenv outside the
# repository), on loopback, with the token so writes are exercised too.
# Fails when any answer is a 5xx or breaks the documented schema.
#
#   scripts/serve-fuzz.sh [--archive DIR] [--venv DIR] [--examples N] [--profile release|dev]
#
# Without --archive, a small archive of generated captions is made (and
# removed afterwards); the server works on it, so run it on a copy of an
# archive that must stay as it is (corrections are written).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
archive= venv=${TMPDIR:-/tmp}/dateline-schemathesis examples=50 profile=release
while [ $# -gt 0 ]; do
  case "$1" in
    --archive) archive=$2; shift 2 ;;
    --venv) venv=$2; shift 2 ;;
    --examples) examples=$2; shift 2 ;;
    --profile) profile=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
case "$profile" in release) dir=release ;; dev) dir=debug ;; *) echo "--profile is release or dev" >&2; exit 2 ;; esac
target=${CARGO_TARGET_DIR:-$top/target}
(cd "$top" && cargo build --profile "$profile" -q -p dateline -p xtask)
bin=$target/$dir/dateline
[ -x "$venv/bin/schemathesis" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install -q schemathesis; }
work=$(mktemp -d)
server=
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
if [ -z "$archive" ]; then
  archive=$work/archive
  "$target/$dir/xtask" corpus --mb 1 --seed 12 --out "$work/corpus.txt" 2>/dev/null
  "$bin" ingest --archive "$archive" "$work/corpus.txt" > /dev/null
fi
"$bin" serve --archive "$archive" --bind 127.0.0.1:0 > "$work/serve.out" 2> "$work/serve.err" &
server=$!
for _ in $(seq 1 300); do
  grep -q '^dateline serve: http' "$work/serve.out" 2>/dev/null && break
  kill -0 "$server" 2>/dev/null || { cat "$work/serve.err" >&2; exit 1; }
  sleep 0.1
done
url=$(sed -n 's/^dateline serve: \(http[^ ]*\).*/\1/p' "$work/serve.out")
case "$url" in http://127.0.0.1:*) ;; *) echo "not a loopback URL: $url" >&2; exit 1 ;; esac
token=$(cat "$archive/serve.token")
# From the scratch directory: schemathesis keeps its state in .schemathesis/.
cd "$work"
"$venv/bin/schemathesis" run "${url}api/openapi.json" \
  --checks not_a_server_error,response_schema_conformance,status_code_conformance \
  --max-examples "$examples" --header "Authorization: Bearer $token" --no-color
