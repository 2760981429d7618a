#!/usr/bin/env bash
# The cleanup demonstration of docs/commands.md, as calls of the commands: CMU's capture 01_01 (Debian's
# assimp-testmodels) imported, its foot contacts found and locked (`marionette cleanup`), both
# versions exported as JSON frames with world positions, and the left ankle's height and
# horizontal speed before and after plotted into docs/mocap-cleanup.png, the locked frames
# shaded. Needs gnuplot (gnuplot-nox) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v gnuplot >/dev/null || { echo "needs gnuplot: sudo apt-get install gnuplot-nox" >&2; exit 1; }
out=demo-output/cleanup
mkdir -p "$out"
cargo build --release -q -p marionette-cli
m="$(cargo metadata --format-version 1 --no-deps --locked |
    sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')/release/marionette"
# 01_01's units are about 5.6 cm: the figure stands 1.7 m tall.
"$m" import /usr/share/assimp/models/BVH/01_01.bvh --scale 0.056 \
    --skeleton-out "$out/01_01.skeleton.ron" --doc-out "$out/01_01.marionette.ron"
# Exit status 3 (some contact could not be held) still writes the document and the report.
status=0
"$m" cleanup "$out/01_01.marionette.ron" --sequence 01_01 --doc-out "$out/01_01-clean.marionette.ron" \
    --json > "$out/report.json" || status=$?
[ "$status" = 0 ] || [ "$status" = 3 ] || exit "$status"
"$m" cleanup "$out/01_01.marionette.ron" --sequence 01_01 --doc-out "$out/01_01-clean.marionette.ron" \
    | sed -n '1p;/largest step/p;/could not be held/,$p' || true
"$m" export "$out/01_01.marionette.ron" --sequence 01_01 --format json --out "$out/before.json"
"$m" export "$out/01_01-clean.marionette.ron" --sequence 01_01 --format json --out "$out/after.json"
python3 - "$out" <<'PY'
import json, math, sys
out = sys.argv[1]
fps = 120.0
def ankle(name):
    frames = json.load(open(f"{out}/{name}.json"))["frames"]
    return [f["joints_world"]["LeftFoot"] for f in frames]
def speeds(p):
    n = len(p)
    def at(f):
        a, b = max(f - 2, 0), min(f + 2, n - 1)
        return math.hypot(p[b][0] - p[a][0], p[b][2] - p[a][2]) * fps / max(b - a, 1)
    return [at(f) for f in range(n)]
before, after = ankle("before"), ankle("after")
vb, va = speeds(before), speeds(after)
report = json.load(open(f"{out}/report.json"))
locked = [0] * len(before)
for c in report["contacts"]:
    if c["point"] == "LeftFoot" and c["gave_way_to"] is None:
        for f in range(c["frames"][0], c["frames"][1] + 1):
            locked[f] = 1
with open(f"{out}/left-ankle.tsv", "w") as t:
    for f in range(len(before)):
        t.write(f"{f / fps:.4f}\t{before[f][1]:.5f}\t{after[f][1]:.5f}\t{vb[f]:.5f}\t{va[f]:.5f}\t{locked[f]}\n")
PY
gnuplot <<PLOT
set terminal pngcairo size 1100,640 font "DejaVu Sans,11" noenhanced
set output "docs/mocap-cleanup.png"
set datafile separator "\t"
set multiplot layout 2,1 title "CMU 01_01, left ankle: the capture (grey) and after marionette cleanup (blue); its locked frames shaded"
set xrange [0:12]
set grid
set style fill transparent solid 0.15 noborder
set ylabel "height (m)"
set y2range [0:1]
unset y2tics
plot "$out/left-ankle.tsv" using 1:6 with boxes lc rgb "#3070c0" notitle axes x1y2, \
     "" using 1:2 with lines lw 2 lc rgb "#999999" title "before", \
     "" using 1:3 with lines lw 1.5 lc rgb "#2060c0" title "after"
set ylabel "horizontal speed (m/s)"
set yrange [0:1.5]
set xlabel "time (s)"
plot "$out/left-ankle.tsv" using 1:6 with boxes lc rgb "#3070c0" notitle axes x1y2, \
     "" using 1:4 with lines lw 2 lc rgb "#999999" title "before", \
     "" using 1:5 with lines lw 1.5 lc rgb "#2060c0" title "after"
unset multiplot
PLOT
echo "wrote docs/mocap-cleanup.png"
