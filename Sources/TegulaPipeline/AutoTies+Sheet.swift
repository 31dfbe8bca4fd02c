import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference
import TegulaScan

extension AutoTies {
    /// A GCP-fitted map as the tie search takes it: its fit on its own GCPs, its mask (else its
    /// scan's border), the longitude and latitude box of that footprint, and its georeference
    /// stage hash without ties (for the record's key).
    ///
    /// A map that cannot be fitted on its own (a sheet with no GCPs, to be placed by its
    /// neighbours) has no footprint to find its overlaps from: ``init(map:pipeline:)`` answers nil
    /// and it waits as a ``Loose`` sheet until matching it whole against the sheets around it
    /// gives it an approximate fit (``AutoTies/locate(_:among:grid:_:order:tried:)``), with which it
    /// becomes a sheet here like any other.
    struct Sheet {
        let name: String
        let input: String
        let fit: Georeference
        let mask: [PixelPoint]
        let box: Box
        let hash: String
        let scans: any ScanOpener
        /// How far its fit misses its own GCPs, scan pixels: the enabled GCPs' leave-one-out RMS
        /// (their residuals' where one cannot be left out); nil for an approximate fit from matching.
        var error: Double?

        /// Nil for a map not fitted from GCPs, or one that cannot be fitted on its own.
        init?(map: MapSpec, pipeline: Pipeline) throws {
            guard let g = map.georeference, g.gcps != nil, g.bounds == nil else { return nil }
            let step = GeoreferenceStep(map: map, folder: pipeline.workFolder(for: map), digests: FileDigests(stamps: [:]), scans: pipeline.inputs)
            guard let fit = try? GCPGeoreferencing.fit(map: map, step: step) else { return nil }
            let w = Double(fit.imageWidth), h = Double(fit.imageHeight)
            let mask = try step.mask() ?? [PixelPoint(x: 0, y: 0), PixelPoint(x: w, y: 0), PixelPoint(x: w, y: h), PixelPoint(x: 0, y: h)]
            try self.init(name: map.name, input: map.input, fit: fit, mask: mask, hash: step.hash(), scans: pipeline.inputs)
            let errors = fit.report.gcps.filter(\.enabled).map { $0.leaveOneOutPixels ?? $0.residualPixels }.filter(\.isFinite)
            error = errors.isEmpty ? nil : (errors.map { $0 * $0 }.reduce(0, +) / Double(errors.count)).squareRoot()
        }

        /// How far ties with `other` may lie from where the two fits put them, pixels of `other`'s
        /// scan: 4 px plus twice the two fits' errors combined (√(a² + b²)), at most the search
        /// radius; nil unless both sheets are fitted on their own GCPs. On a 4 × 4 series with 4-px
        /// GCP errors right ties lay up to 12.7 px from the prediction where the limit is 16 px
        /// (twice alone, 12 px, refused them); the look-alike of AutoTiesLookAlikeTests lies 27 px
        /// off where it is 24 px.
        func agreement(with other: Sheet, search: Int) -> Double? {
            guard let a = error, let b = other.error else { return nil }
            return min(Double(search), 4 + 2 * hypot(a, b))
        }

        /// A sheet from its fit (on its GCPs, or approximate); nil when the fit maps its mask nowhere.
        init?(name: String, input: String, fit: Georeference, mask: [PixelPoint], hash: String, scans: any ScanOpener) throws {
            guard let box = Box(try fit.pixelsToGround(Self.densified(mask), crs: .wgs84)) else { return nil }
            (self.name, self.input, self.fit, self.mask, self.box, self.hash, self.scans) = (name, input, fit, mask, box, hash, scans)
        }

        /// A fresh reader of the scan.
        func reader() throws -> any ScanReader { try scans.open(input).reader() }

        /// A 5 × 5 grid over this sheet's mask paired with where the two fits put it on `other`'s
        /// scan; nil when fewer than four points reach it.
        func predicted(on other: Sheet) throws -> [(a: PixelPoint, b: PixelPoint)]? {
            let xs = mask.map(\.x), ys = mask.map(\.y)
            let (x0, x1, y0, y1) = (xs.min()!, xs.max()!, ys.min()!, ys.max()!)
            let grid = (0..<25).map { PixelPoint(x: x0 + (x1 - x0) * Double($0 % 5) / 4, y: y0 + (y1 - y0) * Double($0 / 5) / 4) }
            let crs = fit.gcps.crs
            let there = try other.fit.groundToPixels(try fit.pixelsToGround(grid, crs: crs), crs: crs)
            let pairs = zip(grid, there).compactMap { a, b in b.flatMap { $0.x.isFinite && $0.y.isFinite ? (a: a, b: $0) : nil } }
            return pairs.count >= 4 ? pairs : nil
        }

        /// The ring with 8 points per edge, so a curved fit's footprint keeps its shape.
        static func densified(_ ring: [PixelPoint]) -> [PixelPoint] {
            ring.indices.flatMap { i -> [PixelPoint] in
                let a = ring[i], b = ring[(i + 1) % ring.count]
                return (0..<8).map { k in PixelPoint(x: a.x + (b.x - a.x) * Double(k) / 8, y: a.y + (b.y - a.y) * Double(k) / 8) }
            }
        }
    }

    /// A footprint's longitude and latitude box, to find the sheets that may overlap.
    struct Box {
        let west: Double, south: Double, east: Double, north: Double

        /// The box of the points; nil when one is not finite.
        init?(_ points: [GroundPoint]) {
            guard !points.isEmpty, points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return nil }
            (west, east) = (points.map(\.x).min()!, points.map(\.x).max()!)
            (south, north) = (points.map(\.y).min()!, points.map(\.y).max()!)
        }

        /// True when the two boxes share more than an edge.
        func meets(_ other: Box) -> Bool {
            west < other.east && other.west < east && south < other.north && other.south < north
        }
    }
}
