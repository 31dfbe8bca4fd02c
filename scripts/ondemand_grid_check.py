#!/usr/bin/env python3
"""Tiles rendered on demand in another tile matrix set (`tegula serve SCAN --tms SET`) against the
tiles `tegula tile SCAN --tms SET` cut into FOLDER, and against gdalwarp.

Every tile FOLDER holds is asked for by OGC API – Tiles (`/ogcapi/collections/ID/map/tiles/SET/z/row/col`)
and by WMTS KVP GetTile: at the max zoom its bytes must be the folder's; below it (k zooms lower,
on demand each pixel the mean of the 2^k × 2^k max-zoom pixels under it) its PSNR against
`gdalwarp -r bilinear -et 0` of SCAN into the tile's bounds (morecantile's, from the folder's
tms.json) at 2^k times the size, averaged by numpy over 2^k × 2^k blocks, must be at least MINDB
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


def gdalwarp(z, col, row):
    """The tile's bounds warped at the max zoom's cell size, averaged down to 256 px (alpha: the
    block's least, so a pixel counts as opaque only where its whole block is)."""
    b, n = tms.xy_bounds(col, row, z), 1 << (zmax - z)
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "t.tif")
        subprocess.run(["gdalwarp", "-q", "-t_srs", crs, "-te", repr(b.left), repr(b.bottom), repr(b.right), repr(b.top),
                        "-ts", str(256 * n), str(256 * n), "-r", "bilinear", "-et", "0", "-dstalpha", scan, out], check=True)
        import osgeo.gdal as gdal
        ds = gdal.Open(out)
        px = numpy.dstack([ds.GetRasterBand(i + 1).ReadAsArray() for i in range(4)]).astype(float)
    blocks = px.reshape(256, n, 256, n, 4)
    return numpy.dstack([blocks[..., :3].mean(axis=(1, 3)), blocks[..., 3].min(axis=(1, 3))])


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
