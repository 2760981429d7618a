#!/usr/bin/env bash
# The physics assistant from scratch (docs/physics.md): the humanoid weighed; a hand-keyed jump
# (crates/cli/tests/data/jump.marionette.ron) checked, fixed to fly at g and checked again; the
# same check on a real capture (CMU 01_01, Debian's assimp-testmodels); a swinging jump's
# momentum held and a lean balanced; then the pictures, the editor under Xvfb playing
# scripts/physics-replay.ron with View > Physics on.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-system-packages.sh
bin="$(scripts/build-editor.sh)"
m="$bin"/marionette
out=demo-output/physics
mkdir -p "$out/skeletons" docs/physics
cp skeletons/humanoid.ron "$out/skeletons/"
for doc in jump jump-swing lean carry; do
    cp "crates/cli/tests/data/$doc.marionette.ron" "$out/"
done
"$m" physics masses skeletons/humanoid.ron
# Exit status 3: something flagged (still a report).
checked() { "$m" physics check "$@" || [ $? = 3 ]; }
checked "$out/jump.marionette.ron" --sequence jump
"$m" physics fix "$out/jump.marionette.ron" --sequence jump --span 16..35 --ballistic \
    --out "$out/fixed.marionette.ron"
checked "$out/fixed.marionette.ron" --sequence jump
# The swinging jump: its flight's angular momentum held as well; the lean balanced.
"$m" physics fix "$out/jump-swing.marionette.ron" --sequence jump --span 15..33 --ballistic \
    --momentum --mark 24 --out "$out/swing-fixed.marionette.ron"
checked "$out/lean.marionette.ron" --sequence lean
"$m" physics fix "$out/lean.marionette.ron" --sequence lean --span 0..40 --standing \
    --out "$out/lean-fixed.marionette.ron"
checked "$out/lean-fixed.marionette.ron" --sequence lean
# A stage: figure B carries a 20 kg ball from frame 12 to 35, counted in its centre of mass.
checked "$out/carry.marionette.ron" --sequence sway --figure B
checked /usr/share/assimp/models/BVH/01_01.bvh
run=("$bin"/marionette-editor --replay scripts/physics-replay.ron)
if [ -z "${DISPLAY:-}" ]; then
    run=(xvfb-run -a -s "-screen 0 1280x800x24" "${run[@]}")
fi
XDG_DATA_HOME="$PWD/demo-output/data" MARIONETTE_NO_NATIVE_DIALOGS=1 "${run[@]}"
echo "Wrote docs/physics/1-standing.png … 6-stage.png"
