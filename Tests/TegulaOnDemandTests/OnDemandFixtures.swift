import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaOnDemand
import TegulaServer
import TegulaTestSupport

/// A scan with a GCP file in a temp folder, served on demand, and helpers around it.
final class OnDemandFixtures: @unchecked Sendable {
    let dir: String
    let scan: String
    let gcps: String
    let log = LoggedLines()

    /// The synthetic GeoTIFF as a "scan" with six GCPs (x,y,lon,lat CSV) near its true position.
    init() throws {
        dir = NSTemporaryDirectory() + "tegula-ondemand-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        scan = dir + "/scan.tif"
        try SyntheticGeoTIFF.write(to: scan)
        gcps = dir + "/scan.csv"
        try Self.writeGCPs(gcps, shift: 0)
    }

    deinit { try? FileManager.default.removeItem(atPath: dir) }

    /// Six GCPs of the synthetic scan (lon 5…23, lat 41…53), the first moved east by `shift` degrees.
    static func writeGCPs(_ path: String, shift: Double) throws {
        let pts: [(Double, Double)] = [(0, 0), (900, 0), (0, 600), (900, 600), (450, 300), (200, 450)]
        var text = "x,y,lon,lat\n"
        for (i, (x, y)) in pts.enumerated() {
            text += "\(x),\(y),\(5 + 0.02 * x + (i == 0 ? shift : 0)),\(53 - 0.02 * y)\n"
        }
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    /// Inputs over a fresh queue and memo.
    func inputs(workers: Int = 2, cacheBytes: Int = 64 << 20) -> OnDemandInputs {
        let log = self.log
        return OnDemandInputs(
            queue: RenderQueue(workers: workers), memo: TileMemo(byteBudget: cacheBytes),
            log: { log.append($0) })
    }

    /// The scan with its GCP file as one source, and a service over it (counting in `metrics`).
    func service(_ inputs: OnDemandInputs, metrics: ServerMetrics? = nil) throws -> (OnDemandSource, TileService) {
        let source = try require(try inputs.sources(for: scan + ":" + gcps).first)
        let catalogue = try Catalogue([CatalogueEntry(id: source.id, path: scan, source: source)])
        return (source, TileService(catalogue: catalogue, metrics: metrics))
    }
}

/// `#require` without Testing in this file's signature.
func require<T>(_ value: T?, _ what: @autoclosure () -> String = "value") throws -> T {
    guard let value else { throw FixtureError("missing \(what())") }
    return value
}

struct FixtureError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
