import Foundation
import Testing
import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference
import TegulaTestSupport

/// Every GCP writer is read back by its reader: `.points` (disabled points kept), CSV (enabled
/// only), an Allmaps annotation with every transform through the one name table and the mask.
struct GCPWriterTests {
    static var gcps: [GCP] {
        GeoreferenceFixtures.rows.enumerated().map { i, r in
            GCP(id: "corner \(i)", pixel: PixelPoint(x: r.0, y: r.1), ground: GroundPoint(x: r.2, y: r.3), enabled: i != 2)
        }
    }

    @Test func pointsAndCSVReadBack() throws {
        let dir = try TemporaryFolder.make("gcpwriter")
        defer { try? FileManager.default.removeItem(at: dir) }
        let points = try GCPReader.read(path: GeoreferenceFixtures.write(GCPWriter.points(Self.gcps, crs: .wgs84), "w.points", in: dir))
        GeoreferenceFixtures.checkRows(points, enabled: [true, true, false, true])
        #expect(points.gcps.map(\.id) == Self.gcps.map(\.id))
        let csv = try GCPReader.read(path: GeoreferenceFixtures.write(GCPWriter.csv(Self.gcps, crs: .wgs84), "w.csv", in: dir))
        #expect(csv.gcps == Self.gcps.filter(\.enabled))
    }

    @Test func allmapsAnnotationReadsBackWithEveryTransform() throws {
        let dir = try TemporaryFolder.make("gcpwriter")
        defer { try? FileManager.default.removeItem(at: dir) }
        let mask = [PixelPoint(x: 10, y: 20), PixelPoint(x: 990, y: 20), PixelPoint(x: 990, y: 780)]
        for kind in TransformKind.allCases {
            let text = try GCPWriter.allmapsAnnotation(Self.gcps, crs: .wgs84, notes: ["corner 0": "church"], transform: kind, mask: mask,
                                                       scanPath: "/scans/a.tif", width: 1000, height: 800)
            let set = try GCPReader.read(path: GeoreferenceFixtures.write(text, "w-\(kind.name).json", in: dir))
            #expect(set.transformHint == kind)
            #expect(set.mask == mask)
            #expect(set.gcps == Self.gcps.filter(\.enabled))
            #expect(text.contains("church"))
        }
    }
}
