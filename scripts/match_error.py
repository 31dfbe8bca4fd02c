#!/usr/bin/env python3
"""The error of a tegula match fit against the bench's true transform, over the sheet.

Usage: match_error.py POINTS   (a QGIS .points file written by `tegula match` for scripts/bench-match)

The bench's truth: reference pixel (u, v) -> scan pixel  s R(theta) (u - 1350, v - 675) + (1922, 1301.5)
with s = 1.3, theta = 15 degrees; the reference has 100 m pixels in EPSG:3857 from (400000, 7100000).
The homography scan -> reference pixel through the points (least squares, DLT on normalised points) is
compared with the truth's inverse on a 41 x 41 grid over the 3844 x 2603 scan, where the truth puts the
sheet: prints "rms R worst W" in scan pixels, as MatchFixtures.error measures the tests' fits.
"""
import sys

import numpy as np

S, T = 1.3, np.radians(15)
R = np.array([[np.cos(T), -np.sin(T)], [np.sin(T), np.cos(T)]])
W, H = 3844, 2603


def truth(uv):
    return (S * (R @ (uv - [1350, 675]).T)).T + [1922, 1301.5]


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


def main():
    rows = [line.split(",") for line in open(sys.argv[1]) if line[:1] not in "#m" and line.strip()]
    ground = np.array([[float(r[0]), float(r[1])] for r in rows])
    scan = np.array([[float(r[2]), -float(r[3])] for r in rows])  # .points rows are negative
    ref = np.c_[(ground[:, 0] - 400000) / 100, (7100000 - ground[:, 1]) / 100]
    h = homography(scan, ref)
    g = np.array([[W * i / 40, H * j / 40] for i in range(41) for j in range(41)])
    t_inv = np.linalg.inv(S * R)
    on_sheet = (t_inv @ (g - [1922, 1301.5]).T).T + [1350, 675]
    keep = (on_sheet[:, 0] >= 0) & (on_sheet[:, 0] <= 2700) & (on_sheet[:, 1] >= 0) & (on_sheet[:, 1] <= 1350)
    g = g[keep]
    q = (h @ np.c_[g, np.ones(len(g))].T).T
    e = np.linalg.norm(truth(q[:, :2] / q[:, 2:]) - g, axis=1)
    print(f"rms {np.sqrt(np.mean(e * e)):.3f} worst {e.max():.3f}")


if __name__ == "__main__":
    main()
