#!/usr/bin/env bash
# Builds what the editor's scripts run, and nothing more: the editor (`marionette-editor`) and
# the command (`marionette`), in the dev profile the tests share (dependencies optimised; the same
# features, so scripts/test.sh builds only what the tests add). Prints the folder the binaries
# are in (the target directory, wherever CARGO_TARGET_DIR puts it); cargo's own output goes to
# standard error.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --locked -p marionette-editor --bin marionette-editor -p marionette-cli --bin marionette >&2
target_dir="$(cargo metadata --format-version 1 --no-deps --locked |
    sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
echo "$target_dir/debug"
