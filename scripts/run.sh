#!/usr/bin/env bash
# The main job. Until the editor lands: validate every shipped skeleton, then run the
# `marionette demo` on the built-in humanoid (a posed reach, site positions, FK cost).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-system-packages.sh
cargo build --release --locked -p marionette-cli
bin="${CARGO_TARGET_DIR:-target}/release/marionette"
"$bin" check skeletons/*.ron
"$bin" demo "$@"
