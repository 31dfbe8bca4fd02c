"""Quality half of scripts/bench-tms: each tool's tiles of one zoom of a tile matrix set against one
exact `gdalwarp -et 0` (bilinear) of the scan into the set's CRS on that zoom's pixel grid, over
the columns and rows any of the tools wrote. Prints, per tool, the tiles, the opaque pixels both
hold and the PSNR; then, at every zoom, the tiles each other tool wrote that the first did not
(and the reverse), and how many of them hold no pixel with alpha > 0 (a tool that writes fully
transparent tiles). Usage: bench_tms_compare.py SRC TMS.json ZOOM LABEL=DIR[:FOLDER] ...
(FOLDER: the zoom's folder name in DIR when the tool numbers zooms otherwise than by the matrix's
id, as GDAL does by its place in the list; the other zooms are shifted by as much)"""
import json
import os
import sys

import numpy as np
from osgeo import gdal

from tile_helpers import psnr, tile_files, tile_pixels, tms_crs, tms_tile_box

gdal.UseExceptions()
src, tms_path, z, runs = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
tms = json.load(open(tms_path))
srs, northing_first = tms_crs(tms)
m = next(m for m in tms["tileMatrices"] if m["id"] == str(z))
tw, th = m["tileWidth"], m["tileHeight"]



def tool(run):
    """label, folder, {(z, x, y): path} of the zoom's tiles, from LABEL=DIR[:FOLDER]."""
    label, folder = run.split("=", 1)
    folder, _, zoom_folder = folder.partition(":")
    return label, folder, tile_files(folder, int(zoom_folder or z))


def every_tile(run):
    """{(zoom, x, y): path} of all a tool's tiles, zooms as the matrices' ids, from LABEL=DIR[:FOLDER]."""
    folder, _, zoom_folder = run.split("=", 1)[1].partition(":")
    shift = z - int(zoom_folder or z)
    return {(tz + shift, x, y): path for (tz, x, y), path in tile_files(folder).items()}


def blank(path):
    """Whether a tile holds no pixel with alpha > 0."""
    return not (tile_pixels(path)[3] > 0).any()


def compare_cover(first, other):
    """Per zoom, the tiles `other` wrote that `first` did not and the reverse, with how many of
    each hold no visible pixel."""
    (a_label, a), (b_label, b) = first, other
    for tz in sorted({t[0] for t in a} | {t[0] for t in b}):
        at = {t for t in a if t[0] == tz}
        bt = {t for t in b if t[0] == tz}
        only_b, only_a = sorted(bt - at), sorted(at - bt)
        print(f"zoom {tz}: {a_label} {len(at)}, {b_label} {len(bt)} tiles; "
              f"{len(only_b)} only {b_label}'s ({sum(blank(b[t]) for t in only_b)} fully transparent), "
              f"{len(only_a)} only {a_label}'s ({sum(blank(a[t]) for t in only_a)} fully transparent)")


tools = [tool(r) for r in runs]
cells = {(x, y) for _, _, tiles in tools for (_, x, y) in tiles}
x0, x1 = min(c[0] for c in cells), max(c[0] for c in cells) + 1
y0, y1 = min(c[1] for c in cells), max(c[1] for c in cells) + 1
left, _, _, top = tms_tile_box(m, northing_first, x0, y0)
_, bottom, right, _ = tms_tile_box(m, northing_first, x1 - 1, y1 - 1)
ref_path = os.path.join(os.path.dirname(tools[0][1]), f"gdalwarp-z{z}.tif")
gdal.Warp(ref_path, src, dstSRS=srs.ExportToWkt(), outputBounds=(left, bottom, right, top),
          width=(x1 - x0) * tw, height=(y1 - y0) * th, resampleAlg="bilinear", errorThreshold=0,
          dstAlpha=True, creationOptions=["TILED=YES"])
ref = gdal.Open(ref_path).ReadAsArray()  # bands, rows, cols

for label, _, tiles in tools:
    se = 0.0; n = 0
    for (_, x, y), path in tiles.items():
        t = tile_pixels(path)
        r = ref[:, (y - y0) * th:(y - y0 + 1) * th, (x - x0) * tw:(x - x0 + 1) * tw]
        both = (t[3] == 255) & (r[3] == 255)
        d = t[:3, both].astype(np.float64) - r[:3, both].astype(np.float64)
        se += float((d * d).sum()); n += int(both.sum()) * 3
    print(f"{label:<8} zoom {z}: {len(tiles)} tiles, {n // 3} opaque pixels compared, "
          f"PSNR {psnr(se, n):.2f} dB against gdalwarp -et 0")

covers = [(r.split("=", 1)[0], every_tile(r)) for r in runs]
for other in covers[1:]:
    compare_cover(covers[0], other)
