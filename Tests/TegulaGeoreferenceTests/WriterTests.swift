import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference
import TegulaTestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `GeoreferenceWriter`: outputs GDAL opens, that carry the fit, and nothing left on failure.
@Suite(.timeLimit(.minutes(20)))
struct WriterTests {
    /// A plain scan (no georeferencing) of the fixture size.
    static func scan(in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("scan.tif").path
        let w = GeoreferenceFixtures.width, h = GeoreferenceFixtures.height
        let d = try Dataset.create(path: path, driver: "GTiff", width: w, height: h, bands: 3)
        var px = [UInt8](repeating: 0, count: w * h * 3)
        for i in 0..<(w * h) { px[3 * i] = UInt8(i % 251); px[3 * i + 1] = UInt8((i / w) % 256); px[3 * i + 2] = 200 }
        try d.writeBytes(x: 0, y: 0, width: w, height: h, bands: [1, 2, 3], from: px)
        return path
    }

    @Test(arguments: ["vrt", "tif"])
    func outputCarriesTheFit(ext: String) throws {
        let dir = try TemporaryFolder.make("georef")
        defer { try? FileManager.default.removeItem(at: dir) }
        let image = try Self.scan(in: dir)
        var set = GeoreferenceFixtures.synthetic(12)
        set.mask = [PixelPoint(x: 10, y: 10), PixelPoint(x: 1190, y: 15), PixelPoint(x: 1180, y: 890), PixelPoint(x: 5, y: 880)]
        let g = try Georeferencer.fit(
            set, imageWidth: GeoreferenceFixtures.width, imageHeight: GeoreferenceFixtures.height,
            options: FitOptions(transform: .polynomial2, fitCRS: .crs(try CRS("EPSG:3035"))))
        let out = dir.appendingPathComponent("out.\(ext)").path
        let report = dir.appendingPathComponent("report.json").path
        let picture = dir.appendingPathComponent("picture.svg").path
        try GeoreferenceWriter.write(imagePath: image, georeference: g, output: out, report: report, picture: picture)
        let ds = try Dataset(path: out)
        #expect(ds.width == GeoreferenceFixtures.width && ds.gcps.count == 12)
        let meta = ds.metadata()
        #expect(meta["TEGULA_TRANSFORM"] == "polynomial2")
        #expect(meta["TEGULA_FIT_SRS"] == "EPSG:3035")
        #expect(meta["TEGULA_MASK"]?.hasPrefix("POLYGON ((10.0 10.0") == true)
        // Read back: same GCPs, same mask, same hint, so the same fit.
        let back = try GCPReader.readDataset(path: out)
        #expect(back.gcps.map(\.ground) == set.gcps.map(\.ground))
        #expect(back.gcps.map(\.pixel) == set.gcps.map(\.pixel))
        #expect(back.mask == set.mask && back.transformHint == .polynomial2)
        let again = try Georeferencer.fit(
            back, imageWidth: ds.width, imageHeight: ds.height,
            options: FitOptions(fitCRS: try meta["TEGULA_FIT_SRS"].map { try FitCRS(parsing: $0) }))
        let p = PixelPoint(x: 77.7, y: 500.5)
        #expect(again.kind == .polynomial2 && again.transform.forward(p) == g.transform.forward(p))
        // GDAL's own tool sees GCPs with longitude first.
        let gdalinfo = try ProgramRun.run("gdalinfo", ["-json", out])
        #expect(gdalinfo.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(gdalinfo.stdout.utf8)) as! [String: Any]
        let gcps = ((json["gcps"] as? [String: Any])?["gcpList"] as? [[String: Any]]) ?? []
        #expect(gcps.count == 12)
        #expect((gcps.first?["x"] as? Double).map { abs($0 - set.gcps[0].ground.x) < 1e-9 } == true)
        do {
            // The mask as a per-dataset mask band (inside the GeoTIFF; a VRT's reads its sidecar
            // raster): GDAL reads corners outside it as invalid.
            #expect(ds.maskFlags == 2)
            #expect(FileManager.default.fileExists(atPath: GeoreferenceWriter.maskSidecar(for: out)) == (ext == "vrt"))
            let maskFile = dir.appendingPathComponent("mask-band.tif").path
            let translate = try ProgramRun.run("gdal_translate", ["-q", "-b", "mask", out, maskFile])
            #expect(translate.status == 0, "\(translate.stderr)")
            let m = try Dataset(path: maskFile)
            var corner: UInt8 = 1, centre: UInt8 = 0
            try m.readBytes(x: 3, y: 3, width: 1, height: 1, bands: [1], into: &corner)
            try m.readBytes(x: 600, y: 450, width: 1, height: 1, bands: [1], into: &centre)
            #expect(corner == 0 && centre == 255, "mask at (3,3) \(corner), at (600,450) \(centre)")
        }
        let svg = try String(contentsOfFile: picture, encoding: .utf8)
        #expect(svg.hasPrefix("<svg") && svg.contains("data:image/jpeg;base64,") && svg.contains("leave-one-out"))
        #expect(svg.contains("<polygon"))
        #expect(XMLParser(data: Data(svg.utf8)).parse(), "the picture is not well-formed XML")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(!files.contains { $0.contains(".tmp-") }, "\(files)")
    }

    /// `--write-gcps`: the GCP file in each form is written with the rest, and read back (its
    /// `FILE.fit` sidecar keeping the transform and fitting CRS where the form has no room for
    /// them) it gives the very same fit; an Allmaps annotation's JSON numbers (Foundation's
    /// JSONSerialization, 15 digits) the same to 1e-12.
    @Test(arguments: GCPFormat.allCases)
    func aGCPFileInEachFormReadsBackToTheSameFit(format: GCPFormat) throws {
        let dir = try TemporaryFolder.make("georef")
        defer { try? FileManager.default.removeItem(at: dir) }
        let image = try Self.scan(in: dir)
        var set = GeoreferenceFixtures.synthetic(12)
        set.gcps[5].enabled = false
        let g = try Georeferencer.fit(
            set, imageWidth: GeoreferenceFixtures.width, imageHeight: GeoreferenceFixtures.height,
            options: FitOptions(transform: .polynomial2))
        let file = try GCPFileOutput(path: dir.appendingPathComponent("gcps.\(format.name)").path, format: format)
        try GeoreferenceWriter.write(
            imagePath: image, georeference: g, output: dir.appendingPathComponent("out.vrt").path,
            report: nil, picture: nil, gcpFile: file)
        #expect(FileManager.default.fileExists(atPath: StoredFit.sidecarPath(forGCPFile: file.path)) == !format.holdsTheFit)
        let back = try GCPReader.read(path: file.path)
        let tolerance = format == .allmaps ? 1e-12 : 0
        func near(_ a: [Double], _ b: [Double]) -> Bool { a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= tolerance * max(1, abs($1)) } }
        #expect(near(back.enabled.flatMap { [$0.pixel.x, $0.pixel.y] }, set.enabled.flatMap { [$0.pixel.x, $0.pixel.y] }))
        #expect(near(back.enabled.flatMap { [$0.ground.x, $0.ground.y] }, set.enabled.flatMap { [$0.ground.x, $0.ground.y] }))
        #expect(back.transformHint == .polynomial2)
        let again = try Georeferencer.fit(
            back, imageWidth: GeoreferenceFixtures.width, imageHeight: GeoreferenceFixtures.height, options: FitOptions())
        let p = PixelPoint(x: 77.7, y: 500.5), q = again.transform.forward(p), r = g.transform.forward(p)
        #expect(again.kind == .polynomial2 && again.fitCRS.isSame(as: g.fitCRS) && near([q.x, q.y], [r.x, r.y]) && (format == .allmaps || q == r))
        // No form is assumed from a name that names none; no two outputs may share a file.
        #expect(throws: GeoreferenceError.self) { try GCPFileOutput(path: dir.appendingPathComponent("gcps.dat").path) }
        let clash = #expect(throws: GeoreferenceError.self) {
            try GeoreferenceWriter.write(
                imagePath: image, georeference: g, output: dir.appendingPathComponent("o.vrt").path,
                report: file.path, picture: nil, gcpFile: file)
        }
        #expect(clash?.message.contains("named for two outputs") == true, "\(String(describing: clash))")
    }

    @Test func failureLeavesNothing() throws {
        let dir = try TemporaryFolder.make("georef")
        defer { try? FileManager.default.removeItem(at: dir) }
        let image = try Self.scan(in: dir)
        let g = try Georeferencer.fit(
            GeoreferenceFixtures.synthetic(6), imageWidth: GeoreferenceFixtures.width, imageHeight: GeoreferenceFixtures.height,
            options: FitOptions())
        let e1 = #expect(throws: GeoreferenceError.self) {
            try GeoreferenceWriter.write(
                imagePath: image, georeference: g, output: dir.appendingPathComponent("out.png").path,
                report: nil, picture: nil)
        }
        #expect(e1?.description.contains(".vrt or .tif") == true)
        #expect(throws: GeoreferenceError.self) {
            try GeoreferenceWriter.write(
                imagePath: image, georeference: g, output: dir.appendingPathComponent("out.vrt").path,
                report: dir.appendingPathComponent("missing/report.json").path, picture: nil)
        }
        #expect(throws: (any Error).self) {
            try GeoreferenceWriter.write(
                imagePath: dir.appendingPathComponent("nope.tif").path, georeference: g,
                output: dir.appendingPathComponent("out.tif").path,
                report: dir.appendingPathComponent("r.json").path, picture: nil)
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(files == ["scan.tif"], "\(files)")
    }
}
