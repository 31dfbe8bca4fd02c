import Foundation
import TegulaGDAL
import TegulaTestSupport
import Testing

/// A CRS text that PROJ could only search `proj.db` for by name, and that no name there could
/// match (two colons outside every form PROJ parses), is refused before GDAL sees it: the search
/// cost 0.9–1.3 s in the fuzz targets (find 5, `Fuzz/Crashes/gcp-points/unknown-crs-name-searched-for-a-second`).
/// Every form PROJ does parse still reads.
struct CRSNameSearchTests {
    @Test(arguments: [
        "EPSG:4326 EPSG:+0", "EPSG:4326#C\u{FFFD}S: EPSG:\u{FFFD}\u{FFFD}\u{7}+0,0", "urn:ogc:def:crs:EPSG",
        "urn:ogc:def:crs:EPSG::4326:x", "EPSG:x:y+z", "  epsg:4326 x:+",
    ])
    func aTextNoNameCouldMatchIsRefused(_ text: String) {
        #expect {
            try CRS(text)
        } throws: { error in
            "\(error)".contains("is no CRS PROJ knows") && "\(error)".contains("give e.g. EPSG:4326, a WKT or a PROJ string")
        }
    }

    /// Forms PROJ parses, one of each kind.
    static let parsed = [
        "EPSG:4326", "epsg:4326", "ESRI:102100", "IAU_2015:30100", "OGC:CRS84", "EPSG:4326+5773", "EPSG:4326+EPSG:5773",
        "urn:ogc:def:crs:EPSG::4326", "urn:ogc:def:crs:EPSG:6.3:28992", "urn:x-ogc:def:crs:EPSG:4326",
        "urn:opengis:crs:EPSG:0:4326", "urn:ogc:def:crs,crs:EPSG::4326,crs:EPSG::5773", "urn:ogc:def:crs:OGC:1.3:CRS84",
        "http://www.opengis.net/def/crs/EPSG/0/4326", "+proj=longlat +datum=WGS84 +no_defs", "+init=epsg:4326",
        "WGS84", "NAD27", "AUTO:42001,9001,-100,45",
    ]

    @Test(arguments: parsed)
    func everyFormPROJParsesStillReads(_ text: String) throws {
        let crs = try CRS(text)
        let oracle = try #require(try Self.gdalPython.get()[text], "GDAL's Python read no CRS from \(text)")
        // The same WKT, or (where Tegula names the EPSG code PROJ identifies, as for AUTO:42001's
        // UTM zone) the same CRS by OSRIsSame.
        #expect(try crs.wkt == oracle.wkt || crs.isSame(as: CRS(oracle.wkt)), "\(text): \(crs.wkt) against GDAL's \(oracle.wkt)")
        #expect(crs.isGeographic == oracle.geographic, "\(text)")
    }

    /// What GDAL's own Python bindings (`osr.SetFromUserInput`, `ExportToWkt`, `IsGeographic`)
    /// read from each form, in one run of the project's venv Python: the oracle for what
    /// `CRS(text)` must hold, not only that it did not throw.
    static let gdalPython = Result { () throws -> [String: (wkt: String, geographic: Bool)] in
        let script = """
            import json, sys
            from osgeo import osr
            osr.UseExceptions()
            out = {}
            for text in json.load(sys.stdin):
                s = osr.SpatialReference()
                s.SetFromUserInput(text)
                out[text] = [s.ExportToWkt(), bool(s.IsGeographic())]
            print(json.dumps(out))
            """
        let texts = String(decoding: try JSONEncoder().encode(Self.parsed), as: UTF8.self)
        let out = try ProgramRun.output(PackageRoot.path(".venv/bin/python3"), ["-c", script], stdin: texts)
        let table = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: [Any]] ?? [:]
        return table.compactMapValues { v in (v.first as? String).map { ($0, v.last as? Bool ?? false) } }
    }

    /// A WKT whose names hold colons is WKT, not a name to search for.
    @Test func aWKTWithColonsInItsNamesReads() throws {
        let wkt = CRS.wgs84.wkt.replacingOccurrences(of: "\"WGS 84\"", with: "\"WGS 84 a:b:c\"")
        #expect(wkt.contains("a:b:c"))
        #expect(try CRS(wkt).isGeographic)
    }

    /// GDAL's VRT driver parses a VRT's GCPList Projection and SRS itself: the same texts are
    /// refused when Tegula opens the VRT, and a VRT with a CRS PROJ parses still opens.
    @Test func aVRTWhoseProjectionNoNameCouldMatchIsRefused() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tegula-vrt-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func vrt(_ element: String) throws -> String {
            let path = dir.appendingPathComponent("\(UUID()).vrt").path
            try """
            <VRTDataset rasterXSize="100" rasterYSize="80">
              \(element)
              <VRTRasterBand dataType="Byte" band="1"/>
            </VRTDataset>
            """.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let gcp = #"<GCP Id="a" Pixel="1" Line="2" X="4.5" Y="52"/>"#
        for element in [#"<GCPList Projection="EPSG:4326 EPSG:+0">\#(gcp)</GCPList>"#, "<SRS>urn:ogc:def:crs:EPSG</SRS>"] {
            let path = try vrt(element)
            #expect {
                try Dataset(path: path)
            } throws: { error in
                guard let e = error as? GDALError else { return false }
                return e.call == "GDALOpenEx" && e.message.contains("is no CRS PROJ knows")
            }
        }
        let good = try Dataset(path: try vrt(#"<GCPList Projection="EPSG:4326">\#(gcp)</GCPList>"#))
        #expect(good.gcps.count == 1 && good.gcpSpatialReference?.authorityCode == "EPSG:4326")
    }
}
