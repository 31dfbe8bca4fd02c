import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference
import TegulaTestSupport
import Testing

/// Allmaps' GeoreferencedMap (the form its API and CLI hand out, version 2 and the first one)
/// reads like the equivalent Georeference Annotation, its `resourceCrs` is the fitting CRS (as Allmaps' internal
/// projection), and a malformed one fails with one located line.
@Suite(.timeLimit(.minutes(20)))
struct GeoreferencedMapTests {
    static let rows = GeoreferenceFixtures.rows
    static let mask: [PixelPoint] = [
        PixelPoint(x: 10, y: 20), PixelPoint(x: 990, y: 20),
        PixelPoint(x: 990, y: 780), PixelPoint(x: 10, y: 780),
    ]
    /// A Bonne world map's projection, as a PROJ string (the example Allmaps' docs use).
    static let bonne = "+proj=bonne +lat_1=60 +lon_0=0 +x_0=0 +y_0=0 +R=6371000 +units=m +no_defs +type=crs"

    /// A GeoreferencedMap with GCPs `(x, y, lon, lat)`; `extra` adds top-level members.
    static func map(_ gcps: [(Double, Double, Double, Double)], transformation: String? = nil, extra: String = "") -> String {
        let list = gcps.enumerated().map { i, r in "{\"id\":\"g\(i)\",\"resource\":[\(r.0),\(r.1)],\"geo\":[\(r.2),\(r.3)]}" }
        let maskJSON = mask.map { "[\(Int($0.x)),\(Int($0.y))]" }.joined(separator: ",")
        return """
            {"@context":"https://schemas.allmaps.org/map/2/context.json","type":"GeoreferencedMap",
             "resource":{"id":"https://example.org/iiif/scan","type":"ImageService2","width":1000,"height":800},
             "gcps":[\(list.joined(separator: ","))],"resourceMask":[\(maskJSON)]\
            \(transformation.map { ",\"transformation\":\($0)" } ?? "")\(extra)}
            """
    }

    /// The Georeference Annotation saying the same; `bodyExtra` adds members to its body.
    static func annotation(_ gcps: [(Double, Double, Double, Double)], transformation: String? = nil, bodyExtra: String = "") -> String {
        let features = gcps.enumerated().map { i, r in
            "{\"type\":\"Feature\",\"id\":\"g\(i)\",\"properties\":{\"resourceCoords\":[\(r.0),\(r.1)]},\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(r.2),\(r.3)]}}"
        }
        let points = mask.map { "\(Int($0.x)),\(Int($0.y))" }.joined(separator: " ")
        return """
            {"type":"Annotation","motivation":"georeferencing",
             "target":{"type":"SpecificResource","source":{"id":"https://example.org/iiif/scan","type":"ImageService2"},
                       "selector":{"type":"SvgSelector","value":"<svg width=\\"1000\\" height=\\"800\\"><polygon points=\\"\(points)\\" /></svg>"}},
             "body":{"type":"FeatureCollection"\(transformation.map { ",\"transformation\":\($0)" } ?? "")\(bodyExtra),
                     "features":[\(features.joined(separator: ","))]}}
            """
    }

    @Test(arguments: ["{\"type\":\"polynomial\",\"options\":{\"order\":2}}", "{\"type\":\"thinPlateSpline\"}", "\"helmert\""])
    func readsToTheSameGCPsMaskAndTransformAsTheAnnotation(transformation: String) throws {
        let dir = try TemporaryFolder.make("georef")
        defer { try? FileManager.default.removeItem(at: dir) }
        let fromMap = try GCPReader.read(path: GeoreferenceFixtures.write(Self.map(Self.rows, transformation: transformation), "map.json", in: dir))
        let fromAnnotation = try GCPReader.read(
            path: GeoreferenceFixtures.write(Self.annotation(Self.rows, transformation: transformation), "anno.json", in: dir))
        GeoreferenceFixtures.checkRows(fromMap)
        #expect(fromMap.gcps == fromAnnotation.gcps)
        #expect(fromMap.gcps.map(\.id) == ["g0", "g1", "g2", "g3"])
        #expect(fromMap.mask == Self.mask)
        #expect(fromMap.mask == fromAnnotation.mask)
        #expect(fromMap.transformHint != nil)
        #expect(fromMap.transformHint == fromAnnotation.transformHint)
        #expect(fromMap.crs == .wgs84 && fromMap.fitCRSHint == nil)
        // The Allmaps CLI prints maps as an array: one map in it reads the same.
        let array = try GCPReader.read(
            path: GeoreferenceFixtures.write("[\(Self.map(Self.rows, transformation: transformation))]", "maps.json", in: dir))
        #expect(array.gcps == fromMap.gcps && array.mask == fromMap.mask && array.transformHint == fromMap.transformHint)
        // And both forms fit to the same transform.
        let a = try Georeferencer.fit(fromMap, imageWidth: 1000, imageHeight: 800, options: FitOptions(transform: .polynomial1))
        let b = try Georeferencer.fit(fromAnnotation, imageWidth: 1000, imageHeight: 800, options: FitOptions(transform: .polynomial1))
        #expect(a.transform.forward(PixelPoint(x: 512.25, y: 333.5)) == b.transform.forward(PixelPoint(x: 512.25, y: 333.5)))
    }

    /// The same GCPs and mask as Allmaps' first map form (@allmaps/annotation `map.1`): no
    /// `type`, `"version": 1`, GCPs as `{image, world}`, `pixelMask`, `image: {uri, width, height}`.
    static func mapVersion1(_ gcps: [(Double, Double, Double, Double)], transformation: String? = nil) -> String {
        let list = gcps.map { r in "{\"image\":[\(r.0),\(r.1)],\"world\":[\(r.2),\(r.3)]}" }
        let maskJSON = mask.map { "[\(Int($0.x)),\(Int($0.y))]" }.joined(separator: ",")
        return """
            {"version":1,"id":"https://example.org/maps/v1",
             "image":{"uri":"https://example.org/iiif/scan","type":"ImageService2","width":1000,"height":800},
             "gcps":[\(list.joined(separator: ","))],"pixelMask":[\(maskJSON)]\
            \(transformation.map { ",\"transformation\":\($0)" } ?? "")}
            """
    }

    @Test(arguments: [nil, "{\"type\":\"polynomial\",\"options\":{\"order\":1}}", "{\"type\":\"thinPlateSpline\"}"])
    func mapVersion1ReadsToTheSameFitAsTheAnnotation(transformation: String?) throws {
        let dir = try TemporaryFolder.make("georef")
        defer { try? FileManager.default.removeItem(at: dir) }
        let v1 = try GCPReader.read(path: GeoreferenceFixtures.write(Self.mapVersion1(Self.rows, transformation: transformation), "v1.json", in: dir))
        let anno = try GCPReader.read(
            path: GeoreferenceFixtures.write(Self.annotation(Self.rows, transformation: transformation), "anno.json", in: dir))
        GeoreferenceFixtures.checkRows(v1)
        #expect(v1.gcps.map(\.ground) == anno.gcps.map(\.ground) && v1.gcps.map(\.pixel) == anno.gcps.map(\.pixel))
        #expect(v1.mask == Self.mask && v1.mask == anno.mask)
        #expect(v1.transformHint == anno.transformHint)
        #expect(v1.crs == .wgs84 && v1.fitCRSHint == nil)
        // Without "version" (its default is 1), and as the one-map array Allmaps' CLI prints.
        let bare = Self.mapVersion1(Self.rows, transformation: transformation).replacingOccurrences(of: "\"version\":1,", with: "")
        let unversioned = try GCPReader.read(path: GeoreferenceFixtures.write(bare, "bare.json", in: dir))
        let array = try GCPReader.read(path: GeoreferenceFixtures.write("[\(bare)]", "maps.json", in: dir))
        for other in [unversioned, array] {
            #expect(other.gcps == v1.gcps && other.mask == v1.mask && other.transformHint == v1.transformHint)
        }
        // The same fit, in the default fitting CRS, with the file's transform or the lowest
        // leave-one-out one: the stored fit (coefficients, CRS, kind) and a mapped point agree.
        let a = try Georeferencer.fit(v1, imageWidth: 1000, imageHeight: 800, options: FitOptions())
        let b = try Georeferencer.fit(anno, imageWidth: 1000, imageHeight: 800, options: FitOptions())
        #expect(a.kind == b.kind && a.fitCRS == b.fitCRS)
        #expect(a.stored.metadataItems == b.stored.metadataItems)
        let probe = PixelPoint(x: 512.25, y: 333.5)
        #expect(a.transform.forward(probe) == b.transform.forward(probe))
        #expect(a.report.rmse.metres == b.report.rmse.metres)
    }

    /// GCPs of a scan drawn in Bonne: its pixels are a similarity of Bonne metres, so an affine
    /// fit in Bonne is exact, while one in EPSG:3857 is off by hundreds of kilometres.
    static func bonneScan() throws -> [(Double, Double, Double, Double)] {
        let toBonne = try CoordinateTransformation(from: SpatialReference("EPSG:4326"), to: SpatialReference(bonne))
        var rows: [(Double, Double, Double, Double)] = []
        for lon in stride(from: -150.0, through: 150, by: 50) {
            for lat in stride(from: -50.0, through: 70, by: 30) {
                let b = try #require(toBonne.transform(lon, lat))
                rows.append((1000 + b.x / 20_000, 700 - b.y / 20_000, lon, lat))  // 20 km per pixel
            }
        }
        return rows
    }

    @Test func resourceCrsIsTheFittingCRS() throws {
        let dir = try TemporaryFolder.make("georef")
        defer { try? FileManager.default.removeItem(at: dir) }
        let rows = try Self.bonneScan()
        let crs = ",\"resourceCrs\":{\"name\":\"Bonne\",\"definition\":\"\(Self.bonne)\"}"
        let linear = "{\"type\":\"polynomial\",\"options\":{\"order\":1}}"
        let set = try GCPReader.read(path: GeoreferenceFixtures.write(Self.map(rows, transformation: linear, extra: crs), "bonne.json", in: dir))
        #expect(set.fitCRSHint == .crs(try CRS(Self.bonne)))
        let fit = try Georeferencer.fit(set, imageWidth: 2000, imageHeight: 1400, options: FitOptions())
        #expect(fit.fitCRS.definition == Self.bonne && fit.report.fitSRS == Self.bonne)
        #expect(fit.kind == .polynomial1)
        #expect(try #require(fit.report.rmse.metres) < 0.01)
        #expect(fit.stored.metadataItems[StoredFit.fitCRSKey] == Self.bonne, "a georef output reproduces the fit")
        // A place that is no GCP lands where Bonne puts it.
        let toBonne = try CoordinateTransformation(from: SpatialReference("EPSG:4326"), to: SpatialReference(Self.bonne))
        let b = try #require(toBonne.transform(30, 20))
        let ground = try fit.pixelsToGround([PixelPoint(x: 1000 + b.x / 20_000, y: 700 - b.y / 20_000)], crs: .wgs84)[0]
        #expect(abs(ground.x - 30) < 1e-6 && abs(ground.y - 20) < 1e-6, "\(ground)")

        // The annotation's body.resourceCrs says the same.
        let anno = try GCPReader.read(
            path: GeoreferenceFixtures.write(Self.annotation(rows, transformation: linear, bodyExtra: crs), "a.json", in: dir))
        #expect(anno.fitCRSHint == set.fitCRSHint)
        // Without resourceCrs the same GCPs are fitted in EPSG:3857 and the map is wrong.
        let plain = try GCPReader.read(path: GeoreferenceFixtures.write(Self.map(rows, transformation: linear), "plain.json", in: dir))
        let mercator = try Georeferencer.fit(plain, imageWidth: 2000, imageHeight: 1400, options: FitOptions())
        #expect(mercator.fitCRS == .webMercator)
        #expect(try #require(mercator.report.rmse.metres) > 100_000)
        // An explicit fitting CRS (--fit-srs, fit_srs:) overrides the file's, as --transform does.
        let given = try Georeferencer.fit(set, imageWidth: 2000, imageHeight: 1400, options: FitOptions(fitCRS: .webMercator))
        #expect(given.fitCRS == .webMercator && given.report.rmse.metres == mercator.report.rmse.metres)
    }

    /// `definition` may be PROJJSON (an object); GDAL's own PROJJSON of the Bonne CRS fits the same.
    @Test func resourceCrsAsPROJJSON() throws {
        let dir = try TemporaryFolder.make("georef")
        defer { try? FileManager.default.removeItem(at: dir) }
        let projjson = try ProgramRun.output("gdalsrsinfo", ["-o", "PROJJSON", Self.bonne])
        let rows = try Self.bonneScan()
        let crs = ",\"resourceCrs\":{\"definition\":\(projjson)}"
        let set = try GCPReader.read(
            path: GeoreferenceFixtures.write(Self.map(rows, transformation: "\"polynomial1\"", extra: crs), "pj.json", in: dir))
        #expect(set.fitCRSHint?.description.hasPrefix("{") == true)
        #expect(set.fitCRSHint == .crs(try CRS(Self.bonne)), "the same CRS as the PROJ string")
        let fit = try Georeferencer.fit(set, imageWidth: 2000, imageHeight: 1400, options: FitOptions())
        #expect(fit.kind == .polynomial1)
        #expect(try #require(fit.report.rmse.metres) < 0.01)
    }

    /// Malformed maps: one line naming the key, and the reason.
    @Test(arguments: [
        ("{\"type\":\"GeoreferencedMap\"}", "m.json: gcps: missing", GeoreferenceErrorReason.unknownFormat),
        ("{\"type\":\"GeoreferencedMap\",\"gcps\":{}}", "m.json: gcps: must be an array", .unparseableRow),
        (
            "{\"type\":\"GeoreferencedMap\",\"gcps\":[{\"resource\":[1,2],\"geo\":[3,4]},{\"geo\":[3,4]}]}",
            "m.json: gcps[1].resource: missing; expected [x, y] pixel numbers", .unparseableRow
        ),
        (
            "{\"type\":\"GeoreferencedMap\",\"gcps\":[{\"resource\":[1,2],\"geo\":[\"4.5\",52]}]}",
            "m.json: gcps[0].geo: must be [lon, lat] numbers", .unparseableRow
        ),
        ("{\"type\":\"GeoreferencedMap\",\"gcps\":[7]}", "m.json: gcps[0]: must be an object", .unparseableRow),
        (
            "{\"type\":\"GeoreferencedMap\",\"gcps\":[],\"resourceMask\":[[0,0],[5,5]]}",
            "m.json: resourceMask: a mask needs at least 3 [x, y] pixel points, got 2", .badMask
        ),
        (
            "{\"type\":\"GeoreferencedMap\",\"gcps\":[],\"resourceMask\":[[0,0],[5],[5,5]]}",
            "m.json: resourceMask[1]: must be [x, y] pixel numbers", .badMask
        ),
        (
            "{\"type\":\"GeoreferencedMap\",\"gcps\":[],\"resourceCrs\":{\"name\":\"Bonne\"}}",
            "m.json: resourceCrs: expected {\"definition\"", .unknownCRS
        ),
        (
            "{\"type\":\"GeoreferencedMap\",\"gcps\":[],\"resourceCrs\":{\"definition\":\"+proj=nosuch\"}}",
            "m.json: resourceCrs.definition: PROJ cannot read '+proj=nosuch'", .unknownCRS
        ),
        (
            "{\"type\":\"Annotation\",\"body\":{\"resourceCrs\":{\"definition\":42},\"features\":[]}}",
            "m.json: body.resourceCrs.definition: must be a PROJ string", .unknownCRS
        ),
        ("{\"version\":2,\"gcps\":[]}", "m.json: version: 2 is not a version of Allmaps' map: expected 1", .unknownFormat),
        ("{\"version\":1}", "m.json: gcps: missing", .unknownFormat),
        ("{\"version\":1,\"gcps\":[{\"image\":[1,2]}]}", "m.json: gcps[0].world: missing; expected [lon, lat] numbers", .unparseableRow),
        (
            "{\"version\":1,\"gcps\":[{\"resource\":[1,2],\"geo\":[3,4]}]}",
            "m.json: gcps[0].image: missing; expected [x, y] pixel numbers", .unparseableRow
        ),
        (
            "{\"gcps\":[],\"pixelMask\":[[0,0],[5,5]]}",
            "m.json: pixelMask: a mask needs at least 3 [x, y] pixel points, got 2", .badMask
        ),
        ("[]", "m.json: an array of 0 georeferenced maps", .unknownFormat),
        (
            "[{\"type\":\"GeoreferencedMap\",\"gcps\":[]},{\"type\":\"GeoreferencedMap\",\"gcps\":[]}]",
            "m.json: an array of 2 georeferenced maps; a GCP file describes one scan", .unknownFormat
        ),
    ])
    func malformedMapsFailWithOneLocatedLine(json: String, message: String, reason: GeoreferenceErrorReason) throws {
        let dir = try TemporaryFolder.make("georef")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try GeoreferenceFixtures.write(json, "m.json", in: dir)
        let e = #expect(throws: GeoreferenceError.self) { try GCPReader.read(path: path) }
        #expect(e?.reason == reason)
        let text = e?.description.replacingOccurrences(of: dir.path + "/", with: "") ?? ""
        #expect(text.hasPrefix(message), "\(text)")
        #expect(!text.contains("\n"))
    }
}
