"""Helpers of scripts/bench-series for sheets placed by their ties (issue 43 items 2 and 4).

    series_placement.py nine DIR CELL OVERLAP COLLAR [NOISE]   for a series made with --gcps-on nine (GCPs
        on the centre of every 3 x 3 block only, `none` elsewhere), DIR/ties.csv: 18 ties per neighbour pair
        from truth.json (two rows across the overlap, nine places along it), each pixel moved by up to
        NOISE px (default 0.1, seeded)
    series_placement.py errors DIR WORK LO HI     per sheet, the largest distance in max-zoom pixels over a
        9 x 9 grid of scan pixels LO..HI between GDAL's GCP transformer (order 1) on WORK/NAME/georef.vrt
        (for a helmert sheet in the index, numpy's least-squares similarity through its GCPs) and truth.json's map; prints "max / mean / RMS | by hops" using WORK/index.geojson's hops;
        a sheet left out (no georef.vrt) is counted, not measured ("max / mean / RMS, N of M placed");
        with --tied a third field, the largest over the sheets in a tie (the index's `ties` > 0); and last,
        over the sheets with a `place_se_m` (their standard error of place), each one's error over it
        (metres to pixels by the cosine of the sheet centre's latitude): "middle (90 % under)"
"""
import csv
import json
import random
import sys

import numpy as np


def nine(d, cell, overlap, collar, noise=0.1):
    truth = json.load(open(f"{d}/truth.json"))["sheets"]
    rng = random.Random(43)
    edge, side = collar + overlap + cell, cell + 2 * overlap
    out = ["map_a,x_a,y_a,map_b,x_b,y_b"]
    for a, A in sorted(truth.items()):
        r, c = (int(v) for v in a[1:].split("c"))
        for b, across in ((f"r{r}c{c + 1}", True), (f"r{r + 1}c{c}", False)):
            if b not in truth:
                continue
            B = truth[b]
            for u in (edge - 11, edge + 11):
                for v in np.linspace(collar + 4, collar + side - 4, 9):
                    xa, ya = (u, v) if across else (v, u)
                    gx, gy = A["x0"] + xa * A["res"], A["y0"] - ya * A["res"]
                    p = [xa, ya, (gx - B["x0"]) / B["res"], (B["y0"] - gy) / B["res"]]
                    p = [x + rng.uniform(-noise, noise) for x in p]
                    out.append(f"{a},{p[0]!r},{p[1]!r},{b},{p[2]!r},{p[3]!r}")
    open(f"{d}/ties.csv", "w").write("\n".join(out) + "\n")
    yml = open(f"{d}/series.yml").read()
    if "ties_from:" not in yml:
        yml = "\n".join(l for l in yml.split("\n") if not l.startswith("  - [") and l != "ties:") + "ties_from: ties.csv\n"
    open(f"{d}/series.yml", "w").write(yml)


def similarity(gcps, pts):
    """The least-squares similarity (pixel y flipped: X = a x + b y + c, Y = b x - a y + f) through
    the GCPs at the points: a helmert sheet's transform, which GDAL's order-1 transformer is not
    where its pins lie on one line (a sheet placed by the ties of one overlap)."""
    m = np.array([r for g in gcps for r in ([g.GCPPixel, g.GCPLine, 1, 0], [-g.GCPLine, g.GCPPixel, 0, 1])])
    a, b, c, f = np.linalg.lstsq(m, np.array([v for g in gcps for v in (g.GCPX, g.GCPY)]), rcond=None)[0]
    return np.column_stack([a * pts[:, 0] + b * pts[:, 1] + c, b * pts[:, 0] - a * pts[:, 1] + f])


def errors(d, work, lo, hi, tied=False):
    import os
    from osgeo import gdal
    gdal.UseExceptions()
    truth = json.load(open(f"{d}/truth.json"))["sheets"]
    features = json.load(open(f"{work}/index.geojson"))["features"]
    hops = {f["id"]: f["properties"].get("hops", 0) for f in features}
    ties = {f["id"]: f["properties"].get("ties", 0) for f in features}
    kinds = {f["id"]: f["properties"].get("transform") for f in features}
    se = {f["id"]: f["properties"].get("place_se_m") for f in features}
    xs, ys = np.meshgrid(np.linspace(lo, hi, 9), np.linspace(lo, hi, 9))
    pts = np.column_stack([xs.ravel(), ys.ravel()])
    worst, by, in_tie, ratios = [], {}, [], []
    for name, t in truth.items():
        if not os.path.exists(f"{work}/{name}/georef.vrt"):
            continue
        if kinds.get(name) == "helmert":
            got = similarity(gdal.Open(f"{work}/{name}/georef.vrt").GetGCPs(), pts)
        else:
            tr = gdal.Transformer(gdal.Open(f"{work}/{name}/georef.vrt"), None, ["METHOD=GCP_POLYNOMIAL", "MAX_GCP_ORDER=1"])
            got = np.array([tr.TransformPoint(0, float(x), float(y))[1][:2] for x, y in pts])
        want = np.column_stack([t["x0"] + pts[:, 0] * t["res"], t["y0"] - pts[:, 1] * t["res"]])
        e = float(np.max(np.hypot(*(got - want).T)) / t["res"])
        worst.append(e)
        by[hops[name]] = max(by.get(hops[name], 0), e)
        if ties.get(name, 0) > 0:
            in_tie.append(e)
        if se.get(name):
            lat = 2 * np.arctan(np.exp((t["y0"] - t["res"] * t["height"] / 2) / 6378137)) - np.pi / 2
            ratios.append(e / (se[name] / (t["res"] * np.cos(lat))))
    rms = (sum(e * e for e in worst) / len(worst)) ** 0.5
    placed = "" if len(worst) == len(truth) else f", {len(worst)} of {len(truth)} placed"
    line = f"{max(worst):.2f} / {sum(worst) / len(worst):.2f} / {rms:.2f}{placed} | " + ", ".join(f"{h}: {e:.2f}" for h, e in sorted(by.items()))
    ratio = f"{np.median(ratios):.2f} ({np.percentile(ratios, 90):.2f})" if ratios else "–"
    print(line + (f" | {max(in_tie, default=float('nan')):.2f}" if tied else "") + f" | {ratio}")


if __name__ == "__main__":
    if sys.argv[1] == "nine":
        nine(sys.argv[2], *(int(v) for v in sys.argv[3:6]), *(float(v) for v in sys.argv[6:7]))
    else:
        errors(sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5]), "--tied" in sys.argv[6:])
