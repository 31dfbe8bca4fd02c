#!/usr/bin/env python3
"""How well a pair's overlap can place it at all: the whole strip fitted by brute force (issue 43).

For each pair of a `ties: auto` run with a found tie over 0.5 px from the truth, and a seeded
sample of the others, sheet a's picture over the pair's strip (the box of its found ties' pixels
on a, 4 px more each way) is correlated (luma, normalised cross-correlation, bilinear) with sheet
b's at every placement on a grid near the truth, and the best placement is compared with the
truth (scripts/make-series' truth.json: the sheets of a made series differ by a whole-pixel shift):

  shift        the truth's own model, a shift only (0.05 px steps to ±1.2 px): how far the best
               shift lies from the true one. No matcher knows the motion this well; where even this
               is off, the two sheets' pictures (each sheet's own gains, rounded to 8 bits over
               smooth sea) place the strip there.
  shift+turn   a shift and a turn about the strip's middle (to ±1.5°), as real scans need: the
               worst distance from the truth at the pair's found ties under the best placement.

With --smooth SIGMA both sheets' luma is smoothed first (a Gaussian of SIGMA px, as the tie
finder's last rounds do, OverlapTieFinder.smoothedRounds): rounded to whole levels over a smooth
picture, each sheet is a staircase whose steps fall elsewhere on the other.

Usage: strip_oracle.py SERIES_FOLDER WORK_FOLDER [--sample F] [--seed N] [--smooth SIGMA]
       (WORK_FOLDER holds found-ties.csv; F, default 0.04, the share of the other pairs measured)
Prints a line per group (the pairs with a found tie over 0.5 px; the sample), then the first group
pair by pair. numpy and GDAL only.
"""
import argparse
import csv
import json
import math
import os
import random
from collections import defaultdict

import numpy as np
from osgeo import gdal

from true_seams import bilinear

MARGIN = 4  # pixels of strip beyond the found ties' box


class Pair:
    """One pair's strip: sheet a's luma over it, sheet b's luma, the true shift a → b."""

    def __init__(self, truth, a, b, ties, luma):
        self.names = (a, b)
        sa, sb = truth[a], truth[b]
        self.shift = np.array(((sa["x0"] - sb["x0"]) / sb["res"], (sb["y0"] - sa["y0"]) / sb["res"]))
        self.ties = np.array([(float(r["x_a"]), float(r["y_a"])) for r in ties])
        found = np.array([(float(r["x_b"]), float(r["y_b"])) for r in ties])
        self.found = float(np.linalg.norm(found - self.ties - self.shift, axis=1).max())
        (x0, y0), (x1, y1) = np.floor(self.ties.min(0) - MARGIN).astype(int), np.ceil(self.ties.max(0) + MARGIN).astype(int)
        ys, xs = np.mgrid[y0:y1 + 1, x0:x1 + 1]
        self.centre = np.array(((x0 + x1) / 2, (y0 + y1) / 2))
        self.u, self.v = (xs - self.centre[0]).ravel(), (ys - self.centre[1]).ravel()
        t = luma(a)[ys, xs].ravel()
        self.template = (t - t.mean()) / np.linalg.norm(t - t.mean())
        self.b = luma(b)
        self.shift_off = self.turn_worst = None  # best_shift() and best_turn(), once measured

    def score(self, dx, dy, turn):
        """The correlation with sheet b placed `dx`, `dy` px and `turn` radians off the truth."""
        c, s = math.cos(turn), math.sin(turn)
        x = self.centre[0] + self.shift[0] + dx + c * self.u - s * self.v
        y = self.centre[1] + self.shift[1] + dy + s * self.u + c * self.v
        w = bilinear(self.b, x, y)
        w = w - w.mean()
        return float(self.template @ w / np.linalg.norm(w))

    def best_shift(self):
        """How far the best shift (no turn) lies from the true one, px."""
        _, dx, dy = search(lambda dx, dy: self.score(dx, dy, 0), np.arange(-1.2, 1.201, 0.1), (0.05, 0.025))
        return math.hypot(dx, dy)

    def best_turn(self):
        """The worst distance from the truth at the found ties under the best shift and turn, px."""
        best = (-2.0, 0.0, 0.0, 0.0)
        for turn in np.radians(np.arange(-1.5, 1.501, 0.1)):
            s, dx, dy = search(lambda dx, dy: self.score(dx, dy, turn), np.arange(-1.2, 1.21, 0.2), ())
            best = max(best, (s, dx, dy, turn))
        for step in (0.05, 0.0125):
            _, bx, by, bt = best
            for turn in bt + np.radians(np.arange(-4, 4.1) * step / 2):
                s, dx, dy = search(lambda dx, dy: self.score(dx, dy, turn), np.arange(-4, 4.1) * step, (), (bx, by))
                best = max(best, (s, dx, dy, turn))
        _, dx, dy, turn = best
        c, s = math.cos(turn), math.sin(turn)
        d = self.ties - self.centre
        moved = np.stack((dx + c * d[:, 0] - s * d[:, 1] - d[:, 0], dy + s * d[:, 0] + c * d[:, 1] - d[:, 1]), 1)
        return float(np.linalg.norm(moved, axis=1).max())


def search(score, grid, refinements, around=(0.0, 0.0)):
    """The best (score, dx, dy) over `grid` × `grid` about `around`, then finer steps about it."""
    best = max((score(around[0] + dx, around[1] + dy), around[0] + dx, around[1] + dy) for dy in grid for dx in grid)
    for step in refinements:
        _, bx, by = best
        best = max([best] + [(score(bx + i * step, by + j * step), bx + i * step, by + j * step) for j in range(-2, 3) for i in range(-2, 3)])
    return best


def smoothed(band, sigma):
    """`band` convolved with a Gaussian of `sigma` px along each axis (edges repeated)."""
    r = int(3 * sigma) + 1
    kernel = np.exp(-np.arange(-r, r + 1) ** 2 / (2 * sigma * sigma))
    kernel /= kernel.sum()
    padded = np.pad(band, r, mode="edge")
    rows = np.apply_along_axis(lambda v: np.convolve(v, kernel, "valid"), 1, padded)
    return np.apply_along_axis(lambda v: np.convolve(v, kernel, "valid"), 0, rows)


def lumas(series, sigma=0.0):
    """A function giving each sheet's luma (BT.601, as the matcher's), smoothed by `sigma` px when
    it is over 0, read once."""
    inputs = {r["name"]: r["input"] for r in csv.DictReader(open(os.path.join(series, "sheets.csv")))}
    cache = {}

    def luma(name):
        if name not in cache:
            rgb = gdal.Open(os.path.join(series, inputs[name])).ReadAsArray().astype(float)
            luma = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]
            cache[name] = smoothed(luma, sigma) if sigma > 0 else luma
        return cache[name]

    return luma


def summary(label, pairs):
    found = [p.found for p in pairs]
    shifts = [p.shift_off for p in pairs]
    turns = [p.turn_worst for p in pairs]
    print("%s (%d): found ties' worst max %.2f px; best shift off the truth median %.2f, max %.2f px (%d over 0.5);"
          " best shift+turn's worst at the ties median %.2f, max %.2f px (%d over 0.5)"
          % (label, len(pairs), max(found), np.median(shifts), max(shifts), sum(s > 0.5 for s in shifts),
             np.median(turns), max(turns), sum(t > 0.5 for t in turns)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("series")
    parser.add_argument("work")
    parser.add_argument("--sample", type=float, default=0.04)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--smooth", type=float, default=0.0)
    args = parser.parse_args()
    truth = json.load(open(os.path.join(args.series, "truth.json")))["sheets"]
    grouped = defaultdict(list)
    for r in csv.DictReader(open(os.path.join(args.work, "found-ties.csv"))):
        grouped[(r["map_a"], r["map_b"])].append(r)
    luma, rng = lumas(args.series, args.smooth), random.Random(args.seed)
    bad, other = [], []
    for (a, b), ties in sorted(grouped.items()):
        pair = Pair(truth, a, b, ties, luma)
        if pair.found <= 0.5 and rng.random() > args.sample:
            continue
        pair.shift_off, pair.turn_worst = pair.best_shift(), pair.best_turn()
        (bad if pair.found > 0.5 else other).append(pair)
    summary("pairs with a found tie over 0.5 px", bad)
    summary("a sample of the other pairs", other)
    for p in sorted(bad, key=lambda p: -p.found):
        print("  %s-%s: found %.2f, best shift %.2f, best shift+turn %.2f px" % (*p.names, p.found, p.shift_off, p.turn_worst))


if __name__ == "__main__":
    main()
