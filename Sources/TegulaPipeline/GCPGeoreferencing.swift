import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference
import TegulaWarp

/// The georeference stage for maps with GCPs: read them (file or inline), fit with
/// ``Georeferencer/fit(_:imageWidth:imageHeight:options:)`` and write what `tegula georef`
/// writes (``GeoreferenceWriter``): `georef.vrt`, `report.json`, `residuals.svg`.
enum GCPGeoreferencing {
    /// The GCPs of a map's section: a file in any format, the inline list (`gcp_srs`, default
    /// EPSG:4326), or those matched against a reference (``ReferenceMatch``, made or read back in
    /// `step`'s folder), or none (`gcps: none`: an empty set in `gcp_srs`, default EPSG:3857, which
    /// the joint fit's tie pins join); the section's mask, when given, replaces one the file carries.
    static func gcpSet(_ g: GeoreferenceSpec, mask: [PixelPoint]?, step: GeoreferenceStep) throws -> GCPSet {
        var set: GCPSet
        switch g.gcps {
        case .file(let p):
            set = try GCPReader.read(path: p, gcpCRS: g.gcpCRS, mapID: g.mapID)
        case .inline(let list):
            let points = list.enumerated().map { i, p in
                GCP(
                    id: p.id ?? "\(i + 1)", pixel: PixelPoint(x: p.pixel[0], y: p.pixel[1]),
                    ground: GroundPoint(x: p.ground[0], y: p.ground[1]), enabled: p.enabled ?? true)
            }
            set = GCPSet(gcps: points, crs: g.gcpCRS ?? .wgs84)
        case .match(let reference):
            set = try step.match(reference).gcpSet(folder: step.folder, scan: step.map.input)
        case .tiesOnly:
            // No GCPs of its own: its tie pins (EPSG:3857 unless gcp_srs says) are its points.
            set = GCPSet(gcps: [], crs: g.gcpCRS ?? .webMercator)
        case nil:
            throw PipelineError(.notGeoreferenced, "the georeference section has no GCPs")
        }
        if let mask { set.mask = mask }
        return set
    }

    /// The map's scan with its GCPs, as the warp stage takes it: the one path every fit goes through.
    static func input(map: MapSpec, step: GeoreferenceStep) throws -> WarpInput {
        let g = map.georeference!
        var set = try gcpSet(g, mask: try step.mask(), step: step)
        // A tied sheet: its GCPs plus its tie pins, fitted with the joint fit's transform.
        if let tied = step.tied { set.gcps += tied.pins }
        return WarpInput(path: map.input, gcpSet: set, fit: FitOptions(transform: step.tied?.kind ?? g.transform, fitCRS: g.fitCRS))
    }

    /// Fit the map's GCPs for its scan.
    static func fit(map: MapSpec, step: GeoreferenceStep) throws -> Georeference {
        guard let fitted = try input(map: map, step: step).georeference(opening: step.scans) else {
            throw PipelineError(.notGeoreferenced, "the georeference section has no GCPs")
        }
        return fitted
    }

    /// One line on the fit: transform, why, the points (a tied sheet's own GCPs and its tie pins
    /// apart), and the honest error figure.
    static func describe(_ r: GeoreferenceReport, tied: Bool = false) -> String {
        let loo = r.leaveOneOutRMSE.metres.map { ", leave-one-out RMSE " + distance($0) } ?? ""
        let enabled = r.gcps.filter(\.enabled)
        let pins = enabled.filter { GCP.isTiePin($0.id) }.count, own = enabled.count - pins
        let points = [own > 0 || pins == 0 ? "\(own) GCPs" : nil, pins > 0 ? "\(pins) tie pins" : nil].compactMap { $0 }.joined(separator: " and ")
        return "\(r.transform.name) (\(tied ? "the series' joint fit" : r.chosenBy)) in \(r.fitSRS) from \(points)\(loo)"
    }

    /// A ground distance as a person reads it: metres under 10 km (a placed sheet's 80 m is not
    /// "0 km"), kilometres above.
    static func distance(_ metres: Double) -> String {
        metres < 10_000 ? String(format: "%.0f m", metres) : String(format: "%.0f km", metres / 1000)
    }

    /// Fit in memory (for a plan, `readingPixels` false: the scan's header read, not its pixels).
    static func sourceInMemory(map: MapSpec, step: GeoreferenceStep, readingPixels: Bool) throws -> WarpSource {
        try input(map: map, step: step).resolve(readingPixels: readingPixels, opening: step.scans)
    }
}
