#!/usr/bin/env bash
# Every test: unit, property (proptest), golden and command-line tests, the benchmarks run once
# each as smoke tests, and the doc tests. The Khronos glTF validator (npm, locked in
# tools/gltf-validator) checks the glTF exports. Then the Python package: its wheel built and
# installed in a virtual environment of its own, and its tests (scripts/python-test.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-system-packages.sh
if ! command -v npm >/dev/null 2>&1; then
    sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends nodejs npm
fi
npm ci --prefix tools/gltf-validator --no-audit --no-fund --silent
cargo test --workspace --all-targets --locked
cargo test --workspace --doc --locked
scripts/python-test.sh
