"""The look of each format side by side for BENCHMARKS.md: the same crop of one tile from each
folder, zoomed 3x (nearest, so compression artefacts stay visible), left to right in the order
given, 8 white pixels apart. Decoded by GDAL. Usage: bench_picture.py OUT.png Z/X/Y X0,Y0,SIZE DIR..."""
import os, sys
import numpy as np
from osgeo import gdal

gdal.UseExceptions()
out, key, crop = sys.argv[1], sys.argv[2], sys.argv[3]
x0, y0, size = (int(v) for v in crop.split(","))
zoom, gap = 3, 8
panels = []
for root in sys.argv[4:]:
    path = next(os.path.join(root, key + ext) for ext in (".png", ".jpg", ".webp")
                if os.path.exists(os.path.join(root, key + ext)))
    ds = gdal.Open(path)
    if ds.RasterCount == 1 and ds.GetRasterBand(1).GetColorTable() is not None:
        ds = gdal.Translate("/vsimem/picture-expand.tif", ds, rgbExpand="rgb")
    a = ds.ReadAsArray()[:3, y0:y0 + size, x0:x0 + size]
    panels.append(a.repeat(zoom, axis=1).repeat(zoom, axis=2))
h = size * zoom
w = len(panels) * h + (len(panels) - 1) * gap
img = np.full((3, h, w), 255, np.uint8)
for i, p in enumerate(panels):
    img[:, :, i * (h + gap):i * (h + gap) + h] = p
mem = gdal.GetDriverByName("MEM").Create("", w, h, 3, gdal.GDT_Byte)
for b in range(3):
    mem.GetRasterBand(b + 1).WriteArray(img[b])
gdal.GetDriverByName("PNG").CreateCopy(out, mem)
print(f"{out}: {len(panels)} panels of {h} px from {key} at ({x0},{y0}) size {size}")
