"""Formats half of scripts/bench: PSNR of each format's tiles against tegula's lossless PNG tiles
of the same run, decoded by GDAL (not by tegula). For each folder: tiles, bytes, PSNR pooled over
every tile's opaque pixels (10·log10(255²/MSE), MSE over all those pixels), and the worst tile.
Usage: bench_formats.py PNG_DIR LABEL=DIR..."""
import os, sys
import numpy as np
from tile_helpers import psnr as psnr_of, tile_files, tile_pixels

ref = tile_files(sys.argv[1])
print(f"{'format':<12} {'tiles':>6} {'bytes':>12} {'PSNR dB':>8} {'worst tile dB':>14}  (vs tegula's lossless PNG)")
for arg in sys.argv[2:]:
    label, root = arg.split("=", 1)
    got = tile_files(root)
    size = sum(os.path.getsize(p) for p in got.values())
    missing = set(ref) - set(got)
    se = 0.0; n = 0; worst = (float("inf"), None)
    for key, path in got.items():
        if key not in ref:
            continue
        r = tile_pixels(ref[key]); t = tile_pixels(path)
        both = r[3] == 255
        d = t[:3, both].astype(np.float64) - r[:3, both].astype(np.float64)
        tse = float((d * d).sum()); tn = int(both.sum()) * 3
        se += tse; n += tn
        if tn and tse > 0:
            p = psnr_of(tse, tn)
            if p < worst[0]:
                worst = (p, key)
    psnr = psnr_of(se, n)
    w = f"{worst[0]:.2f} {worst[1][0]}/{worst[1][1]}/{worst[1][2]}" if worst[1] else "lossless"
    print(f"{label:<12} {len(got):>6} {size:>12} {psnr:>8.2f} {w:>14}" + (f"  MISSING {len(missing)}" if missing else ""))
