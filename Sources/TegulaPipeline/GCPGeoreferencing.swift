import Foundation
import TegulaGeoreference
import TegulaWarp

/// Fitting GCPs for the georeference stage. The fit and the `georef.vrt` writer belong to the
/// georeference module (branch `georef`), which has not landed in this branch yet: until it
/// does, maps with GCPs fail with this honest error instead of a fake result.
enum GCPGeoreferencing {
    static let unavailable = "georeferencing from GCPs is not available in this build yet "
        + "(the georeference stage's fitting and VRT writer have not been merged); "
        + "maps with bounds or an already georeferenced input work"

    /// The GCPs of a map's section: a file in any format, or the inline list (`gcp_srs`, default
    /// EPSG:4326).
    static func gcpSet(_ g: GeoreferenceSpec) throws -> GCPSet {
        switch g.gcps {
        case .file(let p):
            return try GCPReader.read(path: p, gcpSRS: g.gcpSRS)
        case .inline(let list):
            let points = list.enumerated().map { i, p in
                GCP(id: p.id ?? "\(i + 1)", pixel: PixelPoint(x: p.pixel[0], y: p.pixel[1]),
                    ground: GroundPoint(x: p.ground[0], y: p.ground[1]), enabled: p.enabled ?? true)
            }
            return GCPSet(gcps: points, srs: g.gcpSRS ?? "EPSG:4326")
        case nil:
            throw StageError("the georeference section has no GCPs")
        }
    }

    /// Fit and write `georef.vrt`, `report.json`, `residuals.svg`; returns the files written.
    static func write(map: MapSpec, step: GeoreferenceStep) throws -> [String] {
        _ = try gcpSet(map.georeference!)
        throw StageError(unavailable)
    }

    /// Fit in memory for the plan.
    static func sourceInMemory(map: MapSpec, step: GeoreferenceStep) throws -> WarpSource {
        _ = try gcpSet(map.georeference!)
        throw StageError(unavailable)
    }
}
