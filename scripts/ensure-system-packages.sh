#!/usr/bin/env bash
# Installs the Debian packages Marionette needs when they are missing (as root, or with sudo):
# a C toolchain for the build (it also compiles ufbx, the FBX reader); the X11 and Vulkan libraries the editor loads at run time; Xvfb and
# Mesa's software Vulkan driver (lavapipe), which run the editor without a display or GPU in the
# end-to-end test; the CMU motion-capture BVH files and the skinned FBX files of
# assimp-testmodels, which the tests read from /usr/share/assimp/models. Usage: scripts/ensure-system-packages.sh [extra packages...]
set -euo pipefail

wanted=(
    gcc pkg-config
    libx11-6 libxcursor1 libxrandr2 libxi6 libxkbcommon-x11-0 libvulkan1
    xvfb xauth mesa-vulkan-drivers
    assimp-testmodels
    "$@"
)
missing=()
for pkg in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing missing system packages: ${missing[*]}"
    sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if ! command -v cargo >/dev/null 2>&1; then
    echo "error: cargo is not on PATH; install the Rust toolchain (1.95 or newer) first" >&2
    exit 1
fi
