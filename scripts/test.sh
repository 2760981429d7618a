#!/usr/bin/env bash
# Every test: unit, property (proptest), golden and command-line tests, the benchmarks run once
# each as smoke tests, and the doc tests.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-system-packages.sh
cargo test --workspace --all-targets --locked
cargo test --workspace --doc --locked
