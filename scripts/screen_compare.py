#!/usr/bin/env python3
"""A browser's screenshot against a pyramid's tiles where the page drew them: the one comparison
the viewer check (scripts/viewer_check.py) and the editor check (EditCLITests, on what
scripts/editor_check.py saved) make of pixels on screen.

As a command: screen_compare.py SCREEN.png TILES.json PYRAMID prints, as JSON, the tiles compared,
the pixels compared (the pyramid tile's opaque ones), those off by more than 2 levels in a channel,
and the PSNR. TILES.json is {"tiles": [placement, ...]}, a placement being {"z", "x", "y", "left",
"top" (where the tile's top-left corner is on screen), "seen": [left, top, right, bottom] (the part
of the screen that shows it)}.
"""
import json
import os
import sys

import numpy
from osgeo import gdal
from tile_helpers import psnr  # beside this script


def rgba(path):
    """A PNG's pixels as GDAL reads them: height × width × 4 (an RGB PNG is opaque)."""
    a = numpy.moveaxis(gdal.Open(path).ReadAsArray(), 0, -1)
    if a.shape[2] == 3:
        a = numpy.concatenate([a, numpy.full(a.shape[:2] + (1,), 255, numpy.uint8)], axis=2)
    return a.astype(numpy.int32)


def compare(screen, placements, pyramid):
    """SCREEN (rgba()'s array) under each placement against PYRAMID/z/x/y.png, over the tile's
    opaque pixels; placements whose tile the pyramid lacks are skipped."""
    tiles = pixels = off = 0
    se = 0.0
    for t in placements:
        path = os.path.join(pyramid, str(t["z"]), str(t["x"]), "%d.png" % t["y"])
        if not os.path.exists(path):
            continue
        left, top, right, bottom = t["seen"]
        want = rgba(path)[top - t["top"]:bottom - t["top"], left - t["left"]:right - t["left"]]
        got = screen[top:bottom, left:right, :3]
        mask = want[:, :, 3] == 255
        d = numpy.abs(got - want[:, :, :3])[mask]
        tiles += 1
        pixels += int(mask.sum())
        off += int((d.max(axis=1) > 2).sum()) if len(d) else 0
        se += float((d.astype(numpy.float64) ** 2).sum())
    return {"tiles": tiles, "pixels": pixels, "off": off, "psnr": psnr(se, max(1, 3 * pixels), identical=99.0)}


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: screen_compare.py SCREEN.png TILES.json PYRAMID")
    with open(sys.argv[2]) as f:
        placed = json.load(f)["tiles"]
    print(json.dumps(compare(rgba(sys.argv[1]), placed, sys.argv[3])))
