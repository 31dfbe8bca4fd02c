import Foundation
import TegulaGeometry

/// Computes a ``GeoreferenceReport``: residuals, leave-one-out errors, outliers, distortion,
/// round trip and footprint for one fitted transform.
struct QualityAnalysis {
    let context: FitContext
    let kind: TransformKind
    let transform: any PixelTransform
    /// Why the fit is made in ``FitContext/fitCRS`` (``GCPSet/fitCRSChoice(given:)``).
    var fitCRSReason = ""

    /// Mean Earth radius (IUGG) for great-circle distances.
    static let earthRadius = 6371008.8
    /// Sample grid side for distortion and round trip.
    static let gridSide = 41

    /// Make the CRS conversions the report needs, to fail early when one cannot be made.
    func checkConversions() throws {
        _ = try CRSConversion(from: context.fitCRS, to: .wgs84)
        _ = try CRSConversion(from: context.gcps.crs, to: .wgs84)
        _ = try CRSConversion(from: context.gcps.crs, to: context.fitCRS)
    }

    /// The report; should a conversion that was checked fail after all, a report that says so
    /// in its warnings instead of the figures.
    func reportOrNote(chosenBy: String) -> GeoreferenceReport {
        do { return try report(chosenBy: chosenBy) } catch {
            let none = RMSE(metres: nil, pixels: nil, divisor: 0, divisorIs: "n")
            return GeoreferenceReport(
                transform: kind, chosenBy: chosenBy, fitSRS: context.fitCRS.label, fitSRSChosenBy: fitCRSReason, gcpSRS: context.gcps.crs.label,
                imageWidth: context.width, imageHeight: context.height, gcps: [], rmse: none, leaveOneOutRMSE: none,
                outlierRule: "",
                distortion: Distortion(
                    samples: 0, scaleMetresPerPixel: [], areaScaleRatio: 0,
                    maxAngularDistortionDegrees: 0, meanAngularDistortionDegrees: 0, foldOverSamples: 0),
                roundTripMaxPixels: 0, roundTripFailures: 0, sampling: "not sampled", footprint: [],
                warnings: ["the report could not be computed: \(error)"])
        }
    }

    func report(chosenBy: String) throws -> GeoreferenceReport {
        let set = context.gcps
        let toLonLat = try CRSConversion(from: context.fitCRS, to: .wgs84)
        // The GCPs' own lon/lat, and all GCPs in the fitting CRS (disabled ones too).
        var lon = set.gcps.map(\.ground.x), lat = set.gcps.map(\.ground.y)
        try CRSConversion(from: set.crs, to: .wgs84).apply(x: &lon, y: &lat)
        var fx = set.gcps.map(\.ground.x), fy = set.gcps.map(\.ground.y)
        try CRSConversion(from: set.crs, to: context.fitCRS).apply(x: &fx, y: &fy)
        let predicted = lonLat(set.gcps.map { transform.forward($0.pixel) }, toLonLat)
        var rows: [GCPResidual] = []
        var enabledIndex = 0
        for (i, g) in set.gcps.enumerated() {
            let metres = Self.distance(lon[i], lat[i], predicted[i].x, predicted[i].y)
            let back = transform.inverse(GroundPoint(x: fx[i], y: fy[i]))
            let v = back.map { [$0.x - g.pixel.x, $0.y - g.pixel.y] } ?? [.nan, .nan]
            var row = GCPResidual(
                id: g.id, enabled: g.enabled, pixel: [g.pixel.x, g.pixel.y],
                ground: [g.ground.x, g.ground.y], lon: lon[i], lat: lat[i],
                residualMetres: metres, residualPixels: hypot(v[0], v[1]),
                residualPixelVector: v, outlier: false)
            if g.enabled {
                if let loo = leaveOneOut(enabledIndex, toLonLat: toLonLat, lon: lon[i], lat: lat[i]) {
                    row.leaveOneOutMetres = loo.metres
                    row.leaveOneOutPixels = loo.pixels
                    row.leaveOneOutPixelVector = loo.vector
                }
                enabledIndex += 1
            } else {
                // Not in the fit: its residual already is an independent error.
                row.leaveOneOutMetres = row.residualMetres
                row.leaveOneOutPixels = row.residualPixels
                row.leaveOneOutPixelVector = v
            }
            rows.append(row)
        }
        let enabled = rows.filter(\.enabled)
        let divisorIs = "n, the number of enabled GCPs (QGIS divides by n − m, m = parameters per axis)"
        let rmse = RMSE(
            metres: Self.rms(enabled.map(\.residualMetres)), pixels: Self.rms(enabled.map(\.residualPixels)),
            divisor: enabled.count, divisorIs: divisorIs)
        let looM = enabled.compactMap(\.leaveOneOutMetres), looP = enabled.compactMap(\.leaveOneOutPixels)
        let loo = RMSE(
            metres: Self.rms(looM), pixels: Self.rms(looP), divisor: looM.count,
            divisorIs: "the enabled GCPs whose leave-one-out refit was possible")
        var warnings: [String] = []
        if kind == .tps { warnings.append("tps interpolates every GCP: its residuals are zero by construction; read the leave-one-out figures") }
        if looM.isEmpty { warnings.append("\(enabled.count) GCPs leave none to spare for \(kind.rawValue): no leave-one-out error; add GCPs") }
        // The sheet's own GCPs and a series' tie pins apart: the pins sit where the joint fit put
        // them and would make every GCP a few pixels off look like an outlier.
        for pins in [false, true] {
            let kept = rows.indices.filter { rows[$0].enabled && GCP.isTiePin(rows[$0].id) == pins && rows[$0].leaveOneOutMetres != nil }
            let errors = kept.map { rows[$0].leaveOneOutMetres! }
            let median = errors.sorted().dropFirst(errors.count / 2).first ?? 0
            guard errors.count >= 5, median > 0 else { continue }
            for i in kept where rows[i].leaveOneOutMetres! > 3 * median {
                rows[i].outlier = true
                warnings.append(
                    String(
                        format: "%@ %@ looks like an outlier: leave-one-out error %.0f m, over 3× the median %.0f m", pins ? "tie pin" : "GCP",
                        rows[i].id, rows[i].leaveOneOutMetres!, median))
            }
        }
        let (distortion, roundTrip, failures) = sampleGrid(toLonLat)
        if distortion.foldOverSamples > 0 {
            warnings.append(
                "the map folds over at \(distortion.foldOverSamples) of \(distortion.samples) sample points: \(kind.rawValue) is not one-to-one over this image"
            )
        }
        let side = Self.gridSide
        return GeoreferenceReport(
            transform: kind, chosenBy: chosenBy, fitSRS: context.fitCRS.definition, fitSRSChosenBy: fitCRSReason, gcpSRS: set.crs.definition,
            imageWidth: context.width, imageHeight: context.height, gcps: rows, rmse: rmse, leaveOneOutRMSE: loo,
            outlierRule:
                "enabled GCP whose leave-one-out error exceeds 3× the median leave-one-out error of its kind, the sheet's own GCPs or a series' tie pins (needs ≥ 5 such errors)",
            distortion: distortion, roundTripMaxPixels: roundTrip, roundTripFailures: failures,
            sampling: "\(side) × \(side) grid over the image, corners and edges included",
            footprint: try footprint(), warnings: warnings)
    }

    /// Refit without enabled GCP `index` and predict it.
    func leaveOneOut(_ index: Int, toLonLat: CRSConversion, lon: Double, lat: Double)
        -> (metres: Double, pixels: Double, vector: [Double])?
    {
        var pixels = context.pixels, grounds = context.fitGrounds
        let p = pixels.remove(at: index), g = grounds.remove(at: index)
        guard let t = Georeferencer.fitTransform(kind, pixels: pixels, grounds: grounds, domain: context.domain)
        else { return nil }
        let q = lonLat([t.forward(p)], toLonLat)[0]
        guard let back = t.inverse(g) else { return nil }
        let v = [back.x - p.x, back.y - p.y]
        return (Self.distance(lon, lat, q.x, q.y), hypot(v[0], v[1]), v)
    }

    /// Leave-one-out RMSE in metres of `kind` on a context (for choosing); nil when not computable.
    static func leaveOneOutRMSE(_ context: FitContext, kind: TransformKind) -> Double? {
        guard let t = Georeferencer.fitTransform(kind, pixels: context.pixels, grounds: context.fitGrounds, domain: context.domain),
            let toLonLat = try? CRSConversion(from: context.fitCRS, to: .wgs84)
        else { return nil }
        let a = QualityAnalysis(context: context, kind: kind, transform: t)
        var lon = context.enabled.map(\.ground.x), lat = context.enabled.map(\.ground.y)
        guard (try? CRSConversion(from: context.gcps.crs, to: .wgs84).apply(x: &lon, y: &lat)) != nil else { return nil }
        var errors: [Double] = []
        for i in context.pixels.indices {
            guard let e = a.leaveOneOut(i, toLonLat: toLonLat, lon: lon[i], lat: lat[i]) else { return nil }
            errors.append(e.metres)
        }
        return rms(errors)
    }

    /// Distortion and round trip on a grid over the image.
    func sampleGrid(_ toLonLat: CRSConversion) -> (Distortion, Double, Int) {
        let side = Self.gridSide
        let w = Double(context.width), h = Double(context.height)
        let step = max(w, h) / 2000
        var pts: [PixelPoint] = []
        for j in 0..<side {
            for i in 0..<side {
                pts.append(PixelPoint(x: w * Double(i) / Double(side - 1), y: h * Double(j) / Double(side - 1)))
            }
        }
        var worst = 0.0, failures = 0
        var probes: [GroundPoint] = []
        var dets: [Double] = []
        for p in pts {
            let g = transform.forward(p)
            if let back = transform.inverse(g), back.x.isFinite, back.y.isFinite {
                worst = max(worst, hypot(back.x - p.x, back.y - p.y))
            } else {
                failures += 1
            }
            dets.append(transform.jacobian(at: p).determinant)
            probes += [g, transform.forward(PixelPoint(x: p.x + step, y: p.y)), transform.forward(PixelPoint(x: p.x, y: p.y + step))]
        }
        let ll = lonLat(probes, toLonLat)
        var scales: [Double] = [], areas: [Double] = [], angles: [Double] = []
        let k = Self.earthRadius * .pi / 180
        for s in 0..<pts.count {
            let o = ll[3 * s], ex = ll[3 * s + 1], ey = ll[3 * s + 2]
            let c = cos(o.y * .pi / 180)
            func east(_ q: GroundPoint) -> Double { Self.wrap(q.x - o.x) * c * k / step }
            func north(_ q: GroundPoint) -> Double { (q.y - o.y) * k / step }
            let jxx = east(ex), jxy = east(ey), jyx = north(ex), jyy = north(ey)
            let e = jxx * jxx + jyx * jyx, f = jxx * jxy + jyx * jyy, g = jxy * jxy + jyy * jyy
            let root = ((e - g) * (e - g) + 4 * f * f).squareRoot()
            let a = ((e + g + root) / 2).squareRoot(), b = (max(0, e + g - root) / 2).squareRoot()
            guard a.isFinite, b.isFinite, a > 0 else { continue }
            areas.append(a * b)
            scales.append((a * b).squareRoot())
            angles.append(2 * asin((a - b) / (a + b)) * 180 / .pi)
        }
        let positive = dets.filter { $0 > 0 }.count, negative = dets.filter { $0 < 0 }.count
        let sorted = scales.sorted()
        let d = Distortion(
            samples: pts.count,
            scaleMetresPerPixel: sorted.isEmpty ? [] : [sorted[0], sorted[sorted.count / 2], sorted[sorted.count - 1]],
            areaScaleRatio: (areas.max() ?? 0) / max(areas.min() ?? 1, .leastNormalMagnitude),
            maxAngularDistortionDegrees: angles.max() ?? 0,
            meanAngularDistortionDegrees: angles.isEmpty ? 0 : angles.reduce(0, +) / Double(angles.count),
            foldOverSamples: min(positive, negative))
        return (d, worst, failures)
    }

    /// The mask (or image border) through the forward transform, in degrees, closed, its edges
    /// refined by Allmaps' settings (``FitFootprint``).
    func footprint() throws -> [[Double]] {
        try FitFootprint.ring(
            mask: context.gcps.mask, width: context.width, height: context.height, transform: transform,
            fitCRS: context.fitCRS, refinement: .allmaps)
    }

    func lonLat(_ g: [GroundPoint], _ c: CRSConversion) -> [GroundPoint] {
        var xs = g.map(\.x), ys = g.map(\.y)
        c.apply(x: &xs, y: &ys)
        return zip(xs, ys).map { GroundPoint(x: $0, y: $1) }
    }

    /// Great-circle distance in metres (haversine).
    static func distance(_ lon1: Double, _ lat1: Double, _ lon2: Double, _ lat2: Double) -> Double {
        let r = Double.pi / 180
        let dLat = (lat2 - lat1) * r, dLon = wrap(lon2 - lon1) * r
        let s = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * r) * cos(lat2 * r) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadius * asin(min(1, s.squareRoot()))
    }

    /// A longitude difference brought into −180…180.
    static func wrap(_ d: Double) -> Double { d - 360 * (d / 360).rounded() }

    static func rms(_ v: [Double]) -> Double? {
        let f = v.filter(\.isFinite)
        guard !f.isEmpty else { return nil }
        return (f.reduce(0) { $0 + $1 * $1 } / Double(f.count)).squareRoot()
    }
}
