#!/usr/bin/env bash
# The Python package's tests: builds the abi3 wheel with maturin, installs it
# into a fresh venv with the pinned test requirements, runs its pytest suite
# against the release binary, then the Spark job's test in local[2].
#
# Usage: scripts/test-python.sh [--no-spark]
# Env: CARGO_TARGET_DIR; SPARK_TEST_CAPTIONS (default 100000);
#      SPARK_FIGURES=FILE writes the Spark figures as JSON.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
spark=1
[ "${1:-}" = "--no-spark" ] && spark=0
target=${CARGO_TARGET_DIR:-$top/target}
export CARGO_TARGET_DIR=$target

# Spark 4 needs Java 17 or later.
java_major() { java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1; }
if [ "$spark" = 1 ] && { ! command -v java >/dev/null 2>&1 || [ "$(java_major)" -lt 17 ]; }; then
  apt-get update -qq && apt-get install -y -qq openjdk-17-jre-headless >/dev/null
fi

venv=$target/py-venv
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check -r crates/py/requirements-test.txt

cargo build --release -q -p dateline -p xtask
wheels=$(mktemp -d)
trap 'rm -rf "$wheels"' EXIT
"$venv/bin/maturin" build --quiet --release -m crates/py/Cargo.toml --out "$wheels"
"$venv/bin/pip" install -q --disable-pip-version-check "$wheels"/dateline-*.whl

# pytest exits 5 when it collects nothing: that is a broken suite, not a pass.
run_pytest() {
  local rc=0
  "$venv/bin/python" -m pytest -q -p no:cacheprovider "$@" || rc=$?
  if [ "$rc" = 5 ]; then
    echo "pytest collected no tests in $*" >&2
    return 1
  fi
  return "$rc"
}
run_pytest crates/py/tests
if [ "$spark" = 1 ]; then
  PYSPARK_PYTHON="$venv/bin/python" run_pytest -s examples/spark/test_parse_captions.py
fi
