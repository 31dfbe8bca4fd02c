#!/usr/bin/env python3
"""A tile against an oracle raster of the same pixels (gdalwarp of the source onto the tile's
box, 256 x 256): tile_psnr.py TILE ORACLE prints `pixels N psnr P`, N the pixels opaque in both
(alpha 255), P the PSNR over their colour channels (tile_helpers.psnr, inf when equal). GDAL
decodes both (tile_helpers.tile_pixels); numpy compares."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tile_helpers import psnr, tile_pixels  # noqa: E402


def main(tile, oracle):
    import numpy as np

    a, b = tile_pixels(tile).astype(float), tile_pixels(oracle).astype(float)
    if a.shape != b.shape:
        sys.exit("tile_psnr.py: the tile is %s, the oracle %s" % (a.shape, b.shape))
    both = (a[3] == 255) & (b[3] == 255)
    d = (a[:3] - b[:3])[:, both]
    print("pixels %d psnr %.2f" % (int(both.sum()), psnr(float((d ** 2).sum()), max(1, d.size))))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: tile_psnr.py TILE ORACLE")
    main(sys.argv[1], sys.argv[2])
