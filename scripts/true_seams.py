#!/usr/bin/env python3
"""The seams of a `ties: auto` run measured against the generator's truth (issue 43).

The sheet index's seam at a found tie is how far the two fitted sheets put the tie's own two
pixels apart. That is the tie's residual: a tie that is itself off is held by the fit and shows
no seam there, while the map does. Here each found tie keeps its pixel on sheet a, the truth
(scripts/make-series' truth.json: every sheet's origin and pixel size) gives the pixel on sheet b
that shows the same place, and gdaltransform through each sheet's georef.vrt (order 1, as the
run wrote it) carries both to the ground: their distance, in the sheets' pixels, is the seam a
person sees at that tie.

How much a seam shows depends on the picture under it: sheet b's pixels around the tie (13 x 13, in
each band) moved by the seam's vector, against themselves where they are, RMS in grey levels, the
band that changes most. Where the picture is flat across the seam it changes little; for scale,
rounding an 8-bit scan to whole levels alone leaves 0.29 levels RMS (1/sqrt(12)).

Usage: true_seams.py SERIES_FOLDER WORK_FOLDER [--cell]   (WORK_FOLDER holds found-ties.csv and NAME/georef.vrt)
Prints the worst, the mean and how many are over 0.5 px, for the residuals and the true seams, and
how much the seams over 0.5 px change the picture; with --cell, only the true seams' as a table
cell ("max / mean (over 0.5; their picture change at most L levels)"), or "–" without found ties.
"""
import csv
import json
import math
import os
import subprocess
import sys
from collections import defaultdict

import numpy as np
from osgeo import gdal

WINDOW = 6  # half side of the window a seam's picture change is measured over


def ground(work, name, pixels):
    """The ground points of `pixels` on sheet `name` through its georef.vrt."""
    text = "".join("%r %r\n" % p for p in pixels)
    out = subprocess.run(["gdaltransform", "-order", "1", os.path.join(work, name, "georef.vrt")],
                         input=text, capture_output=True, text=True, check=True).stdout
    return [tuple(float(v) for v in line.split()[:2]) for line in out.splitlines() if line.strip()]


def bilinear(band, x, y):
    """`band` (rows x columns) at array coordinates x, y (pixel centres at whole numbers)."""
    x0 = np.clip(np.floor(x).astype(int), 0, band.shape[1] - 2)
    y0 = np.clip(np.floor(y).astype(int), 0, band.shape[0] - 2)
    fx, fy = x - x0, y - y0
    top = band[y0, x0] * (1 - fx) + band[y0, x0 + 1] * fx
    bottom = band[y0 + 1, x0] * (1 - fx) + band[y0 + 1, x0 + 1] * fx
    return top * (1 - fy) + bottom * fy


def picture_change(bands, pixel, vector):
    """RMS grey levels by which the window around `pixel` (file pixel coordinates, edges at whole
    numbers) changes when moved by `vector` (pixels), in the band that changes most."""
    dy, dx = np.mgrid[-WINDOW:WINDOW + 1, -WINDOW:WINDOW + 1]
    x, y = pixel[0] - 0.5 + dx, pixel[1] - 0.5 + dy
    return max(float(np.sqrt(np.mean((bilinear(b, x + vector[0], y + vector[1]) - bilinear(b, x, y)) ** 2))) for b in bands)


def scan_bands(series, name):
    """Sheet `name`'s scan (sheets.csv's input) as float bands, read once."""
    if name not in SCANS:
        inputs = {r["name"]: r["input"] for r in csv.DictReader(open(os.path.join(series, "sheets.csv")))}
        data = gdal.Open(os.path.join(series, inputs[name])).ReadAsArray().astype(float)
        SCANS[name] = data.reshape(-1, *data.shape[-2:])
    return SCANS[name]


SCANS = {}


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
        r["seen"] = seen
    answers = {name: ground(work, name, pixels) for name, pixels in asks.items()}
    residual, seam, change = [], [], []
    for r in rows:
        (ga, gb, gt) = (answers[n][i] for n, i in r["asks"])
        residual.append(math.dist(ga, gb) / res)
        seam.append(math.dist(ga, gt) / res)
        if seam[-1] > 0.5:  # the seam as sheet b's pixels (north up, one size: the made series)
            vector = ((ga[0] - gt[0]) / res, (gt[1] - ga[1]) / res)
            change.append(picture_change(scan_bands(series, r["map_b"]), r["seen"], vector))
    if cell:
        shows = "; their picture change at most %.2f levels" % max(change) if change else ""
        print("%.3f / %.3f (%d%s)" % (max(seam), sum(seam) / len(seam), len(change), shows))
        return
    for label, v in (("residual at the found tie (the index's seam)", residual), ("true seam at the found tie", seam)):
        print("%s: max %.3f px, mean %.3f px, %d of %d over 0.5 px" % (label, max(v), sum(v) / len(v), sum(x > 0.5 for x in v), len(v)))
    if change:
        print("how much the %d true seams over 0.5 px change the picture under them (13 x 13 px, RMS, the band that changes most):"
              " max %.2f, median %.2f grey levels; %d under the 0.29 levels rounding to 8 bits leaves"
              % (len(change), max(change), float(np.median(change)), sum(c < 0.29 for c in change)))


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4) or sys.argv[3:] not in ([], ["--cell"]):
        sys.exit("usage: true_seams.py SERIES_FOLDER WORK_FOLDER [--cell]")
    main(sys.argv[1], sys.argv[2], sys.argv[3:] == ["--cell"])
