#!/usr/bin/env bash
# The timeline pictures of docs/editor.md: plays scripts/timeline-replay.ron in the editor under Xvfb
# (docs/timeline.png, demo-output/timeline/frame-NN.png, demo-output/timeline.marionette.ron),
# bakes the saved document, then crops the front view out of every other frame into
# docs/timeline-preview.gif and a strip of five frames, docs/timeline-strip.png (ImageMagick).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v convert >/dev/null && convert -version | grep -q ImageMagick || {
    echo "needs ImageMagick: sudo apt-get install imagemagick" >&2
    exit 1
}
bin="$(scripts/build-editor.sh)"
mkdir -p demo-output/timeline
XDG_DATA_HOME="$PWD/demo-output/data" MARIONETTE_NO_NATIVE_DIALOGS=1 \
    xvfb-run -a -s "-screen 0 1280x800x24" "$bin"/marionette-editor \
    --replay scripts/timeline-replay.ron
"$bin"/marionette bake demo-output/timeline.marionette.ron --sequence "Sequence 1" \
    --out demo-output/timeline.frames.json
# The front view at 1280×800: x 300–970, y 24–456; the figure's middle third.
crop="300x432+485+24"
convert -delay 12 -loop 0 demo-output/timeline/frame-*.png -crop "$crop" +repage \
    -resize 50% docs/timeline-preview.gif
convert demo-output/timeline/frame-{00,06,12,18,24}.png -crop "$crop" +repage \
    -resize 60% +append docs/timeline-strip.png
echo "Wrote docs/timeline.png, docs/timeline-preview.gif and docs/timeline-strip.png"
