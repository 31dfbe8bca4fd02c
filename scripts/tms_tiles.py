#!/usr/bin/env python3
"""A tile folder in any OGC tile matrix set, cut by GDAL alone: a fixture for serving tests that
owes nothing to Tegula's own cutting.

usage: tms_tiles.py RASTER TMS.json OUT Z:COL0-COL1:ROW0-ROW1 [Z:… …]

Each tile of each block (zoom Z, columns COL0–COL1, rows ROW0–ROW1, rows counted from the top)
is `gdalwarp`ed from RASTER into the tile's box in the set's CRS (bilinear, 256 px or the
matrix's tile size, alpha), and written as OUT/Z/COL/ROW.png; the set's document is copied to
OUT/tms.json and a TileJSON OUT/tiles.json (name, png, the zooms, RASTER's box in degrees) is
written beside, so `tegula serve OUT` serves it as a folder cut in that set. Sets whose matrices
count rows from the bottom or coalesce tiles are refused."""
import json
import os
import shutil
import sys

from osgeo import gdal

from tile_helpers import tms_crs, tms_tile_box  # beside this script

gdal.UseExceptions()
gdal.SetConfigOption("GDAL_PAM_ENABLED", "NO")  # no .aux.xml beside each tile


def main():
    raster, tms_path, out, blocks = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    tms = json.load(open(tms_path))
    srs, northing_first = tms_crs(tms)
    matrices = {m["id"]: m for m in tms["tileMatrices"]}
    zooms = []
    for block in blocks:
        z, cols, rows = block.split(":")
        m = matrices[z]
        if m.get("cornerOfOrigin", "topLeft") != "topLeft" or m.get("variableMatrixWidths"):
            sys.exit(f"tms_tiles.py: matrix {z} counts rows from the bottom or coalesces tiles")
        (c0, c1), (r0, r1) = (map(int, cols.split("-")), map(int, rows.split("-")))
        for col in range(c0, c1 + 1):
            for row in range(r0, r1 + 1):
                left, bottom, right, top = tms_tile_box(m, northing_first, col, row)
                warped = gdal.Warp(
                    "", raster, format="MEM", dstSRS=srs.ExportToWkt(), outputBounds=(left, bottom, right, top),
                    width=m["tileWidth"], height=m["tileHeight"], resampleAlg="bilinear", dstAlpha=True)
                os.makedirs(os.path.join(out, z, str(col)), exist_ok=True)
                gdal.Translate(os.path.join(out, z, str(col), f"{row}.png"), warped, format="PNG")
        zooms.append(int(z))
    shutil.copy(tms_path, os.path.join(out, "tms.json"))
    info = gdal.Info(raster, format="json")
    (w, n), (e, s) = info["wgs84Extent"]["coordinates"][0][0], info["wgs84Extent"]["coordinates"][0][2]
    tilejson = {"tilejson": "3.0.0", "name": os.path.basename(out), "format": "png", "bounds": [w, s, e, n],
                "minzoom": min(zooms), "maxzoom": max(zooms), "tiles": ["{z}/{x}/{y}.png"]}
    json.dump(tilejson, open(os.path.join(out, "tiles.json"), "w"))


main()
