#!/usr/bin/env python3
"""Tiles rendered on demand in another tile matrix set (`tegula serve SCAN --tms SET`) against the
tiles `tegula tile SCAN --tms SET` cut into FOLDER, and against gdalwarp.

Every tile FOLDER holds is asked for by OGC API – Tiles (`/ogcapi/collections/ID/map/tiles/SET/z/row/col`)
and by WMTS KVP GetTile: at the max zoom its bytes must be the folder's; below it (k zooms lower,
on demand each pixel the mean of the 2^k × 2^k max-zoom pixels under it) its PSNR against
`gdalwarp -r bilinear -et 0` of SCAN into the tile's bounds (morecantile's, from the folder's
tms.json) at 2^k times the size (cropped from one warp at the max zoom's cell size), averaged by
numpy over 2^k × 2^k blocks, must be at least MINDB
(over pixels opaque in both); the folder's own tiles (halved from the max zoom) are measured too. The tileset metadata's tileMatrixSetLimits must be the folder's columns and
rows at every zoom, and a tile of the max zoom outside them must be 404. Prints "ok"/"FAIL"
lines and the figures; exit status 1 on a failure.
Usage: ondemand_grid_check.py BASEURL ID SET FOLDER SCAN CRS MINDB"""
import io
import json
import os
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

import morecantile
import numpy
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_check import Checks  # noqa: E402  (beside this script)

base, tid, set_id, folder, scan, crs, min_db = sys.argv[1:8]
min_db = float(min_db)
check = Checks()
tms = morecantile.TileMatrixSet.model_validate_json(open(os.path.join(folder, "tms.json")).read())

held = {}
for z in sorted(int(d) for d in os.listdir(folder) if d.isdigit()):
    for c in os.listdir(os.path.join(folder, str(z))):
        for r in os.listdir(os.path.join(folder, str(z), c)):
            held[(z, int(c), int(r.split(".")[0]))] = os.path.join(folder, str(z), c, r)
zmax = max(z for z, _, _ in held)


def get(path):
    try:
        with urllib.request.urlopen(base + path) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def rgba(data):
    return numpy.asarray(Image.open(io.BytesIO(data)).convert("RGBA")).astype(float)


def psnr(a, b):
    """PSNR of the colour of pixels opaque in both (straight alpha), 255 the peak."""
    both = (a[..., 3] == 255) & (b[..., 3] == 255)
    if not both.any():
        return float("inf")
    mse = ((a[..., :3][both] - b[..., :3][both]) ** 2).mean()
    return float("inf") if mse == 0 else 10 * numpy.log10(255 ** 2 / mse)


def warp_max_zoom():
    """SCAN warped by gdalwarp into the rectangle of the max zoom's held tiles at its cell size: the
    pixels of every lower tile's oracle (pixel centres are the same as a warp into that tile's own
    bounds at 2^k times the size, since the zooms nest), in one run instead of one a tile."""
    cols = [c for z, c, _ in held if z == zmax]
    rows = [r for z, _, r in held if z == zmax]
    top_left, bottom_right = tms.xy_bounds(min(cols), min(rows), zmax), tms.xy_bounds(max(cols), max(rows), zmax)
    size = (256 * (max(cols) - min(cols) + 1), 256 * (max(rows) - min(rows) + 1))
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "max.tif")
        subprocess.run(["gdalwarp", "-q", "-t_srs", crs, "-te", repr(top_left.left), repr(bottom_right.bottom),
                        repr(bottom_right.right), repr(top_left.top), "-ts", str(size[0]), str(size[1]),
                        "-r", "bilinear", "-et", "0", "-dstalpha", scan, out], check=True)
        import osgeo.gdal as gdal
        ds = gdal.Open(out)
        px = numpy.dstack([ds.GetRasterBand(i + 1).ReadAsArray() for i in range(4)]).astype(float)
    return px, min(cols), min(rows)


def averaged(z):
    """The max zoom's warp averaged down to zoom z's cell size over 2^k × 2^k blocks (alpha: the
    block's least, so a pixel counts as opaque only where its whole block is), padded transparent
    to whole tiles of zoom z; with the zoom's first column and row."""
    px, col0, row0 = warped
    n = 1 << (zmax - z)
    first_col, first_row = col0 // n, row0 // n
    x0, y0 = (col0 - first_col * n) * 256, (row0 - first_row * n) * 256
    width = -(-(x0 + px.shape[1]) // (256 * n)) * 256 * n
    height = -(-(y0 + px.shape[0]) // (256 * n)) * 256 * n
    canvas = numpy.zeros((height, width, 4))
    canvas[y0:y0 + px.shape[0], x0:x0 + px.shape[1]] = px
    blocks = canvas.reshape(height // n, n, width // n, n, 4)
    return numpy.dstack([blocks[..., :3].mean(axis=(1, 3)), blocks[..., 3].min(axis=(1, 3))]), first_col, first_row


def gdalwarp(z, col, row):
    """The oracle of tile (z, col, row): its 256 × 256 px of ``averaged(z)``."""
    if z not in zooms:
        zooms[z] = averaged(z)
    px, first_col, first_row = zooms[z]
    x, y = (col - first_col) * 256, (row - first_row) * 256
    return px[y:y + 256, x:x + 256]


zooms = {}
warped = warp_max_zoom()
same, lower, worst_ours, worst_cut, failed = 0, 0, float("inf"), float("inf"), []
for (z, col, row), path in sorted(held.items()):
    status, body = get("/ogcapi/collections/%s/map/tiles/%s/%d/%d/%d" % (tid, set_id, z, row, col))
    kvp, wmts = get("/wmts?SERVICE=WMTS&REQUEST=GetTile&VERSION=1.0.0&LAYER=%s&STYLE=default&FORMAT=image/png"
                    "&TILEMATRIXSET=%s&TILEMATRIX=%d&TILEROW=%d&TILECOL=%d" % (tid, set_id, z, row, col))
    cut = open(path, "rb").read()
    if status != 200 or kvp != 200 or wmts != body:
        failed.append("%d/%d/%d: OGC %d, WMTS %d%s" % (z, col, row, status, kvp, "" if wmts == body else ", not the same bytes"))
        continue
    if z == zmax:
        same += body == cut
        if body != cut:
            failed.append("%d/%d/%d: not the cut tile's bytes" % (z, col, row))
    else:
        lower += 1
        oracle = gdalwarp(z, col, row)
        worst_ours = min(worst_ours, psnr(rgba(body), oracle))
        worst_cut = min(worst_cut, psnr(rgba(cut), oracle))
n_max = sum(1 for k in held if k[0] == zmax)
check(not failed, "every held tile is served by OGC API – Tiles and WMTS alike (%d tiles; %s)" % (len(held), failed[:4]))
check(same == n_max, "the %d tiles of the max zoom %d are the cut tiles' bytes (%d the same)" % (n_max, zmax, same))
print("lower zooms: %d tiles, worst PSNR against gdalwarp -r bilinear -et 0 averaged: on demand %.2f dB, the cut %.2f dB"
      % (lower, worst_ours, worst_cut))
check(lower > 0 and worst_ours >= min_db, "tiles below the max zoom on demand match gdalwarp at %.2f dB or more (worst %.2f)" % (min_db, worst_ours))

status, body = get("/ogcapi/collections/%s/map/tiles/%s" % (tid, set_id))
limits = {int(l["tileMatrix"]): l for l in json.loads(body).get("tileMatrixSetLimits", [])} if status == 200 else {}
wrong = []
for z in sorted(set(k[0] for k in held)):
    cols, rows = [c for zz, c, _ in held if zz == z], [r for zz, _, r in held if zz == z]
    lim = limits.get(z)
    # The plan's ranges may hold empty tiles at their edges (not written): the folder's within them.
    if not lim or lim["minTileCol"] > min(cols) or lim["maxTileCol"] < max(cols) or lim["minTileRow"] > min(rows) or lim["maxTileRow"] < max(rows):
        wrong.append((z, lim, (min(cols), max(cols), min(rows), max(rows))))
check(status == 200 and not wrong, "the tileset's tileMatrixSetLimits hold the folder's tiles at every zoom (%s)" % wrong[:2])
m = tms.matrix(zmax)
status, _ = get("/ogcapi/collections/%s/map/tiles/%s/%d/%d/%d" % (tid, set_id, zmax, m.matrixHeight - 1, m.matrixWidth - 1))
check(status == 404, "a tile of zoom %d outside the scan is 404 (%d)" % (zmax, status))
sys.exit(1 if check.failures else 0)
