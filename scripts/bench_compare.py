"""Quality half of scripts/bench: PSNR of tegula's zoom-Z tiles against an exact gdalwarp
(-et 0, same GCP polynomial or geotransform, bilinear) cut on the same tile grid, and tiles with content that
gdal2tiles wrote but tegula did not. Usage: bench_compare.py SRC TEGULA_DIR G2T_DIR ZOOM"""
import math, os, sys
import numpy as np
from osgeo import gdal

gdal.UseExceptions()
src, teg, g2t, z = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
R = 20037508.342789244
res = 2 * R / 256 / 2 ** z

tiles = []
for x in os.listdir(os.path.join(teg, str(z))):
    for f in os.listdir(os.path.join(teg, str(z), x)):
        tiles.append((int(x), int(f.split(".")[0])))
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
    t = gdal.Open(os.path.join(teg, str(z), str(x), f"{y}.png")).ReadAsArray()
    if t.shape[0] == 3:
        t = np.concatenate([t, np.full((1, 256, 256), 255, np.uint8)])
    r = ref[:, (y - y0) * 256:(y - y0 + 1) * 256, (x - x0) * 256:(x - x0 + 1) * 256]
    both = (t[3] == 255) & (r[3] == 255)
    d = t[:3, both].astype(np.float64) - r[:3, both].astype(np.float64)
    se += float((d * d).sum()); n += int(both.sum()) * 3
psnr = 10 * math.log10(255 ** 2 / (se / n)) if se > 0 else float("inf")
print(f"zoom {z}: {len(tiles)} tegula tiles, {n // 3} opaque pixels compared, PSNR {psnr:.2f} dB")

missing = 0; checked = 0
for zz in os.listdir(g2t):
    if not zz.isdigit():
        continue
    for x in os.listdir(os.path.join(g2t, zz)):
        for f in os.listdir(os.path.join(g2t, zz, x)):
            if not f.endswith(".png"):
                continue
            a = gdal.Open(os.path.join(g2t, zz, x, f)).ReadAsArray()
            if a.shape[0] == 4 and a[3].max() == 0:
                continue  # fully transparent: nothing to miss
            checked += 1
            if not os.path.exists(os.path.join(teg, zz, x, f)):
                missing += 1
print(f"coverage: {checked} gdal2tiles tiles with content, {missing} of them missing from tegula")
