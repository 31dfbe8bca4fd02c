"""What several scripts do with tiles, written once: walk a z/x/y tile folder, read a tile's pixels
as GDAL decodes them, the PSNR of pooled squared errors, the tile holding a point.

A script beside this file imports it directly (`from tile_helpers import psnr`); Python run
inline by a shell script from the package root puts `scripts` on its path first:
`sys.path.insert(0, "scripts")`. Only `tile_pixels` needs GDAL and numpy, imported when called."""
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
