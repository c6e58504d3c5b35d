#!/usr/bin/env bash
# The Python package's tests: builds the abi3 wheel with maturin, installs it
# into a fresh venv with the pinned test requirements, runs its pytest suite
# against the release binary, then the Spark job's test in local[2].
# Each step's wall time is printed at the end (CI's budget is in minutes).
#
# Usage: scripts/test-python.sh [--no-spark] [--dev]
#   --dev  test debug builds (the workspace as `cargo test --workspace`
#          built it, a dev-profile wheel): what CI checks is records, not
#          speed, and release builds with LTO cost minutes. The figures
#          (captions per second) come from the release run.
# Env: CARGO_TARGET_DIR; DATELINE_VENV (default $CARGO_TARGET_DIR/py-venv,
#      recreated each run); SPARK_TEST_CAPTIONS (default 100000);
#      SPARK_FIGURES=FILE writes the Spark figures as JSON.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
spark=1 profile=release
for arg in "$@"; do
  case "$arg" in
    --no-spark) spark=0 ;;
    --dev) profile=dev ;;
    *) echo "unknown option $arg" >&2; exit 2 ;;
  esac
done
target=${CARGO_TARGET_DIR:-$top/target}
export CARGO_TARGET_DIR=$target
venv=${DATELINE_VENV:-$target/py-venv}

timings=()
step() { # step NAME COMMAND...: runs it and keeps its wall time
  local name=$1 start=$SECONDS
  shift
  "$@"
  timings+=("$(printf '%-28s %4d s' "$name" $((SECONDS - start)))")
}
report() {
  echo "test-python.sh wall times:"
  printf '  %s\n' "${timings[@]}"
}
trap report EXIT

# What a fresh Debian machine lacks: the venv module (python3-venv) and,
# for Spark 4 (which needs Java 17 or later), a JRE.
java_major() { java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1; }
apt=()
python3 -c 'import ensurepip, venv' 2>/dev/null || apt+=(python3-venv)
if [ "$spark" = 1 ] && { ! command -v java >/dev/null 2>&1 || [ "$(java_major)" -lt 17 ]; }; then
  apt+=(openjdk-17-jre-headless)
fi
if [ ${#apt[@]} -gt 0 ]; then
  step "apt-get install" bash -c "apt-get update -qq && apt-get install -y -qq ${apt[*]} >/dev/null"
fi

# The wheel reuses the workspace's build only if maturin's resolution of
# crates/py (alone) gives every dependency the features the workspace's does;
# crates/py/Cargo.toml names them. A drift would compile most of the tree
# again (minutes in CI), so it fails here, naming the packages.
resolved() { # resolved CARGO-TREE-ARGS...: each package with its features
  cargo tree -q "$@" --prefix none -f '{p} {f}' | sed 's/ (\*)$//; s/ (proc-macro)$//' | sort -u
}
drift=$(comm -13 <(resolved --workspace -e normal,build,dev) <(resolved -p dateline-py -e normal,build))
if [ -n "$drift" ]; then
  echo "crates/py resolves these with other features than the workspace;" >&2
  echo "name the workspace's features in crates/py/Cargo.toml:" >&2
  echo "$drift" >&2
  exit 1
fi

rm -rf "$venv"
python3 -m venv "$venv"
step "pip install (test deps)" "$venv/bin/pip" install -q --disable-pip-version-check -r crates/py/requirements-test.txt

if [ "$profile" = release ]; then
  export DATELINE_PROFILE_DIR=release
else
  export DATELINE_PROFILE_DIR=debug
fi
if [ "$profile" = release ]; then
  step "cargo build --release" cargo build --release -q -p dateline -p xtask
else
  # The workspace with its tests, as `cargo test --workspace` built it: the
  # same features everywhere, so nothing it built is compiled again.
  step "cargo build (workspace, dev)" cargo build -q --workspace --all-targets
fi
wheels=$(mktemp -d)
trap 'rm -rf "$wheels"; report' EXIT
step "maturin build ($profile wheel)" "$venv/bin/maturin" build --quiet --profile "$profile" -m crates/py/Cargo.toml --out "$wheels"
step "pip install (wheel)" "$venv/bin/pip" install -q --disable-pip-version-check "$wheels"/dateline-*.whl

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
step "pytest crates/py/tests" run_pytest crates/py/tests
if [ "$spark" = 1 ]; then
  export PYSPARK_PYTHON="$venv/bin/python"
  step "pytest spark (${SPARK_TEST_CAPTIONS:-100000})" run_pytest -s examples/spark/test_parse_captions.py
fi
