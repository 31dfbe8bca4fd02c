#!/usr/bin/env python3
"""The error of a tegula match fit against the true transform, over the sheet.

Usage: match_error.py POINTS
       match_error.py POINTS --truth H11,H12,H13,H21,H22,H23,H31,H32,H33 --size WIDTH HEIGHT

POINTS is a QGIS .points file written by `tegula match` or a pipeline's `match:` (match.points),
its ground in any CRS its `#CRS:` line names (carried into EPSG:3857 by GDAL's osr, i.e. PROJ).
The reference is the 1689 sheet as the tests and the bench make it: 2700 x 1350 pixels of 100 m in
EPSG:3857 from (400000, 7100000).

The truth is a homography from scan pixels to reference pixels (GDAL's convention, rows down),
row by row, comma-separated (one argument, so that a negative number is not read as an option),
for a WIDTH x HEIGHT scan. Without --truth it is the bench's (scripts/bench-match):
reference pixel (u, v) -> scan pixel  s R(theta) (u - 1350, v - 675) + (1922, 1301.5) with s = 1.3,
theta = 15 degrees, on a 3844 x 2603 scan.

The homography scan -> reference pixel through the points (least squares, DLT on normalised
points, numpy's SVD) is compared with the truth on a 41 x 41 grid over the scan, where the truth
puts the sheet: prints "rms R worst W" in scan pixels, as MatchFixtures.error measures the
tests' fits.
"""
import argparse

import numpy as np
from osgeo import osr

REF_W, REF_H, LEFT, TOP, RES = 2700, 1350, 400000.0, 7100000.0, 100.0


def bench_truth():
    s, t = 1.3, np.radians(15)
    forward = np.array([[s * np.cos(t), -s * np.sin(t), 0], [s * np.sin(t), s * np.cos(t), 0], [0, 0, 1]])
    forward = np.array([[1, 0, 1922], [0, 1, 1301.5], [0, 0, 1]]) @ forward @ np.array([[1, 0, -1350], [0, 1, -675], [0, 0, 1]])
    return np.linalg.inv(forward), (3844, 2603)


def normaliser(p):
    c = p.mean(axis=0)
    k = np.sqrt(2) / np.mean(np.linalg.norm(p - c, axis=1))
    return np.array([[k, 0, -k * c[0]], [0, k, -k * c[1]], [0, 0, 1]])


def homography(a, b):
    na, nb = normaliser(a), normaliser(b)
    ah = (na @ np.c_[a, np.ones(len(a))].T).T
    bh = (nb @ np.c_[b, np.ones(len(b))].T).T
    rows = []
    for (x, y, _), (u, v, _) in zip(ah, bh):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y, -u])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y, -v])
    h = np.linalg.svd(np.array(rows))[2][-1].reshape(3, 3)
    return np.linalg.inv(nb) @ h @ na


def apply(h, p):
    q = (h @ np.c_[p, np.ones(len(p))].T).T
    return q[:, :2] / q[:, 2:]


def read_points(path):
    lines = open(path).read().splitlines()
    crs = osr.SpatialReference()
    crs.SetFromUserInput(lines[0][len("#CRS:"):].strip() if lines[0].startswith("#CRS:") else "EPSG:3857")
    crs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    mercator = osr.SpatialReference()
    mercator.ImportFromEPSG(3857)
    mercator.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    to_mercator = osr.CoordinateTransformation(crs, mercator)
    rows = [line.split(",") for line in lines if line[:1] not in "#m" and line.strip()]
    ground = np.array([to_mercator.TransformPoint(float(r[0]), float(r[1]))[:2] for r in rows])
    scan = np.array([[float(r[2]), -float(r[3])] for r in rows])  # .points rows are negative
    return scan, np.c_[(ground[:, 0] - LEFT) / RES, (TOP - ground[:, 1]) / RES]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("points")
    parser.add_argument("--truth", type=lambda t: [float(v) for v in t.split(",")])
    parser.add_argument("--size", type=int, nargs=2)
    args = parser.parse_args()
    if args.truth and (len(args.truth) != 9 or not args.size):
        parser.error("--truth takes nine numbers, comma-separated, and needs --size")
    truth, (w, h) = (np.array(args.truth).reshape(3, 3), args.size) if args.truth else bench_truth()
    scan, ref = read_points(args.points)
    fitted = homography(scan, ref)
    g = np.array([[w * i / 40, h * j / 40] for i in range(41) for j in range(41)])
    on_sheet = apply(truth, g)
    keep = (on_sheet[:, 0] >= 0) & (on_sheet[:, 0] <= REF_W) & (on_sheet[:, 1] >= 0) & (on_sheet[:, 1] <= REF_H)
    g = g[keep]
    e = np.linalg.norm(apply(np.linalg.inv(truth), apply(fitted, g)) - g, axis=1)
    print(f"rms {np.sqrt(np.mean(e * e)):.3f} worst {e.max():.3f}")


if __name__ == "__main__":
    main()
