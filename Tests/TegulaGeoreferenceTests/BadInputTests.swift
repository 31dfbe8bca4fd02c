import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference
import TegulaTestSupport
import Testing

/// Bad input is refused with one line that says what, where and what would be right (issue item 6).
struct BadInputTests {
    static func fit(
        _ set: GCPSet, _ kind: TransformKind? = nil, fitSRS: String? = nil, gcpSRS: String? = nil,
        width: Int = 1000, height: Int = 800
    ) -> GeoreferenceError? {
        do {
            var set = set
            if let gcpSRS { set.crs = try CRS.parse(gcpSRS) }
            _ = try Georeferencer.fit(
                set, imageWidth: width, imageHeight: height,
                options: FitOptions(transform: kind, fitCRS: fitSRS.map { try FitCRS(parsing: $0) }))
            return nil
        } catch let e as GeoreferenceError {
            #expect(!e.description.contains("\n"))
            return e
        } catch {
            Issue.record("not a GeoreferenceError: \(error)")
            return nil
        }
    }

    static func set(_ pts: [(Double, Double, Double, Double)]) -> GCPSet {
        GCPSet(
            gcps: pts.enumerated().map { i, p in
                GCP(id: "\(i + 1)", pixel: PixelPoint(x: p.0, y: p.1), ground: GroundPoint(x: p.2, y: p.3))
            }, crs: .wgs84, source: "test.points")
    }

    static let four = set([(100, 100, 4, 52), (900, 120, 7, 52.2), (880, 700, 6.8, 50), (90, 690, 4.1, 50.1)])

    @Test func tooFewSaysHowManyAreNeeded() {
        let e = Self.fit(Self.four, .polynomial2)
        #expect(e?.reason == .tooFewGCPs)
        #expect(e?.description.contains("polynomial2 needs at least 6 enabled GCPs, got 4") == true, "\(String(describing: e))")
        #expect(Self.fit(Self.set([(1, 1, 4, 52)]))?.reason == .tooFewGCPs)
    }

    @Test func collinearPointsAreDegenerate() throws {
        let line = Self.set([(100, 100, 4, 52), (200, 200, 5, 51), (300, 300, 6, 50), (400, 400, 7, 49)])
        for kind in [TransformKind.polynomial1, .projective, .tps] {
            let e = Self.fit(line, kind)
            #expect(e?.reason == .degenerateGCPs, "\(kind): \(String(describing: e))")
            #expect(e?.description.contains("collinear") == true)
        }
    }

    @Test func duplicatePixelsAreRefused() throws {
        let dup = Self.set([(100, 100, 4, 52), (900, 120, 7, 52.2), (100, 100, 4.1, 52), (90, 690, 4.1, 50.1)])
        let e = Self.fit(dup, .polynomial1)
        #expect(e?.reason == .duplicateGCPs)
        #expect(e?.location == "test.points: GCP 3")
    }

    @Test func nonFiniteAndOutOfRange() {
        #expect(Self.fit(Self.set([(100, 100, .nan, 52), (900, 120, 7, 52.2), (880, 700, 6.8, 50)]))?.reason == .invalidCoordinate)
        let e = Self.fit(Self.set([(100, 100, 52, 95), (900, 120, 7, 52.2), (880, 700, 6.8, 50)]))
        #expect(e?.reason == .invalidCoordinate)
        #expect(e?.description.contains("swapped") == true)
    }

    @Test func gcpOutsideTheImage() {
        let e = Self.fit(Self.set([(100, 100, 4, 52), (1200, 120, 7, 52.2), (880, 700, 6.8, 50)]))
        #expect(e?.reason == .gcpOutsideImage)
        #expect(e?.location == "test.points: GCP 2")
    }

    @Test func unknownCRSAndTransform() {
        #expect(Self.fit(Self.set([(100, 100, 4, 52), (900, 120, 7, 52.2), (880, 700, 6.8, 50)]), gcpSRS: "EPSG:999999")?.reason == .unknownCRS)
        let e = Self.fit(Self.four, fitSRS: "not a crs")
        #expect(e?.reason == .unknownCRS)
        #expect(e?.description.contains("not a crs") == true)
        #expect(TransformKind(name: "spline") == nil)
        #expect(TransformKind(name: "affine") == .polynomial1)
        #expect(TransformKind(name: "thinPlateSpline") == .tps)
    }

    @Test func unparseableRowsNameTheirLine() throws {
        let dir = try TemporaryFolder.make("georef")
        defer { try? FileManager.default.removeItem(at: dir) }
        let points = "#CRS: EPSG:4326\nmapX,mapY,sourceX,sourceY,enable\n4,52,100,-100,1\n7,fifty,900,-120,1\n"
        let e1 = #expect(throws: GeoreferenceError.self) { try GCPReader.read(path: GeoreferenceFixtures.write(points, "bad.points", in: dir)) }
        #expect(e1?.reason == .unparseableRow)
        #expect(e1?.location?.hasSuffix("bad.points:4") == true, "\(String(describing: e1))")
        #expect(e1?.description.contains("'fifty' is not a number") == true)
        let csv = "x,y,lon,lat\n100,100,4,52\n900,120\n"
        let e2 = #expect(throws: GeoreferenceError.self) { try GCPReader.read(path: GeoreferenceFixtures.write(csv, "bad.csv", in: dir)) }
        #expect(e2?.location?.hasSuffix("bad.csv:3") == true)
        let e3 = #expect(throws: GeoreferenceError.self) { try GCPReader.read(path: GeoreferenceFixtures.write("{\"body\": 1", "bad.json", in: dir)) }
        #expect(e3?.reason == .unparseableRow)
    }
}
