import Foundation
import TegulaGDAL
import TegulaOnDemand
import TegulaTestSupport
import Testing

/// Tiles on demand warn as `tegula tile` does, once a source is read: a scan reaching beyond
/// ±85.0511° (its tiles are clipped there) and a fit that folds over inside the scan.
struct OnDemandWarningTests {
    /// The Blue Marble georeferenced to ±90° reaches past Web Mercator's edge; the same scan to
    /// ±85° does not, and logs no warning.
    @Test func aScanBeyondWebMercatorIsNamedInOneWarning() throws {
        let f = try OnDemandFixtures()
        let world = try BlueMarble.georeferenced(in: URL(fileURLWithPath: f.dir), north: 90, south: -90)
        let inside = try BlueMarble.georeferenced(in: URL(fileURLWithPath: f.dir))
        let inputs = f.inputs()
        let id = servedID(of: world)
        _ = try inputs.sources(for: world)
        _ = try inputs.sources(for: inside)
        let warnings = f.log.all.filter { $0.contains("warning") }
        #expect(warnings == ["tegula: warning: \(id): the scan reaches beyond ±85.0511°; tiles are clipped there"], "\(f.log.all)")
    }

    /// A polynomial 3 folding 10 % beyond its GCPs (``FoldingCubic``), as a pipeline file's map:
    /// its one line names the fold, as the warp stage's does.
    @Test func aFitThatFoldsOverIsNamedInOneWarning() throws {
        let f = try OnDemandFixtures()
        let (w, h) = (FoldingCubic.width, FoldingCubic.height)
        do {
            let d = try Dataset.create(path: f.dir + "/fold.tif", driver: "GTiff", width: w, height: h, bands: 3)
            try d.writeBytes(x: 0, y: 0, width: w, height: h, bands: [1, 2, 3], from: PatternGeoTIFF.pixels(width: w, height: h))
        }
        try FoldingCubic.csv.write(toFile: f.dir + "/fold.csv", atomically: false, encoding: .utf8)
        try """
        version: 1
        maps:
          - name: fold
            input: fold.tif
            georeference: {gcps: fold.csv, gcp_srs: "EPSG:3857", transform: polynomial3, fit_srs: "EPSG:3857"}
            tile: {max_zoom: 11}
            output: out/fold
        """.write(toFile: f.dir + "/fold.yml", atomically: false, encoding: .utf8)
        _ = try f.inputs().sources(for: f.dir + "/fold.yml")
        let warnings = f.log.all.filter { $0.contains("warning") }
        #expect(warnings.count == 1, "\(f.log.all)")
        #expect(warnings.first?.hasPrefix("tegula: warning: fold: polynomial3 folds over at pixels x 8") == true, "\(warnings)")
        #expect(warnings.first?.hasSuffix("the warp shows the scan on the GCPs' side of the fold and leaves the part past it out") == true)
    }
}

/// A scan's served id: its file name without extension.
private func servedID(of path: String) -> String { ((path as NSString).lastPathComponent as NSString).deletingPathExtension }
