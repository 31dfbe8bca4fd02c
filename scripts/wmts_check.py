#!/usr/bin/env python3
"""Two real WMTS clients against a server, each tile checked against a tile folder.

usage: wmts_check.py [--min-db DB] BASE_URL LAYER=FOLDER [LAYER=FOLDER ...]

BASE_URL is the server's root (`http://127.0.0.1:8080`); each LAYER is a layer id of its
capabilities and FOLDER the tiles it must serve, laid out z/col/row.ext with rows counted from
the top (a `tegula tile` folder output). For each layer:

- OWSLib's `WebMapTileService(BASE_URL/wmts)` reads the KVP capabilities; every tile within the
  layer's TileMatrixSetLimits is fetched with `gettile` (KVP GetTile) and must be the file's bytes,
  or answer 404 where the folder has no file.
- GDAL's WMTS driver reads the RESTful capabilities: `gdal_translate` of
  `WMTS:BASE_URL/wmts/1.0.0/WMTSCapabilities.xml,layer=…,zoom_level=Z` (Z the matrix's place
  in the set's list, as GDAL counts, not its id where a set starts at "1"; extent from the most precise
  matrix's limits, so its pixels are whole tiles) at every zoom of the limits must equal, by numpy,
  the mosaic of the folder's tiles at that zoom (decoded by GDAL, RGBA; no file: transparent), with
  the geotransform of the limits' top-left tile. With no zoom given, GDAL must open the layer at
  the last matrix of its set (the server describes a set up to the highest zoom of its layers).

With --min-db DB (a scan rendered on demand, whose lower zooms are averaged from its max zoom in
one step where a cut halves zoom by zoom): below the folder's highest zoom a tile OWSLib fetches,
or a mosaic GDAL makes, may differ from the folder's if the PSNR of its pixels against the folder's
(RGBA decoded by GDAL, colour premultiplied by alpha, every channel pooled) is at least DB; at the
highest zoom they must still be equal.

A set morecantile (PyPI) ships, by its identifier, is checked against morecantile's: each matrix
the capabilities describe has its scale denominator and, for a top-left origin, its top-left
corner (in the CRS's axis order, as both give it), so that GDAL's placement above, which follows
the capabilities, is checked against a grid Tegula did not write.

Prints one JSON line: tiles compared by OWSLib (bytes), missing tiles answered 404, mosaics and
pixels compared through GDAL, and the sets checked against morecantile (with --min-db also the
tiles and mosaics that were near, not equal, and the lowest PSNR of them); exits 1 on the first
difference, naming it."""
import json
import os
import subprocess
import sys
import tempfile

import morecantile
import numpy as np
from osgeo import gdal, osr
from owslib.wmts import WebMapTileService

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tile_helpers import psnr, tile_files, tile_pixels  # noqa: E402

gdal.UseExceptions()
# No block cache in the working folder (the WMS driver's default), for GDAL here and in its tools.
os.environ["GDAL_ENABLE_WMS_CACHE"] = "NO"
gdal.SetConfigOption("GDAL_ENABLE_WMS_CACHE", "NO")


MIN_DB = None  # --min-db: the PSNR below the highest zoom at which pixels count as the folder's


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(1)


def near(got, want, z, zmax, counts, key):
    """True when --min-db was given, z is below the folder's highest zoom zmax, and the pixels
    (4 × h × w RGBA) are within it; counts them under `key` and keeps the lowest PSNR."""
    if MIN_DB is None or z >= zmax or got.shape != want.shape:
        return False
    a, b = premultiplied(got), premultiplied(want)
    db = psnr(float(((a - b) ** 2).sum()), a.size)
    if db < MIN_DB:
        return False
    counts[key] += 1
    counts["lowest_db"] = round(min(counts["lowest_db"], db), 2)
    return True


def premultiplied(rgba):
    """Colour times alpha / 255, and alpha, as floats: what a transparent pixel's colour does not change."""
    a = rgba.astype(np.float64)
    a[:3] *= a[3] / 255
    return a


def decoded(data):
    """A served tile's bytes as GDAL decodes them (RGBA)."""
    gdal.FileFromMemBuffer("/vsimem/wmts-check-tile", data)
    try:
        return tile_pixels("/vsimem/wmts-check-tile")
    finally:
        gdal.Unlink("/vsimem/wmts-check-tile")


def owslib_tiles(wmts, layer_id, folder, counts):
    """Every tile of the layer's limits by KVP GetTile, against the folder's bytes."""
    layer = wmts.contents[layer_id]
    set_id, link = next(iter(layer.tilematrixsetlinks.items()))
    files = tile_files(folder)
    zmax = max(z for z, _, _ in files)
    for matrix, limits in link.tilematrixlimits.items():
        z = int(matrix)
        for row in range(limits.mintilerow, limits.maxtilerow + 1):
            for col in range(limits.mintilecol, limits.maxtilecol + 1):
                path = files.get((z, col, row))
                try:
                    got = wmts.gettile(layer=layer_id, tilematrixset=set_id, tilematrix=matrix, row=row, column=col).read()
                except Exception as e:  # requests' HTTPError for a 404
                    status = getattr(getattr(e, "response", None), "status_code", None)
                    if path is None and status == 404:
                        counts["missing_404"] += 1
                        continue
                    fail(f"{layer_id} {z}/{row}/{col}: OWSLib gettile failed: {e}")
                if path is None:
                    fail(f"{layer_id} {z}/{row}/{col}: served a tile the folder does not have")
                if got != open(path, "rb").read():
                    if near(decoded(got), tile_pixels(path), z, zmax, counts, "owslib_near"):
                        continue
                    fail(f"{layer_id} {z}/{row}/{col}: OWSLib's bytes differ from {path}")
                counts["owslib_tiles"] += 1
    return set_id, link.tilematrixlimits, wmts.tilematrixsets[set_id]


def gdal_mosaics(base, layer_id, folder, set_id, limits, tms, counts, workdir):
    """gdal_translate of the layer at each zoom against the folder's mosaic."""
    url = f"WMTS:{base}/wmts/1.0.0/WMTSCapabilities.xml,layer={layer_id},tilematrixset={set_id}"
    info = json.loads(tool(["gdalinfo", "-json", url]))
    last = max(tms.tilematrix, key=int)
    if abs(info["geoTransform"][1] - pixel_size(tms.tilematrix[last], tms.crs)) > 1e-9 * pixel_size(tms.tilematrix[last], tms.crs):
        fail(f"{layer_id}: gdalinfo opens at pixel size {info['geoTransform'][1]}, not that of the set's last matrix, {last}")
    files = tile_files(folder)
    zmax = max(z for z, _, _ in files)
    for matrix, lim in limits.items():
        z = int(matrix)
        out = os.path.join(workdir, f"{layer_id}-{z}.tif")
        # GDAL's zoom_level is the matrix's place in the set's list, not its id: UTM31WGS84Quad's
        # first matrix is "1", so its matrix 5 is GDAL's zoom_level 4.
        level = list(tms.tilematrix).index(matrix)
        tool(["gdal_translate", "-q", "-oo", "EXTENT_METHOD=MOST_PRECISE_TILE_MATRIX", f"{url},zoom_level={level}", out])
        ds = gdal.Open(out)
        got = ds.ReadAsArray()
        m = tms.tilematrix[matrix]
        w, h = m.tilewidth, m.tileheight
        rows, cols = lim.maxtilerow - lim.mintilerow + 1, lim.maxtilecol - lim.mintilecol + 1
        want = np.zeros((4, rows * h, cols * w), np.uint8)
        for row in range(lim.mintilerow, lim.maxtilerow + 1):
            for col in range(lim.mintilecol, lim.maxtilecol + 1):
                if (z, col, row) in files:
                    r, c = row - lim.mintilerow, col - lim.mintilecol
                    want[:, r * h:(r + 1) * h, c * w:(c + 1) * w] = tile_pixels(files[(z, col, row)])
        if got.shape != want.shape:
            fail(f"{layer_id} zoom {z}: GDAL's raster is {got.shape}, the folder's mosaic {want.shape}")
        if not np.array_equal(got, want) and not near(got, want, z, zmax, counts, "gdal_near"):
            fail(f"{layer_id} zoom {z}: GDAL's pixels differ from the folder's in {int((got != want).any(axis=0).sum())} pixels")
        gt = ds.GetGeoTransform()
        size = pixel_size(m, tms.crs)
        x0, y0 = reversed(m.topleftcorner) if northing_first(tms.crs) else m.topleftcorner
        left, top = x0 + lim.mintilecol * w * size, y0 - lim.mintilerow * h * size
        if max(abs(gt[0] - left), abs(gt[3] - top)) > 1e-6 * max(1.0, abs(left), abs(top)) or abs(gt[1] - size) > 1e-9 * size:
            fail(f"{layer_id} zoom {z}: geotransform {gt}, expected origin ({left}, {top}) and pixel {size}")
        counts["gdal_mosaics"] += 1
        counts["gdal_pixels"] += int(got.shape[1] * got.shape[2])


def known_set(set_id, tms, checked):
    """The capabilities' matrices of a set morecantile ships against morecantile's (once a set)."""
    if set_id in checked or set_id not in morecantile.tms.list():
        return
    theirs = morecantile.tms.get(set_id)
    for matrix, m in tms.tilematrix.items():
        t = next((t for t in theirs.tileMatrices if t.id == matrix), None)
        if t is None:
            fail(f"{set_id}: matrix {matrix} is not one of morecantile's")
        if abs(m.scaledenominator - t.scaleDenominator) > 1e-9 * t.scaleDenominator:
            fail(f"{set_id} {matrix}: ScaleDenominator {m.scaledenominator}, morecantile's {t.scaleDenominator}")
        corner = t.cornerOfOrigin.value if hasattr(t.cornerOfOrigin, "value") else t.cornerOfOrigin
        if corner == "topLeft" and any(abs(a - b) > 1e-6 * max(1.0, abs(b)) for a, b in zip(m.topleftcorner, t.pointOfOrigin)):
            fail(f"{set_id} {matrix}: TopLeftCorner {m.topleftcorner}, morecantile's {tuple(t.pointOfOrigin)}")
    checked.add(set_id)


def tool(arguments):
    """A GDAL tool's standard output; its failure ends the check with its standard error."""
    r = subprocess.run(arguments, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"{' '.join(arguments)} failed: {r.stderr.strip()}")
    return r.stdout


def srs_of(crs):
    srs = osr.SpatialReference()
    srs.SetFromUserInput(crs)
    return srs


def northing_first(crs):
    """True when the CRS (as EPSG defines it) gives the northing or latitude first, as the
    capabilities' TopLeftCorner then does."""
    srs = srs_of(crs)
    return bool(srs.EPSGTreatsAsNorthingEasting() or srs.EPSGTreatsAsLatLong())


def pixel_size(matrix, crs):
    """A cell's size in CRS units from the scale denominator (0.28 mm pixels; metres, or
    degrees of a 6378137 m sphere's circumference for a geographic CRS, as WMTS 1.0.0 §6.1)."""
    metres = matrix.scaledenominator * 0.00028
    return metres / (2 * 3.141592653589793 * 6378137 / 360) if srs_of(crs).IsGeographic() else metres


def main():
    global MIN_DB
    arguments = sys.argv[1:]
    if arguments[:1] == ["--min-db"]:
        MIN_DB, arguments = float(arguments[1]), arguments[2:]
    base, layers = arguments[0], [a.split("=", 1) for a in arguments[1:]]
    counts = {"owslib_tiles": 0, "missing_404": 0, "gdal_mosaics": 0, "gdal_pixels": 0}
    if MIN_DB is not None:
        counts.update(owslib_near=0, gdal_near=0, lowest_db=float("inf"))
    wmts = WebMapTileService(base + "/wmts")
    checked = set()
    with tempfile.TemporaryDirectory() as workdir:
        for layer_id, folder in layers:
            set_id, limits, tms = owslib_tiles(wmts, layer_id, folder, counts)
            known_set(set_id, tms, checked)
            gdal_mosaics(base, layer_id, folder, set_id, limits, tms, counts, workdir)
    counts["sets_known"] = len(checked)
    if counts.get("lowest_db") == float("inf"):
        counts["lowest_db"] = None  # nothing near: every tile and mosaic was equal
    print(json.dumps(counts, sort_keys=True))


main()
