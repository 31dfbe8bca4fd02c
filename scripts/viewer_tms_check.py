#!/usr/bin/env python3
"""The viewer showing a tileset cut in another tile matrix set than WebMercatorQuad, in headless
Chromium (browser_check.py), against oracles that are not Tegula: pyproj places the view's centre
(LON, LAT) in the set's CRS, and the set's own numbers (the folder's tms.json, read by morecantile)
give the tiles a view of the map's size at zoom Z must show and where each must lie on screen.

Checks: the page loads tiles of zoom Z only, every tile the view covers that the folder holds and
none outside the view (a pixel's margin either side); each tile's place on screen is where
morecantile's bounds of the tile put it relative to the centre (at most MAXPX px off); and the
screenshot's pixels around the map's centre are the folder's tile pixels at the centre's place
(best of ±2 px shifts, at most 1 px off, mean difference at most 3 levels). The screenshot is
OUTDIR/NAME.png. Prints "ok"/"FAIL" lines; exit status 1 on a failure.
Usage: viewer_tms_check.py PAGEURL FOLDER CRS LON LAT Z NAME OUTDIR [MAXPX]"""
import os
import re
import sys
import time

import morecantile
import numpy
import pyproj
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_check import Checks, chromium, wait  # noqa: E402  (beside this script)

page, folder, crs, lon, lat, z, name, out = sys.argv[1:9]
lon, lat, z = float(lon), float(lat), int(z)
max_px = float(sys.argv[9]) if len(sys.argv) > 9 else 1.0
check = Checks()

tms = morecantile.TileMatrixSet.model_validate_json(open(os.path.join(folder, "tms.json")).read())
matrix = tms.matrix(z)
res = matrix.cellSize
x, y = pyproj.Transformer.from_crs("EPSG:4326", crs, always_xy=True).transform(lon, lat)
held = {(int(c), int(os.path.splitext(r)[0])) for c in os.listdir(os.path.join(folder, str(z)))
        for r in os.listdir(os.path.join(folder, str(z), c))}

driver = chromium(1000, 700)
try:
    sep = "&" if "?" in page else "?"
    driver.get("%s%slon=%r&lat=%r&z=%d" % (page, sep, lon, lat, z))
    wait(lambda: driver.execute_script("return window.tegulaReady === true"))
    wait(lambda: driver.execute_script(
        "var t = document.querySelectorAll('img.leaflet-tile');"
        "return t.length > 0 && Array.prototype.every.call(t, function (i) { return i.complete; })"))
    time.sleep(0.5)
    size = driver.execute_script("var r = document.getElementById('map').getBoundingClientRect();"
                                 "return [r.left, r.top, r.width, r.height]")
    tiles = driver.execute_script(
        "var m = document.getElementById('map').getBoundingClientRect();"
        "return Array.prototype.map.call(document.querySelectorAll('img.leaflet-tile-loaded'), function (i) {"
        "  var r = i.getBoundingClientRect(); return [i.src, r.left - m.left, r.top - m.top, r.width]; })")
    driver.save_screenshot(os.path.join(out, name + ".png"))
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
finally:
    driver.quit()

left, top, width, height = size
loaded = {}
for src, px, py, w in tiles:
    m = re.search(r"/map/tiles/[^/]+/(\d+)/(\d+)/(\d+)(\?|$)", src)  # OGC API – Tiles: z/row/col
    loaded[(int(m.group(1)), int(m.group(3)), int(m.group(2)))] = (px, py, w)
check(bool(loaded) and set(k[0] for k in loaded) == {z}, "the tiles loaded are of zoom %d only (%s)" % (z, sorted(set(k[0] for k in loaded))))


def view_tiles(margin):
    """The held tiles of zoom z meeting the view grown by `margin` px on each side (the set's
    numbers: pointOfOrigin, cellSize, tile size, as morecantile reads them)."""
    half_w, half_h = (width / 2 + margin) * res, (height / 2 + margin) * res
    out = set()
    for col, row in held:
        b = tms.xy_bounds(col, row, z)
        if b.left < x + half_w and b.right > x - half_w and b.bottom < y + half_h and b.top > y - half_h:
            out.add((z, col, row))
    return out


need, may = view_tiles(-1), view_tiles(1)
got = set(loaded)
check(need <= got, "every held tile the view covers is loaded (%d needed, missing %s)" % (len(need), sorted(need - got)))
check(got <= may, "no tile outside the view is loaded (%d loaded, extra %s)" % (len(got), sorted(got - may)))

worst = 0.0
for (tz, col, row), (px, py, w) in loaded.items():
    b = tms.xy_bounds(col, row, tz)
    ex, ey = (b.left - x) / res + width / 2, (y - b.top) / res + height / 2
    worst = max(worst, abs(px - ex), abs(py - ey), abs(w - matrix.tileWidth))
check(worst <= max_px, "each tile lies where its bounds put it around the centre, worst %.2f px (at most %.2f)" % (worst, max_px))

# The pixels around the centre: the screenshot against the held tile under the centre.
shot = numpy.asarray(Image.open(os.path.join(out, name + ".png")).convert("RGB")).astype(int)
col, row = int((x - tms.xy_bounds(0, 0, z).left) // (res * matrix.tileWidth)), None
for c, r in held:
    b = tms.xy_bounds(c, r, z)
    if b.left <= x < b.right and b.bottom <= y < b.top:
        col, row = c, r
check(row is not None, "the folder holds the tile under the centre")
if row is not None:
    b = tms.xy_bounds(col, row, z)
    tile = numpy.asarray(Image.open(os.path.join(folder, str(z), str(col), "%d.png" % row)).convert("RGB")).astype(int)
    tx, ty = int((x - b.left) / res), int((b.top - y) / res)
    k = 6
    tx, ty = min(max(tx, k + 2), tile.shape[1] - k - 3), min(max(ty, k + 2), tile.shape[0] - k - 3)
    # The screen point of that tile pixel, by the oracle's placement.
    sx, sy = int(round(left + width / 2 + (b.left + tx * res - x) / res)), int(round(top + height / 2 + (y - (b.top - ty * res)) / res))
    ref = tile[ty - k:ty + k + 1, tx - k:tx + k + 1]
    best = None
    for dy in range(-2, 3):
        for dx in range(-2, 3):
            patch = shot[sy + dy - k:sy + dy + k + 1, sx + dx - k:sx + dx + k + 1]
            if patch.shape == ref.shape:
                d = float(numpy.abs(patch - ref).mean())
                # Ties (a patch of one colour) go to the smallest shift.
                if best is None or (d, abs(dx) + abs(dy)) < (best[0], abs(best[1]) + abs(best[2])):
                    best = (d, dx, dy)
    check(best is not None and best[0] <= 3 and abs(best[1]) <= 1 and abs(best[2]) <= 1,
          "the screenshot shows tile %d/%d/%d's pixels at the centre: mean difference %.2f levels, shifted (%d, %d) px"
          % ((z, col, row) + (best or (99, 9, 9))))
check(not errors, "no console error (%s)" % [e["message"] for e in errors][:3])
sys.exit(1 if check.failures else 0)
