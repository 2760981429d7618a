#!/usr/bin/env bash
# The Python package (crates/python): builds its wheel (a release build: the benchmark's numbers
# are a release build's), installs it in a virtual environment of its own beside the build
# ($CARGO_TARGET_DIR/python-venv, with maturin, pytest and numpy from PyPI when missing) and runs
# its tests, which compare it with the `marionette` command `cargo test` built.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-$PWD/target}"
venv="$target/python-venv"
if ! python3 -c "import ensurepip, venv" >/dev/null 2>&1; then
    scripts/ensure-system-packages.sh python3-venv
fi
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
if ! "$venv/bin/python" -c "import pytest, numpy" >/dev/null 2>&1 || [ ! -x "$venv/bin/maturin" ]; then
    "$venv/bin/python" -m pip install -q --disable-pip-version-check \
        "maturin>=1.9.4,<2" "pytest>=7" "numpy>=1.21"
fi
rm -rf "$target/python-wheels"
"$venv/bin/maturin" build --release --locked --quiet -m crates/python/Cargo.toml \
    --out "$target/python-wheels"
"$venv/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps \
    "$target/python-wheels"/marionette-*.whl
[ -x "$target/debug/marionette" ] || cargo build --locked -p marionette-cli
MARIONETTE_BIN="$target/debug/marionette" "$venv/bin/python" -m pytest -q -p no:cacheprovider \
    crates/python/tests
# What the README says: `pip install ./crates/python` in a clean virtual environment (the build
# shares the target directory, so it reuses the wheel's compilation).
clean="$target/python-clean-venv"
rm -rf "$clean"
python3 -m venv "$clean"
"$clean/bin/python" -m pip install -q --disable-pip-version-check ./crates/python
repo="$PWD"
(cd "$target" && "$clean/bin/python" -c \
    "import marionette as m; print('pip install ./crates/python:', m.Skeleton.load('$repo/skeletons/humanoid.ron'))")
