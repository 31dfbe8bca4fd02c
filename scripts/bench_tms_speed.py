#!/usr/bin/env python3
"""What scripts/bench-tms-speed reports beside the times, from a cut folder: the pixels the tiles
cover and the share of the max zoom's warp blocks whose kernel widens. Owes nothing to Tegula but
the folder: the set comes from morecantile, the transforms from pyproj, the tiles from PIL.

usage: bench_tms_speed.py pixels FOLDER
         the tiles (*.png, every zoom) and their pixels with alpha > 0, as "TILES PIXELS"
       bench_tms_speed.py blocks FOLDER SET INPUT
         the max zoom's warp blocks and how many widen, as "BLOCKS WIDENED FXMIN FXMAX FYMIN FYMAX"
       bench_tms_speed.py meridian SET
         the longitude of the natural origin of the set's projection (0 when it has none)

SET is a morecantile name (WebMercatorQuad, UTM31WGS84Quad…) or a TMS 2.0 JSON file; INPUT the
raster cut (a geotransform, EPSG:4326). Tegula warps the max zoom in blocks of 4 × 4 tiles (one
tile two zooms up, PyramidPlan), and bilinear takes the fixed-point row only where the output
pixel at the block's centre spans at most one input pixel along both input axes (the lengths of
the rows of the Jacobian of output pixel -> input pixel, MappingGrid.centreScale); elsewhere it
widens by that footprint, as gdalwarp does. A block is counted here when it holds a written tile,
and its footprint is measured the same way: half a pixel either side of its centre, through
pyproj."""
import glob
import os
import sys

import morecantile
import numpy as np
import pyproj
from osgeo import gdal
from PIL import Image

gdal.UseExceptions()


def covered_pixels(folder):
    """The PNG tiles under `folder` and their pixels with alpha > 0."""
    tiles = sorted(glob.glob(os.path.join(folder, "*", "*", "*.png")))
    pixels = 0
    for path in tiles:
        im = Image.open(path)
        if im.mode != "RGBA":
            pixels += im.width * im.height
            continue
        pixels += int(np.count_nonzero(np.asarray(im)[:, :, 3]))
    return len(tiles), pixels


def load_set(name):
    """A morecantile TileMatrixSet from a name or a JSON file."""
    if os.path.isfile(name):
        with open(name) as f:
            return morecantile.TileMatrixSet.model_validate_json(f.read())
    return morecantile.tms.get(name)


def written_tiles(folder):
    """The max zoom and its written tiles (column, row)."""
    zooms = [int(z) for z in os.listdir(folder) if z.isdigit()]
    zmax = max(zooms)
    tiles = []
    for path in glob.glob(os.path.join(folder, str(zmax), "*", "*.png")):
        col = int(os.path.basename(os.path.dirname(path)))
        row = int(os.path.splitext(os.path.basename(path))[0])
        tiles.append((col, row))
    return min(zooms), zmax, tiles


def footprints(tms, zmin, zmax, tiles, raster):
    """The footprint (x, y) in input pixels at the centre of each block holding a written tile."""
    bz = max(zmin, zmax - 2)
    shift = zmax - bz
    blocks = sorted({(c >> shift, r >> shift) for c, r in tiles})
    res = tms.matrix(zmax).cellSize
    side = 256 << shift
    to_geo = pyproj.Transformer.from_crs(pyproj.CRS.from_user_input(tms.crs.root), "EPSG:4326", always_xy=True)
    ds = gdal.Open(raster)
    inv = gdal.InvGeoTransform(ds.GetGeoTransform())
    out = []
    for col, row in blocks:
        b = tms.xy_bounds(morecantile.Tile(col, row, bz))
        cx, cy, h = b.left + side / 2 * res, b.top - side / 2 * res, res / 2
        lon, lat = to_geo.transform([cx - h, cx + h, cx, cx], [cy, cy, cy + h, cy - h])
        px = [inv[0] + inv[1] * x + inv[2] * y for x, y in zip(lon, lat)]
        py = [inv[3] + inv[4] * x + inv[5] * y for x, y in zip(lon, lat)]
        dxdi, dydi, dxdj, dydj = px[1] - px[0], py[1] - py[0], px[3] - px[2], py[3] - py[2]
        out.append((np.hypot(dxdi, dxdj), np.hypot(dydi, dydj)))
    return out


def meridian(tms):
    """The longitude of the natural origin of the set's projection, 0 when it has none."""
    op = pyproj.CRS.from_user_input(tms.crs.root).coordinate_operation
    for p in op.params if op else []:
        if p.name.startswith("Longitude of") and ("origin" in p.name or "centre" in p.name):
            return p.value
    return 0.0


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "pixels":
        print(*covered_pixels(sys.argv[2]))
    elif len(sys.argv) == 5 and sys.argv[1] == "blocks":
        folder, name, raster = sys.argv[2:]
        tms = load_set(name)
        zmin, zmax, tiles = written_tiles(folder)
        fp = np.array(footprints(tms, zmin, zmax, tiles, raster))
        widened = int(np.count_nonzero((fp[:, 0] > 1) | (fp[:, 1] > 1)))
        print(len(fp), widened, *(f"{v:.3f}" for v in (fp[:, 0].min(), fp[:, 0].max(), fp[:, 1].min(), fp[:, 1].max())))
    elif len(sys.argv) == 3 and sys.argv[1] == "meridian":
        print(meridian(load_set(sys.argv[2])))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
