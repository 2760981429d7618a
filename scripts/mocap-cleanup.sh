#!/usr/bin/env bash
# The README's cleanup demonstration: CMU's capture 01_01 (Debian's assimp-testmodels) imported,
# each foot locked over the frames where it stands, re-baked; plots the left ankle's height and
# horizontal speed before and after into docs/mocap-cleanup.png (gnuplot: gnuplot-nox).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v gnuplot >/dev/null || { echo "needs gnuplot: sudo apt-get install gnuplot-nox" >&2; exit 1; }
mkdir -p demo-output
cargo run --release -q -p marionette-bench --example mocap_cleanup -- demo-output/cleanup.tsv
gnuplot <<'PLOT'
set terminal pngcairo size 1100,640 font "DejaVu Sans,11" noenhanced
set output "docs/mocap-cleanup.png"
set datafile separator "\t"
set multiplot layout 2,1 title "CMU 01_01, left ankle: the capture (grey) and re-baked with the feet locked where they stand (blue); locked frames shaded"
set xrange [0:12]
set grid
set style fill transparent solid 0.15 noborder
set ylabel "height (m)"
set y2range [0:1]
unset y2tics
set autoscale y
plot "demo-output/cleanup.tsv" using 1:($10 * 1.0) with boxes lc rgb "#3070c0" notitle axes x1y2, \
     "" using 1:2 with lines lw 2 lc rgb "#999999" title "before", \
     "" using 1:3 with lines lw 1.5 lc rgb "#2060c0" title "after"
set ylabel "horizontal speed (m/s)"
set yrange [0:0.5]
set xlabel "time (s)"
set y2range [0:1]
unset y2tics
plot "demo-output/cleanup.tsv" using 1:($10 * 1.0) with boxes lc rgb "#3070c0" notitle axes x1y2, \
     "" using 1:4 with lines lw 2 lc rgb "#999999" title "before", \
     "" using 1:5 with lines lw 1.5 lc rgb "#2060c0" title "after"
unset multiplot
PLOT
echo "wrote docs/mocap-cleanup.png"
