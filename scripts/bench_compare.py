"""Quality half of scripts/bench: PSNR of tegula's zoom-Z tiles against an exact gdalwarp
(-et 0, same GCP polynomial or geotransform, bilinear) cut on the same tile grid, and tiles with content that
gdal2tiles wrote but tegula did not. Usage: bench_compare.py SRC TEGULA_DIR G2T_DIR ZOOM"""
import os, sys
import numpy as np
from osgeo import gdal
from tile_helpers import psnr, tile_files, tile_pixels

gdal.UseExceptions()
src, teg, g2t, z = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
R = 20037508.342789244
res = 2 * R / 256 / 2 ** z

tiles = [(x, y) for (_, x, y) in tile_files(teg, z)]
xs = [t[0] for t in tiles]; ys = [t[1] for t in tiles]
x0, x1, y0, y1 = min(xs), max(xs) + 1, min(ys), max(ys) + 1
te = (-R + x0 * 256 * res, R - y1 * 256 * res, -R + x1 * 256 * res, R - y0 * 256 * res)
ref_path = os.path.join(os.path.dirname(teg), f"gdalwarp-z{z}.tif")
# GCP inputs: GDAL's polynomial 1 fit (its default for 5 GCPs); geotransform inputs: the geotransform.
order = {"polynomialOrder": 1} if gdal.Open(src).GetGCPCount() > 0 else {}
gdal.Warp(ref_path, src, dstSRS="EPSG:3857", outputBounds=te, xRes=res, yRes=res, resampleAlg="bilinear",
          errorThreshold=0, dstAlpha=True, creationOptions=["TILED=YES"], **order)
ref = gdal.Open(ref_path).ReadAsArray()  # bands, rows, cols

se = 0.0; n = 0
for (x, y) in tiles:
    t = tile_pixels(os.path.join(teg, str(z), str(x), f"{y}.png"))
    r = ref[:, (y - y0) * 256:(y - y0 + 1) * 256, (x - x0) * 256:(x - x0 + 1) * 256]
    both = (t[3] == 255) & (r[3] == 255)
    d = t[:3, both].astype(np.float64) - r[:3, both].astype(np.float64)
    se += float((d * d).sum()); n += int(both.sum()) * 3
print(f"zoom {z}: {len(tiles)} tegula tiles, {n // 3} opaque pixels compared, PSNR {psnr(se, n):.2f} dB")

missing = 0; checked = 0
for path in tile_files(g2t).values():
    if not path.endswith(".png"):
        continue
    a = gdal.Open(path).ReadAsArray()
    if a.shape[0] == 4 and a[3].max() == 0:
        continue  # fully transparent: nothing to miss
    checked += 1
    if not os.path.exists(os.path.join(teg, os.path.relpath(path, g2t))):
        missing += 1
print(f"coverage: {checked} gdal2tiles tiles with content, {missing} of them missing from tegula")
