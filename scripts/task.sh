#!/usr/bin/env bash
# The one entry point behind the npm scripts: every task does its own set-up
# (Node 22, npm dependencies, the native addon) so that each README command
# works on a fresh clone.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/lib/node.sh
source "$ROOT/scripts/lib/node.sh"
ensure_node "$ROOT"

install_deps() {
  if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    echo "cowboy: installing npm dependencies" >&2
    # `npm install` rather than `npm ci`: it follows package-lock.json just the same, but
    # tolerates optional platform packages (e.g. biome's android builds) that the
    # registry does not serve, which `npm ci` treats as a lock mismatch.
    npm install --no-audit --no-fund --loglevel=error
  fi
}

build_native() {
  echo "cowboy: building the native addon (@cowboy/native, release)" >&2
  (cd crates/napi && npx napi build --platform --release --js index.js --dts index.d.ts >&2)
}

# Python test dependencies (pytest; the Python client's coincurve and pycryptodome), from PyPI.
ensure_python_deps() {
  if ! python3 -c "import pytest, coincurve, Crypto, blake3" 2>/dev/null; then
    echo "cowboy: installing Python test dependencies from PyPI" >&2
    python3 -m pip install --quiet --disable-pip-version-check "pytest>=8,<9" "coincurve>=21,<22" "pycryptodome>=3.20" "blake3>=1,<2"
  fi
}

setup() {
  install_deps
  build_native
}

task="${1:-help}"
shift || true
case "$task" in
  setup) setup ;;
  build-native) install_deps; build_native ;;
  test)
    setup
    echo "cowboy: cargo test (workspace)" >&2
    cargo test --workspace --quiet
    echo "cowboy: pytest (PVM stdlib against CPython; the Python client)" >&2
    ensure_python_deps
    python3 -m pytest -q -p no:cacheprovider crates/pvm-stdlib/tests
    (cd python && python3 -m pytest -q -p no:cacheprovider tests)
    echo "cowboy: vitest" >&2
    npx vitest run "$@"
    ;;
  lint)
    setup # tsc needs the addon's generated index.d.ts
    npx biome check .
    npx tsc -p tsconfig.json
    cargo fmt --all --check
    cargo clippy --workspace --all-targets --quiet -- -D warnings
    ;;
  bench) setup; node bench/run.ts "$@" ;;
  devnet)
    setup
    # The single-node devnet in the foreground (Ctrl-C stops it); options after `--`,
    # e.g. `npm run devnet -- --block-time 500 --reset`.
    exec node ts/node/src/cowboyd.ts "$@"
    ;;
  cowboy) setup; exec node ts/cli/bin/cowboy.js "$@" ;;
  *) echo "usage: scripts/task.sh setup|build-native|test|lint|bench|devnet|cowboy" >&2; exit 2 ;;
esac
