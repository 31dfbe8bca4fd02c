"""The figures of the sheets a series run placed by their ties (issue 43 item 2: `gcps: none`),
re-derived with numpy from the run's inputs, for TiePlacementTests' oracle.

    placed_loo.py DIR WORK    prints {sheet: {"hops": H, "rmse_m": R, "loo_m": L, "ties": N}} for
                              every sheet whose `gcps` in DIR/sheets.csv is `none`
    placed_loo.py DIR WORK --place-se
                              prints {sheet: place_se_m} for every sheet

DIR is a made series (scripts/make-series --ties-file): sheets.csv (name,input,gcps,transform,…;
every sheet polynomial1, the only family this oracle knows), ties.csv (map_a,x_a,y_a,map_b,x_b,
y_b), QGIS .points GCPs (rows negated) and series.yml (`tie_weight:`, default 100). WORK is the
run's work folder; only the fitting CRS is read from it (`fit_srs` in a GCP sheet's report.json).

The joint problem, as the docs state it: every sheet an affine map of its scan pixels, every tie
a free ground point G; minimise the sum over GCPs of |T(p) - g|^2 plus, per tie, w·|T_a(p_a) - G|^2
+ w·|T_b(p_b) - G|^2, w the tie weight (one GCP for a tie to a sheet without GCPs); one weighted
least squares over every sheet's six parameters.

Then per sheet without GCPs, its ties' pairs (its pixel, where the other sheet puts the other end):
rmse_m is the RMS of the great-circle distance between where it puts its pixel and that place;
loo_m the same with each tie left out in turn, the sheet alone refitted (affine least squares)
to the other pairs, the other sheets as the joint fit left them, a tie whose leaving out leaves
fewer than six independent equations not counted. Great-circle metres on the sphere of the mean
Earth radius (6371008.8 m, IUGG), from the fitting CRS through OSR to longitude and latitude.
"""
import csv
import json
import re
import sys

import numpy as np
from osgeo import osr

EARTH_RADIUS = 6371008.8


def read_points(path):
    """A QGIS .points file's CRS and its enabled (pixel x, pixel y, ground x, ground y) rows."""
    crs, rows = None, []
    with open(path) as f:
        for line in f:
            if line.startswith("#CRS:"):
                crs = line.split(":", 1)[1].strip()
            elif line[:1] not in "#m" and line.strip():
                mx, my, sx, sy, enable = (float(v) for v in line.split(",")[:5])
                if enable:
                    rows.append((sx, -sy, mx, my))
    return crs, np.array(rows)


def transformation(source, target):
    """An OSR transformation between two CRS names, longitude first."""
    a, b = osr.SpatialReference(), osr.SpatialReference()
    a.SetFromUserInput(source)
    b.SetFromUserInput(target)
    for s in (a, b):
        s.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    return osr.CoordinateTransformation(a, b)


def design(p):
    """The affine map's [x, y, 1] row per pixel."""
    p = np.atleast_2d(p)
    return np.column_stack([p[:, 0], p[:, 1], np.ones(len(p))])


def joint(names, gcps, ties, weight):
    """Each sheet's 3 x 2 affine parameters (ground = [x, y, 1] @ A) at the joint optimum. A tie's
    G is eliminated first: w·|a - G|^2 + w·|b - G|^2 is least at the midpoint, where it is
    (w/2)·|a - b|^2, so each tie is one pair of rows sqrt(w/2)·(T_a(p_a) - T_b(p_b)) = 0 (the dense
    problem with every G free takes seconds here and gives the same parameters to 1e-10)."""
    index = {n: i for i, n in enumerate(names)}
    n = 6 * len(names)
    rows, rhs = [], []

    def equation(terms, target, w):
        for axis in range(2):
            r = np.zeros(n)
            for sheet, pixel, sign in terms:
                r[6 * index[sheet] + 3 * axis : 6 * index[sheet] + 3 * axis + 3] += sign * design(pixel)[0]
            rows.append(np.sqrt(w) * r)
            rhs.append(np.sqrt(w) * target[axis])

    for sheet, pts in gcps.items():
        for x, y, gx, gy in pts:
            equation([(sheet, (x, y), 1)], (gx, gy), 1)
    for a, pa, b, pb in ties:
        w = weight if a in gcps and b in gcps else 1
        equation([(a, pa, 1), (b, pb, -1)], (0, 0), w / 2)
    theta, _, rank, _ = np.linalg.lstsq(np.array(rows), np.array(rhs), rcond=None)
    assert rank == n, f"the joint problem has rank {rank} of {n}"
    return {s: theta[6 * i : 6 * i + 6].reshape(2, 3).T for s, i in index.items()}


def distances(a, b, to_lonlat, centre):
    """Great-circle metres between rows of a and b (centred fitting-CRS points)."""
    ll = np.array(to_lonlat.TransformPoints((np.vstack([a, b]) + centre).tolist()))[:, :2]
    lon1, lat1 = np.radians(ll[: len(a)]).T
    lon2, lat2 = np.radians(ll[len(a) :]).T
    s = np.sin((lat2 - lat1) / 2) ** 2 + np.cos(lat1) * np.cos(lat2) * np.sin((lon2 - lon1) / 2) ** 2
    return 2 * EARTH_RADIUS * np.arcsin(np.minimum(1, np.sqrt(s)))


def rms(v):
    return float(np.sqrt(np.mean(np.square(v)))) if len(v) else None


def figures(sheet, theta, ties, to_lonlat, centre):
    """rmse_m, loo_m and the tie count of a sheet without GCPs."""
    pairs = [(pa, pb, b) for a, pa, b, pb in ties if a == sheet] + [(pb, pa, a) for a, pa, b, pb in ties if b == sheet]
    mine = np.array([p for p, _, _ in pairs])
    others = np.array([design(q) @ theta[o] for _, q, o in pairs])[:, 0]
    residuals = distances(design(mine) @ theta[sheet], others, to_lonlat, centre)
    predicted, wanted = [], []
    for i in range(len(pairs)):
        keep = np.arange(len(pairs)) != i
        d = design(mine[keep])
        fit, _, rank, _ = np.linalg.lstsq(d, others[keep], rcond=None)
        if rank == 3:
            predicted.append(design(mine[i]) @ fit)
            wanted.append(others[i])
    loo = distances(np.vstack(predicted), np.array(wanted), to_lonlat, centre) if predicted else []
    return {"rmse_m": rms(residuals), "loo_m": rms(loo), "ties": len(pairs)}


def tie_pairs(ties, theta):
    """Per tie (its pair, its sign, s): pairs of sheets by name, a tie the other way round from its
    pair's first sheet (first by name) signed -1, and s its place along the longest axis of its
    pair's points on their first sheets at theta, from their centre."""
    pairs, per_tie = {}, {}
    for k, (a, pa, b, pb) in enumerate(ties):
        pairs.setdefault(tuple(sorted((a, b))), []).append(k)
    for key, ks in pairs.items():
        at = np.array([design(ties[k][1]) @ theta[ties[k][0]] for k in ks])[:, 0]
        centred = at - at.mean(axis=0)
        s = centred @ np.linalg.eigh(centred.T @ centred)[1][:, -1]
        for k, sv in zip(ks, s):
            per_tie[k] = (key, 1.0 if ties[k][0] == key[0] else -1.0, sv)
    return pairs, per_tie


def split_forms(pairs, per_tie, count, factors=None):
    """The three quadratic forms on the ties' misfits (2 per tie, x then y) that give, pair by
    pair and coordinate, the sum of squares of the least-squares shift (n c^2), of the slope along
    the strip (g^2 sum s^2) and of the rest; and the three error covariances at unit size: each
    tie's own, its pair's shared shift, its pair's shared slope (times s), each pair's block
    times its variance factor when factors are given."""
    Q = np.zeros((3, 2 * count, 2 * count))
    C = np.zeros((3, 2 * count, 2 * count))
    C[0] = np.eye(2 * count)
    for key, ks in pairs.items():
        f = factors[key] if factors else 1.0
        sign = np.array([per_tie[k][1] for k in ks])
        s = np.array([per_tie[k][2] for k in ks])
        slope = len(ks) >= 2 and float(s @ s) > 0
        for axis in range(2):
            i = np.array([2 * k + axis for k in ks])
            shift = np.outer(sign, sign)
            along = np.outer(sign * s, sign * s)
            Q[1][np.ix_(i, i)] = shift / len(ks)
            Q[2][np.ix_(i, i)] = along / float(s @ s) if slope else 0
            Q[0][np.ix_(i, i)] = np.eye(len(ks)) - Q[1][np.ix_(i, i)] - Q[2][np.ix_(i, i)]
            C[0][np.ix_(i, i)] = f * np.eye(len(ks))
            C[1][np.ix_(i, i)] = f * shift
            C[2][np.ix_(i, i)] = f * along
    return Q, C


def tie_error_model(misfit, J, w, N, pairs, per_tie, placed_parameters):
    """The ties' three error variances (own, shared shift, shared slope), and each pair's factor
    on them, from the misfits at the joint optimum. A pair's factor: its own sum of squares (what
    split_forms leaves after its shift and slope) over the group's typical variance (all pairs'
    own sums over their degrees of freedom, 2 per tie less 2 per shift and slope), plus 8, over
    its degrees of freedom plus 8. The group's three sums of squares are matched (least squares,
    none below 0) to their expectations under each error alone at unit size with those factors,
    trace(Q_i R C_j R^T), R = J N^-1 J^T W - I the misfit the joint fit leaves of an error in the
    ties. Where no pair has a degree of freedom left, the own variance is every misfit's sum of
    squares over 2 per tie less the parameters of the sheets without GCPs, nothing shared."""
    count = len(misfit) // 2
    free = {key: 2 * (len(ks) - (2 if len(ks) >= 2 else 1)) for key, ks in pairs.items()}
    if sum(free.values()) <= 0:
        return np.array([float(misfit @ misfit) / (2 * count - placed_parameters), 0.0, 0.0]), None
    Q, _ = split_forms(pairs, per_tie, count)
    own = {}
    for key, ks in pairs.items():
        i = np.array([2 * k + axis for k in ks for axis in range(2)])
        own[key] = float(misfit[i] @ Q[0][np.ix_(i, i)] @ misfit[i])
    typical = sum(own.values()) / sum(free.values())
    factors = {key: (own[key] / typical + 8) / (free[key] + 8) for key in pairs} if typical > 0 else None
    _, C = split_forms(pairs, per_tie, count, factors)
    R = J @ np.linalg.solve(N, J.T * w) - np.eye(2 * count)
    M = np.array([[np.trace(Q[i] @ R @ C[j] @ R.T) for j in range(3)] for i in range(3)])
    sums = np.array([misfit @ Q[i] @ misfit for i in range(3)])
    best, miss = np.zeros(3), float(sums @ sums)
    for mask in range(1, 8):
        free = [j for j in range(3) if mask & (1 << j)]
        x = np.linalg.lstsq(M[:, free], sums, rcond=None)[0]
        if np.all(x >= 0):
            full = np.zeros(3)
            full[free] = x
            if float(np.sum((sums - M @ full) ** 2)) < miss:
                best, miss = full, float(np.sum((sums - M @ full) ** 2))
    return best, factors


def place_se(names, gcps, ties, weight, theta, sizes, to_lonlat, centre):
    """Each sheet's standard error of place, exactly: the GCPs' errors (one coordinate's variance
    from their misfits at the joint optimum: sum of squares over 2 per GCP less 6 per sheet with
    GCPs) and the ties' (tie_error_model: each tie's own, and its pair's shared shift and slope)
    carried through the weighted least squares, Cov(theta) = N^-1 A^T W S W A N^-1 with S the
    covariance of the rows' errors, to each scan corner; the corner's 2 x 2 covariance taken to
    local east and north metres by the fitting CRS's derivative there (OSR, 1 m steps,
    great-circle), and the square root of its trace at the worst corner."""
    index = {n: i for i, n in enumerate(names)}
    n = 6 * len(names)

    def block(sheet, pixel, sign, axis, r):
        r[6 * index[sheet] + 3 * axis : 6 * index[sheet] + 3 * axis + 3] += sign * design(pixel)[0]

    gcp_sum = sum(float(np.sum((design(p[:, :2]) @ theta[s] - p[:, 2:]) ** 2)) for s, p in gcps.items())
    gcp_free = sum(2 * len(p) - 6 for p in gcps.values())
    G = []
    for sheet, pts in gcps.items():
        for x, y, _, _ in pts:
            for axis in range(2):
                r = np.zeros(n)
                block(sheet, (x, y), 1, axis, r)
                G.append(r)
    J, w = [], []
    for a, pa, b, pb in ties:
        for axis in range(2):
            r = np.zeros(n)
            block(a, pa, 1, axis, r)
            block(b, pb, -1, axis, r)
            J.append(r)
            w.append((weight if a in gcps and b in gcps else 1) / 2)
    G, J, w = np.array(G), np.array(J), np.array(w)
    N = G.T @ G + J.T @ (J * w[:, None])
    misfit = J @ np.concatenate([theta[s].T.ravel() for s in names])
    pairs, per_tie = tie_pairs(ties, theta)
    v, factors = tie_error_model(misfit, J, w, N, pairs, per_tie, 6 * (len(names) - len(gcps)))
    _, C = split_forms(pairs, per_tie, len(ties), factors)
    S = sum(v[j] * C[j] for j in range(3))
    inverse = np.linalg.inv(N)
    WJ = J * w[:, None]
    cov = inverse @ (gcp_sum / gcp_free * G.T @ G + WJ.T @ S @ WJ) @ inverse
    out = {}
    for s, i in index.items():
        width, height = sizes[s]
        worst = 0.0
        for corner in [(0, 0), (width, 0), (width, height), (0, height)]:
            j = np.zeros((2, n))
            for axis in range(2):
                j[axis, 6 * i + 3 * axis : 6 * i + 3 * axis + 3] = design(corner)[0]
            c = j @ cov @ j.T
            at = design(corner) @ theta[s]
            steps = np.vstack([at, at + [1, 0], at + [0, 1]])
            ll = np.array(to_lonlat.TransformPoints((steps + centre).tolist()))[:, :2]
            lat = np.radians(ll[0, 1])
            east = np.radians(ll[1:, 0] - ll[0, 0]) * np.cos(lat) * EARTH_RADIUS
            north = np.radians(ll[1:, 1] - ll[0, 1]) * EARTH_RADIUS
            g = np.vstack([east, north])  # metres east and north per fitting-CRS unit in x and in y
            worst = max(worst, float(np.trace(g @ c @ g.T)))
        out[s] = float(np.sqrt(worst))
    return out


def hops(sheet, gcps, ties):
    """Ties between a sheet and the nearest sheet with GCPs, breadth first."""
    seen, front, h = set(gcps), set(gcps), 0
    while sheet not in seen and front:
        front = {b for a, _, b, _ in ties if a in front} | {a for a, _, b, _ in ties if b in front}
        front -= seen
        seen |= front
        h += 1
    return h


def main(folder, work, mode=None):
    sheets = list(csv.DictReader(open(f"{folder}/sheets.csv")))
    assert all(s["transform"] == "polynomial1" for s in sheets), "this oracle knows polynomial1 only"
    gcps, crs = {}, set()
    for s in sheets:
        if s["gcps"] != "none":
            c, gcps[s["name"]] = read_points(f"{folder}/{s['gcps']}")
            crs.add(c)
    fit_srs = json.load(open(f"{work}/{next(iter(gcps))}/report.json"))["fit_srs"]
    assert len(crs) == 1, f"GCPs in several CRSs: {crs}"
    to_fit = transformation(crs.pop(), fit_srs)
    for name, pts in gcps.items():
        pts[:, 2:] = np.array(to_fit.TransformPoints(pts[:, 2:].tolist()))[:, :2]
    centre = np.vstack([p[:, 2:] for p in gcps.values()]).mean(axis=0)
    for pts in gcps.values():
        pts[:, 2:] -= centre
    ties = [
        (r["map_a"], (float(r["x_a"]), float(r["y_a"])), r["map_b"], (float(r["x_b"]), float(r["y_b"])))
        for r in csv.DictReader(open(f"{folder}/ties.csv"))
    ]
    weight = re.search(r"^tie_weight:\s*([0-9.eE+-]+)", open(f"{folder}/series.yml").read(), re.M)
    theta = joint([s["name"] for s in sheets], gcps, ties, float(weight.group(1)) if weight else 100.0)
    to_lonlat = transformation(fit_srs, "EPSG:4326")
    if mode == "--place-se":
        truth = json.load(open(f"{folder}/truth.json"))["sheets"]
        sizes = {s["name"]: (truth[s["name"]]["width"], truth[s["name"]]["height"]) for s in sheets}
        print(json.dumps(place_se([s["name"] for s in sheets], gcps, ties, float(weight.group(1)) if weight else 100.0, theta, sizes, to_lonlat, centre)))
        return
    out = {}
    for s in sheets:
        if s["gcps"] == "none":
            out[s["name"]] = {"hops": hops(s["name"], gcps, ties)} | figures(s["name"], theta, ties, to_lonlat, centre)
    print(json.dumps(out))


if __name__ == "__main__":
    main(*sys.argv[1:4])
