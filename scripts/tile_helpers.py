"""What several scripts do with tiles, written once: walk a z/x/y tile folder, read a tile's pixels
as GDAL decodes them, the PSNR of pooled squared errors, the tile holding a point, an OGC tile
matrix set's CRS and a tile's box in it, a zoom's tiles against one image of that zoom (the
tests' check of `gdal_translate` of a tileset).

A script beside this file imports it directly (`from tile_helpers import psnr`); Python run
inline by a shell script from the package root puts `scripts` on its path first:
`sys.path.insert(0, "scripts")`. Only `tile_pixels`, `tms_crs` and `zoom_mosaic_difference` need
GDAL (and numpy), imported when called."""
import math
import os


def psnr(squared_error, samples, identical=math.inf):
    """10·log10(255²/MSE), MSE = squared_error / samples (every channel of every pixel compared,
    pooled); `identical` when nothing differs."""
    if squared_error <= 0:
        return identical
    return 10 * math.log10(255 ** 2 / (squared_error / samples))


def tile_files(root, zoom=None):
    """{(z, x, y): path} of every tile in a folder laid out z/x/y.ext (zoom: that level alone).
    y is a file's name up to its first "." or "@" (`3.png`, `3@2x.webp`); folders and files not
    named by a number, and names that start with ".", are skipped."""
    out = {}
    zooms = [str(zoom)] if zoom is not None else os.listdir(root)
    for z in zooms:
        if not z.isdigit():
            continue
        for x in os.listdir(os.path.join(root, z)):
            for name in os.listdir(os.path.join(root, z, x)):
                y = name.split(".")[0].split("@")[0]
                if name.startswith(".") or not (x.isdigit() and y.isdigit()):
                    continue
                out[(int(z), int(x), int(y))] = os.path.join(root, z, x, name)
    return out


def tile_pixels(path):
    """A tile as GDAL decodes it: a 4 × height × width uint8 array, RGBA. An RGB tile comes out
    opaque, a paletted PNG (PNG8) expanded through its palette."""
    import numpy as np
    from osgeo import gdal

    gdal.UseExceptions()
    ds = gdal.Open(path)
    if ds.RasterCount == 1 and ds.GetRasterBand(1).GetColorTable() is not None:
        ds = gdal.Translate("/vsimem/tile-helpers-expand.tif", ds, rgbExpand="rgba")
    a = ds.ReadAsArray()
    if a.shape[0] == 3:
        a = np.concatenate([a, np.full((1,) + a.shape[1:], 255, np.uint8)])
    return a


def tile_at(lon, lat, z):
    """The Web Mercator tile (x, y) holding lon, lat at zoom z, latitude clamped to ±85.0511° and
    x, y to the grid's last column and row."""
    lat = max(min(lat, 85.0511), -85.0511)
    n = 2 ** z
    x = int((lon + 180) / 360 * n)
    y = int((1 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2 * n)
    return min(x, n - 1), min(y, n - 1)


def tms_crs(tms):
    """A TMS 2.0 document's CRS as GDAL takes it (axes in the traditional GIS order, x the easting
    or longitude), and whether the set's own first axis is the northing."""
    from osgeo import osr

    srs = osr.SpatialReference()
    srs.SetFromUserInput(tms["crs"] if isinstance(tms["crs"], str) else tms["crs"]["uri"])
    srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    axes = tms.get("orderedAxes") or []
    northing_first = bool(axes) and axes[0].upper() in ("Y", "LAT", "N")
    return srs, northing_first


def tms_tile_box(matrix, northing_first, col, row):
    """left, bottom, right, top of a tile of a tile matrix counted from its top-left corner, in the
    set's CRS (x/y order)."""
    p = matrix["pointOfOrigin"]
    x0, y0 = (p[1], p[0]) if northing_first else (p[0], p[1])
    sx, sy = matrix["cellSize"] * matrix["tileWidth"], matrix["cellSize"] * matrix["tileHeight"]
    left, top = x0 + col * sx, y0 - row * sy
    return left, top - sy, left + sx, top


def zoom_mosaic_difference(tif, folder, z, origin, res, px, suffix="", exts=("png", "jpg", "webp"), res_tolerance=1e-9):
    """`tif` (one zoom of a tileset as `gdal_translate` writes it) against the folder's tiles of
    zoom `z` placed on that zoom's pixel grid: cells of `res` CRS units, counted from `origin`
    (x, y: the grid's top-left corner), tiles of `px` pixels named `z/x/y{suffix}.{ext}` with the
    first of `exts` that exists. Compares RGBA, colour only where the tiles' alpha > 0, and returns
    (tiles placed, opaque tile pixels, pixels whose alpha differs, pixels whose colour differs).
    Fails when the image is not on the grid."""
    import numpy as np
    from osgeo import gdal

    gdal.UseExceptions()
    ox, oy = origin
    ds = gdal.Open(tif)
    gt = ds.GetGeoTransform()
    assert abs(gt[1] - res) < res_tolerance * res and abs(gt[5] + res) < res_tolerance * res, gt
    c0, r0 = round((gt[0] - ox) / res), round((oy - gt[3]) / res)
    assert abs((gt[0] - ox) / res - c0) < 1e-6 and abs((oy - gt[3]) / res - r0) < 1e-6, "off the zoom grid"
    w, h = ds.RasterXSize, ds.RasterYSize

    def rgba(a):
        return a if a.shape[0] == 4 else np.concatenate([a, np.full((1,) + a.shape[1:], 255, np.uint8)])

    got = rgba(ds.ReadAsArray())
    want = np.zeros((4, h, w), np.uint8)
    used = 0
    for tx in range(c0 // px, (c0 + w - 1) // px + 1):
        for ty in range(r0 // px, (r0 + h - 1) // px + 1):
            paths = [f"{folder}/{z}/{tx}/{ty}{suffix}.{e}" for e in exts]
            path = next((p for p in paths if os.path.exists(p)), None)
            if path is None:
                continue
            t = rgba(gdal.Open(path).ReadAsArray())
            x, y = tx * px - c0, ty * px - r0
            xa, ya, xb, yb = max(x, 0), max(y, 0), min(x + px, w), min(y + px, h)
            want[:, ya:yb, xa:xb] = t[:, ya - y:yb - y, xa - x:xb - x]
            used += 1
    alpha = int(np.count_nonzero(got[3] != want[3]))
    colour = int(np.count_nonzero((want[3] > 0) & np.any(got[:3] != want[:3], axis=0)))
    return used, int(np.count_nonzero(want[3])), alpha, colour
