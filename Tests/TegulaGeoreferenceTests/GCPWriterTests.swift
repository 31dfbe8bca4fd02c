import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference
import TegulaTestSupport
import Testing

/// Every GCP writer is read back by its reader: `.points` (disabled points kept), CSV, GDAL text
/// and ArcGIS' CSV and TSV (enabled only), an Allmaps annotation with every transform through the one name table and the mask.
@Suite(.timeLimit(.minutes(20)))
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

    /// GDAL text and ArcGIS' CSV and TSV read back to the very numbers written (digits that
    /// need all 17, a row of 0, negative pixels' signs), in order; ArcGIS CSV keeps the ids.
    @Test(arguments: [GCPFormat.gdal, .arcgisCSV, .arcgisTSV])
    func gdalAndArcGISFormsReadBackLosslessly(format: GCPFormat) throws {
        let dir = try TemporaryFolder.make("gcpwriter")
        defer { try? FileManager.default.removeItem(at: dir) }
        var gcps = Self.gcps
        gcps[0].pixel = PixelPoint(x: 0.1 + 0.2, y: 1.0 / 3)
        gcps[1].pixel.y = 0
        gcps[3].ground = GroundPoint(x: -4.123456789012345e-7, y: 51.99999999999999)
        let text = [GCPFormat.gdal: GCPWriter.gdal(gcps), .arcgisCSV: GCPWriter.arcgisCSV(gcps), .arcgisTSV: GCPWriter.arcgisTSV(gcps)][format]!
        let set = try GCPReader.read(path: GeoreferenceFixtures.write(text, "w-\(format.name).\(format == .arcgisCSV ? "csv" : "txt")", in: dir))
        let enabled = gcps.filter(\.enabled)
        #expect(set.gcps.map(\.pixel) == enabled.map(\.pixel))
        #expect(set.gcps.map(\.ground) == enabled.map(\.ground))
        #expect(set.gcps.map(\.id) == (format == .arcgisCSV ? enabled.map(\.id) : ["1", "2", "3"]))
    }

    @Test func allmapsAnnotationReadsBackWithEveryTransform() throws {
        let dir = try TemporaryFolder.make("gcpwriter")
        defer { try? FileManager.default.removeItem(at: dir) }
        let mask = [PixelPoint(x: 10, y: 20), PixelPoint(x: 990, y: 20), PixelPoint(x: 990, y: 780)]
        for kind in TransformKind.allCases {
            let text = try GCPWriter.allmapsAnnotation(
                Self.gcps, crs: .wgs84, notes: ["corner 0": "church"], transform: kind, mask: mask,
                scanPath: "/scans/a.tif", width: 1000, height: 800)
            let set = try GCPReader.read(path: GeoreferenceFixtures.write(text, "w-\(kind.name).json", in: dir))
            #expect(set.transformHint == kind)
            #expect(set.mask == mask)
            #expect(set.gcps == Self.gcps.filter(\.enabled))
            #expect(text.contains("church"))
        }
    }

    /// Allmaps' annotation schema (Tests/Schemas/allmaps-annotation-1.schema.json, from its zod `AnnotationSchema`)
    /// requires `target.selector`: an annotation written for a scan without a mask carries the
    /// whole image as its SVG selector, as Allmaps writes it, and validates, as does one with a
    /// mask of fractional vertices; the whole-image selector reads back as no mask.
    @Test func anAnnotationWithoutAMaskValidatesAgainstAllmapsSchemaAndReadsBackWithoutOne() throws {
        let dir = try TemporaryFolder.make("gcpwriter-schema")
        defer { try? FileManager.default.removeItem(at: dir) }
        let service = "https://iiif.example.org/iiif/scan"
        let bare = try GCPWriter.allmapsAnnotation(
            Self.gcps, crs: .wgs84, transform: .polynomial1, mask: nil,
            scanPath: "/scans/a.tif", service: service, width: 1000, height: 800)
        let masked = try GCPWriter.allmapsAnnotation(
            Self.gcps, crs: .wgs84, transform: .tps,
            mask: [PixelPoint(x: 10.25, y: 20), PixelPoint(x: 990, y: 20.5), PixelPoint(x: 990, y: 780)],
            scanPath: "/scans/a.tif", service: service, width: 1000, height: 800)
        let paths = [try GeoreferenceFixtures.write(bare, "bare.json", in: dir), try GeoreferenceFixtures.write(masked, "masked.json", in: dir)]
        let report = try ProgramRun.output(
            "python3",
            [
                "-c",
                """
                import sys, json
                from jsonschema import Draft202012Validator
                schema = json.load(open(sys.argv[1]))
                Draft202012Validator.check_schema(schema)
                v = Draft202012Validator(schema)
                print(json.dumps([sorted('/'.join(map(str, e.absolute_path)) + ': ' + e.message for e in v.iter_errors(json.load(open(p))))
                                  for p in sys.argv[2:]]))
                """, PackageRoot.path("Tests/Schemas/allmaps-annotation-1.schema.json"),
            ] + paths)
        let errors = try JSONDecoder().decode([[String]].self, from: Data(report.utf8))
        #expect(errors == [[], []], "\(errors)")
        // The selector as JSON text: its quotes escaped.
        #expect(bare.contains(#"<polygon points=\"0,0 1000,0 1000,800 0,800\" />"#), "\(bare)")
        let back = try GCPReader.read(path: paths[0])
        #expect(back.mask == nil && back.gcps == Self.gcps.filter(\.enabled))
        #expect(try GCPReader.read(path: paths[1]).mask?.count == 3)
    }
}
