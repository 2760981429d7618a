#!/usr/bin/env bash
# Makes the props of assets/props/ with Blender (Debian's `blender`, 3.4) from
# scripts/make-props.py, headless. The files are in the repository; run this to make them again.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p assets/props
blender -b --factory-startup --python scripts/make-props.py -- "$PWD/assets/props" >/dev/null
ls -l assets/props/*.glb
