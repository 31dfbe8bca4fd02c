#!/usr/bin/env python3
"""The seams of a `ties: auto` run measured against the generator's truth (issue 43).

The sheet index's seam at a found tie is how far the two fitted sheets put the tie's own two
pixels apart. That is the tie's residual: a tie that is itself off is held by the fit and shows
no seam there, while the map does. Here each found tie keeps its pixel on sheet a, the truth
(scripts/make-series' truth.json: every sheet's origin and pixel size) gives the pixel on sheet b
that shows the same place, and gdaltransform through each sheet's georef.vrt (order 1, as the
run wrote it) carries both to the ground: their distance, in the sheets' pixels, is the seam a
person sees at that tie.

Usage: true_seams.py SERIES_FOLDER WORK_FOLDER [--cell]   (WORK_FOLDER holds found-ties.csv and NAME/georef.vrt)
Prints the worst, the mean and how many are over 0.5 px, for the residuals and the true seams;
with --cell, only the true seams' as a table cell ("max / mean (over 0.5)"), or "–" without found ties.
"""
import csv
import json
import math
import os
import subprocess
import sys
from collections import defaultdict


def ground(work, name, pixels):
    """The ground points of `pixels` on sheet `name` through its georef.vrt."""
    text = "".join("%r %r\n" % p for p in pixels)
    out = subprocess.run(["gdaltransform", "-order", "1", os.path.join(work, name, "georef.vrt")],
                         input=text, capture_output=True, text=True, check=True).stdout
    return [tuple(float(v) for v in line.split()[:2]) for line in out.splitlines() if line.strip()]


def main(series, work, cell):
    if cell and not os.path.exists(os.path.join(work, "found-ties.csv")):
        print("–")
        return
    truth = json.load(open(os.path.join(series, "truth.json")))
    sheets, res = truth["sheets"], truth["res"]
    rows = list(csv.DictReader(open(os.path.join(work, "found-ties.csv"))))
    asks = defaultdict(list)  # sheet -> pixels whose ground point is needed
    for r in rows:
        a, b = sheets[r["map_a"]], sheets[r["map_b"]]
        pa, pb = (float(r["x_a"]), float(r["y_a"])), (float(r["x_b"]), float(r["y_b"]))
        x, y = a["x0"] + pa[0] * a["res"], a["y0"] - pa[1] * a["res"]
        seen = ((x - b["x0"]) / b["res"], (b["y0"] - y) / b["res"])
        r["asks"] = [(r["map_a"], len(asks[r["map_a"]])), (r["map_b"], len(asks[r["map_b"]])),
                     (r["map_b"], len(asks[r["map_b"]]) + 1)]
        asks[r["map_a"]].append(pa)
        asks[r["map_b"]] += [pb, seen]
    answers = {name: ground(work, name, pixels) for name, pixels in asks.items()}
    residual, seam = [], []
    for r in rows:
        (ga, gb, gt) = (answers[n][i] for n, i in r["asks"])
        residual.append(math.dist(ga, gb) / res)
        seam.append(math.dist(ga, gt) / res)
    if cell:
        print("%.3f / %.3f (%d)" % (max(seam), sum(seam) / len(seam), sum(x > 0.5 for x in seam)))
        return
    for label, v in (("residual at the found tie (the index's seam)", residual), ("true seam at the found tie", seam)):
        print("%s: max %.3f px, mean %.3f px, %d of %d over 0.5 px" % (label, max(v), sum(v) / len(v), sum(x > 0.5 for x in v), len(v)))


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4) or sys.argv[3:] not in ([], ["--cell"]):
        sys.exit("usage: true_seams.py SERIES_FOLDER WORK_FOLDER [--cell]")
    main(sys.argv[1], sys.argv[2], sys.argv[3:] == ["--cell"])
