#!/usr/bin/env python3
"""An independent reading of a take's flights, for the tests of `marionette physics check`.

Reads baked frames written by `marionette export --format json` (every joint's and site's world
position per frame) and finds the spans with no support by the rule docs/file-formats.md
gives for the check, written again here from the positions alone: a body point supports the
figure on a frame when it is within 5 cm of its resting height (the 2 % quantile of its heights
over the take), moves slower than 1 m/s (central difference), and rests within 15 cm of the
floor (the lowest resting height); those lengths are for a figure of 1.50 m, scaled by the figure's size
(its lowest to its highest joint or site on the first frame) over 1.50 m. Spans of at
least 0.05 s with no support are printed, one
`FROM TO` line each.

The body points are named on the command line as JOINT, site:SITE, or beyond:SITE:JOINT:METRES
(the site moved that far on along the line from the joint to it: a toe tip at the skin, past
the bone's end by its body's radius); heels, balls, toe tips, knuckles, knees, elbows, pelvis.
For CMU's 01_01 (assimp-testmodels):

    marionette import 01_01.bvh --scale 0.05644444444444444 --skeleton-out s.ron --doc-out d.ron
    marionette export d.ron --sequence 01_01 --format json --out frames.json
    scripts/physics-spans.py frames.json LeftFoot LeftToeBase site:"LeftToeBase end" ...
"""
import json
import math
import sys

HEIGHT, SPEED, REACH, QUANTILE, SHORTEST = 0.05, 1.0, 0.15, 0.02, 0.05


def main():
    data = json.load(open(sys.argv[1]))
    fps = data["fps"]
    frames = data["frames"]
    names = sys.argv[2:]

    def at(f, name):
        if name.startswith("site:"):
            return frames[f]["sites"][name[5:]]
        if name.startswith("beyond:"):
            _, site, joint, metres = name.split(":")
            end = frames[f]["sites"][site]
            base = frames[f]["joints_world"][joint]
            length = math.dist(end, base)
            return [e + (e - b) / length * float(metres) for e, b in zip(end, base)]
        return frames[f]["joints_world"][name]

    first = list(frames[0]["joints_world"].values()) + list(frames[0]["sites"].values())
    size = max(p[1] for p in first) - min(p[1] for p in first)
    k = size / 1.50
    height, speed, reach = HEIGHT * k, SPEED * k, REACH * k
    n = len(frames)
    resting = []
    for name in names:
        heights = sorted(at(f, name)[1] for f in range(n))
        resting.append(heights[round((n - 1) * QUANTILE)])
    floor = min(resting)
    supported = []
    for f in range(n):
        a, b = max(f - 1, 0), min(f + 1, n - 1)
        count = 0
        for i, name in enumerate(names):
            if resting[i] - floor > reach:
                continue
            moving = math.dist(at(a, name), at(b, name)) * fps / max(b - a, 1)
            if at(f, name)[1] - resting[i] <= height and moving <= speed:
                count += 1
        supported.append(count > 0)
    shortest = max(3, math.ceil(SHORTEST * fps))
    f = 0
    while f < n:
        if supported[f]:
            f += 1
            continue
        start = f
        while f < n and not supported[f]:
            f += 1
        if f - start >= shortest:
            print(start, f - 1)


if __name__ == "__main__":
    main()
