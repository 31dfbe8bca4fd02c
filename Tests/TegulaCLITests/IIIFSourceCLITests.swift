import Foundation
import TegulaTestSupport
import Testing

/// Issue 29's "IIIF in" end to end: a Georeference Annotation whose target is an IIIF image, tiled
/// and served with no scan on disk, against real servers on loopback — `iiif_static.py`'s level-0
/// files under nginx (JPEG, also behind a 429 front) and `iiif_testserver.py` (level 1, PNG) —
/// and compared with `tegula tile SCAN --gcps ANNOTATION` of the scan the servers publish.
@Suite(.timeLimit(.minutes(20)), .serialized)
struct IIIFSourceCLITests {
    static let width = 1400, height = 1000

    /// A smooth 1400 × 1000 RGB scan with a grid 30 levels darker every 100 px (so a misplaced
    /// tile shows; PIL's JPEG at quality 75 keeps it at 45 dB, where a grid at 0–80 fell to 35 dB),
    /// written as PNG by GDAL's Python bindings.
    static func writeScan(_ path: String) throws {
        try ProgramRun.output(
            "python3",
            [
                "-c",
                """
                import sys, numpy
                from osgeo import gdal
                w, h = \(width), \(height)
                y, x = numpy.mgrid[0:h, 0:w].astype(float)
                bands = [128 + 100 * numpy.sin(x / 37), 128 + 100 * numpy.sin(y / 53), 128 + 60 * numpy.sin((x + y) / 71)]
                grid = (x % 100 < 2) | (y % 100 < 2)
                ds = gdal.GetDriverByName('MEM').Create('', w, h, 3, gdal.GDT_Byte)
                for b, a in enumerate(bands):
                    a[grid] -= 30
                    ds.GetRasterBand(b + 1).WriteArray(numpy.clip(a, 0, 255).astype(numpy.uint8))
                gdal.GetDriverByName('PNG').CreateCopy(sys.argv[1], ds)
                """, path,
            ])
    }

    /// An Allmaps Georeference Annotation (`target.source` an image service with its size) of
    /// five GCPs putting the scan over about 0.2° × 0.12° near Leiden (its corners and centre).
    static func annotation(service: String, type: String = "ImageService2", width: Int = width, height: Int = height) -> String {
        AllmapsAnnotation.text(
            name: "leiden", service: service, type: type, width: width, height: height,
            gcps: AllmapsAnnotation.leiden(width: Self.width, height: Self.height, centre: true))
    }

    /// The lowest PSNR (dB) over the max-zoom tiles of two tile folders holding the same tiles,
    /// every band, read by GDAL; -1 when their tile lists or band counts differ.
    static func worstPSNR(_ a: String, _ b: String, zoom: Int) throws -> Double {
        let out = try ProgramRun.output(
            "python3",
            [
                "-c",
                """
                import sys, os, numpy
                from osgeo import gdal
                a, b, z = sys.argv[1], sys.argv[2], sys.argv[3]
                def tiles(root):
                    return sorted(os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(os.path.join(root, z)) for f in fs)
                ta, tb = tiles(a), tiles(b)
                if ta != tb or not ta:
                    print(-1); sys.exit()
                worst = 99.0
                for t in ta:
                    x, y = gdal.Open(os.path.join(a, t)).ReadAsArray().astype(float), gdal.Open(os.path.join(b, t)).ReadAsArray().astype(float)
                    if x.shape != y.shape:
                        print(-1); sys.exit()
                    mse = ((x - y) ** 2).mean()
                    worst = min(worst, 99.0 if mse == 0 else 10 * numpy.log10(255 ** 2 / mse))
                print(worst)
                """, a, b, "\(zoom)",
            ])
        return Double(out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// The highest zoom folder of a tile folder.
    static func maxZoom(_ folder: String) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: folder).compactMap(Int.init).max() ?? -1
    }

    /// Image requests (not info.json) in nginx's access log.
    static func imageRequests(_ server: LocalHTTPServer) -> [String] {
        server.loggedRequests().filter { $0.contains("/default.") }
    }

    /// A new folder `name` holding the generated scan and an annotation naming its level-0
    /// service, and nginx serving that service (``levelZero(_:)``); the caller stops the server
    /// and removes the folder.
    static func levelZeroCase(_ name: String) throws -> (dir: URL, scan: URL, server: LocalHTTPServer, annotation: String) {
        let dir = try TemporaryFolder.make(name)
        let scan = dir.appendingPathComponent("scan.png")
        try Self.writeScan(scan.path)
        let server = try Self.levelZero(scan)
        let ann = dir.appendingPathComponent("annotation.json").path
        do {
            try Self.annotation(service: "\(server.base)/iiif/scan").write(toFile: ann, atomically: true, encoding: .utf8)
        } catch {
            server.stop()
            throw error
        }
        return (dir, scan, server, ann)
    }

    /// A new folder `name` holding the generated scan (in `images/`) and an annotation naming its
    /// service on `iiif_testserver.py` (Image API 3.0, level 1, PNG offered), and that server; the
    /// caller stops the server and removes the folder.
    static func levelOneCase(_ name: String) throws -> (dir: URL, scan: URL, server: LocalHTTPServer, annotation: String) {
        let dir = try TemporaryFolder.make(name)
        let images = dir.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        let scan = images.appendingPathComponent("scan.png")
        try Self.writeScan(scan.path)
        let server = try LocalHTTPServer.iiifTestServer(images: images)
        let ann = dir.appendingPathComponent("annotation.json").path
        do {
            try Self.annotation(service: "\(server.base)/3.0_pil/scan", type: "ImageService3").write(toFile: ann, atomically: true, encoding: .utf8)
        } catch {
            server.stop()
            throw error
        }
        return (dir, scan, server, ann)
    }

    /// nginx serving `iiif_static.py`'s level-0 files of `scan` (256-px tiles, Image API 2.1) at
    /// `/iiif/scan`, with an access log; `location` more of the `/iiif/` location (limit_req).
    /// `files`: the folder the tiles are written to (a new one when nil), for a test that changes them.
    static func levelZero(_ scan: URL, http: String = "", location: String = "", files: URL? = nil) throws -> LocalHTTPServer {
        let files = try files ?? TemporaryFolder.make("iiif-static")
        return try LocalHTTPServer.nginx(http: http, server: "location /iiif/ { alias \(files.path)/; \(location) }", accessLog: true) { port in
            try LocalHTTPServer.writeIIIFStatic(scan, identifier: "scan", tile: 256, port: port, into: files)
        }
    }

    /// `tegula tile ANNOTATION -o OUT` against the level-0 files writes the tiles of `tegula tile
    /// SCAN --gcps ANNOTATION`: the same tiles at every zoom, the max zoom's ≥ 45.4 dB (the
    /// static files are JPEG; 46.39 dB measured, the same in 3 runs); only scale-factor-1 tiles
    /// are fetched, none twice; a rerun with the same cache fetches no image and writes the same
    /// bytes.
    @Test func anAnnotationOfALevelZeroImageTilesLikeTheLocalScanAndARerunFetchesNoImage() throws {
        let (dir, scan, server, ann) = try Self.levelZeroCase("iiif-in")
        defer { server.stop(); try? FileManager.default.removeItem(at: dir) }
        let local = dir.appendingPathComponent("local").path, remote = dir.appendingPathComponent("remote").path
        let cache = dir.appendingPathComponent("cache").path
        let l = try TegulaBinary.run(["tile", scan.path, "--gcps", ann, "-o", local, "--quiet"])
        #expect(l.status == 0, "\(l.stderr)")
        let r = try TegulaBinary.run(["tile", ann, "-o", remote, "--iiif-cache", cache])
        #expect(r.status == 0, "\(r.stderr)")
        let z = try Self.maxZoom(local), zr = try Self.maxZoom(remote)
        #expect(z >= 12 && z == zr)
        let psnr = try Self.worstPSNR(local, remote, zoom: z)
        print("IIIF level 0 (JPEG) vs the local scan: zoom \(z) tiles at worst \(psnr) dB")
        #expect(psnr >= 45.4, "max-zoom tiles at \(psnr) dB")
        let fetched = Self.imageRequests(server)
        // 1400 × 1000 in 256-px tiles: 6 × 4 at scale factor 1; the map covers them all.
        #expect(fetched.count == 24, "\(fetched.joined(separator: "\n"))")
        #expect(Set(fetched.map { $0.split(separator: "\"")[1] }).count == fetched.count, "a tile was fetched twice")
        #expect(fetched.allSatisfy { $0.contains(",/0/default.jpg") && $0.contains("\" 200 ") })
        #expect(r.stderr.contains("tegula: IIIF: "), "\(r.stderr)")

        let again = dir.appendingPathComponent("again").path
        let r2 = try TegulaBinary.run(["tile", ann, "-o", again, "--iiif-cache", cache, "--quiet"])
        #expect(r2.status == 0, "\(r2.stderr)")
        #expect(Self.imageRequests(server).count == 24, "the rerun fetched images")
        #expect(try TilesetDigest.of(again).digest == TilesetDigest.of(remote).digest)
    }

    /// Through a front that answers 429 past 15 requests a second (nginx `limit_req`), the run
    /// completes with the same tiles as straight from the server; the 429s are in the log.
    @Test func throughARateLimitingFrontTheTilesAreTheSame() throws {
        let dir = try TemporaryFolder.make("iiif-429")
        defer { try? FileManager.default.removeItem(at: dir) }
        let scan = dir.appendingPathComponent("scan.png")
        try Self.writeScan(scan.path)
        let plain = try Self.levelZero(scan)
        defer { plain.stop() }
        let limited = try Self.levelZero(
            scan, http: "limit_req_zone $binary_remote_addr zone=lim:1m rate=15r/s; limit_req_status 429;",
            location: "limit_req zone=lim burst=4 nodelay;")
        defer { limited.stop() }
        var outputs: [String] = []
        for (name, server) in [("plain", plain), ("limited", limited)] {
            let ann = dir.appendingPathComponent("\(name).json").path
            try Self.annotation(service: "\(server.base)/iiif/scan").write(toFile: ann, atomically: true, encoding: .utf8)
            let out = dir.appendingPathComponent(name).path
            let r = try TegulaBinary.run(["tile", ann, "-o", out, "--iiif-cache", dir.appendingPathComponent("cache-\(name)").path, "--quiet"])
            #expect(r.status == 0, "\(r.stderr)")
            outputs.append(out)
        }
        #expect(limited.loggedRequests().contains { $0.contains("\" 429 ") }, "the front never limited")
        let a = try TilesetDigest.of(outputs[0]), b = try TilesetDigest.of(outputs[1])
        #expect(a.tiles > 0 && a == b)
    }

    /// Against `iiif_testserver.py` (Image API 3.0, level 1, PNG offered), the tiles are byte for
    /// byte those of the local scan: PNG is lossless, and a window does not care where its pixels
    /// came from.
    @Test func anAnnotationOfALevelOneImageOfferingPNGTilesByteForByteLikeTheLocalScan() throws {
        let (dir, scan, server, ann) = try Self.levelOneCase("iiif-png")
        defer { server.stop(); try? FileManager.default.removeItem(at: dir) }
        let local = dir.appendingPathComponent("local").path, remote = dir.appendingPathComponent("remote").path
        let l = try TegulaBinary.run(["tile", scan.path, "--gcps", ann, "-o", local, "--quiet"])
        #expect(l.status == 0, "\(l.stderr)")
        let r = try TegulaBinary.run(["tile", ann, "-o", remote, "--iiif-cache", dir.appendingPathComponent("cache").path, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let a = try TilesetDigest.of(local), b = try TilesetDigest.of(remote)
        #expect(a.tiles > 20 && a == b, "\(a) vs \(b)")
    }

    /// An annotation made on an image of another size (a re-scanned image) is refused in one
    /// line naming both sizes, before anything is written.
    @Test func anAnnotationOfAnotherSizeIsRefusedInOneLine() throws {
        let dir = try TemporaryFolder.make("iiif-size")
        defer { try? FileManager.default.removeItem(at: dir) }
        let scan = dir.appendingPathComponent("scan.png")
        try Self.writeScan(scan.path)
        let server = try Self.levelZero(scan)
        defer { server.stop() }
        let ann = dir.appendingPathComponent("annotation.json").path
        try Self.annotation(service: "\(server.base)/iiif/scan", width: 1401).write(toFile: ann, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out").path
        let r = try TegulaBinary.run(["tile", ann, "-o", out, "--iiif-cache", dir.appendingPathComponent("cache").path, "--quiet"])
        #expect(r.status != 0)
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.contains("1401 × 1000") && r.stderr.contains("1400 × 1000"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(Self.imageRequests(server).isEmpty)
    }

    /// `tegula serve ANNOTATION` renders on demand the max-zoom tiles `tegula tile ANNOTATION`
    /// writes, byte for byte; a cold tile fetches only the few IIIF tiles under it.
    @Test func servingAnAnnotationRendersTheSameMaxZoomTilesFetchingOnlyTheirOwn() throws {
        let (dir, _, server, ann) = try Self.levelZeroCase("iiif-serve")
        defer { server.stop(); try? FileManager.default.removeItem(at: dir) }
        let tiled = dir.appendingPathComponent("tiled").path
        let t = try TegulaBinary.run(["tile", ann, "-o", tiled, "--iiif-cache", dir.appendingPathComponent("cache-tile").path, "--quiet"])
        #expect(t.status == 0, "\(t.stderr)")
        let before = Self.imageRequests(server).count
        let tegula = try LocalHTTPServer.tegula(["serve", ann, "--iiif-cache", dir.appendingPathComponent("cache-serve").path])
        defer { tegula.stop() }
        #expect(tegula.output(contains: "listening on"), "\(tegula.output)")
        let z = try Self.maxZoom(tiled)
        let names = try FileManager.default.subpathsOfDirectory(atPath: "\(tiled)/\(z)").filter { $0.hasSuffix(".png") }.sorted()
        #expect(names.count >= 4)
        // The first tile alone, cold: a 256-px tile near native resolution touches a few IIIF tiles.
        let first = try tegula.get("/annotation/\(z)/\(names[0])")
        #expect(first.status == 200)
        let cold = Self.imageRequests(server).count - before
        #expect(cold >= 1 && cold <= 6, "a cold tile fetched \(cold) IIIF tiles of 24")
        for name in names {
            let answer = try tegula.get("/annotation/\(z)/\(name)")
            #expect(answer.status == 200, "\(name)")
            let cut = try Data(contentsOf: URL(fileURLWithPath: "\(tiled)/\(z)/\(name)"))
            #expect(answer.body == cut, "\(z)/\(name) differs")
        }
    }

    /// An upstream that fails (every image a 500, its info.json fine): `tegula serve` answers the
    /// tile 503 with `Retry-After`, never a 200; `tegula tile` ends in one line naming the URL and
    /// the status.
    @Test func anUpstreamFailureIsA503WithRetryAfterOnDemandAndOneLineForTile() throws {
        let dir = try TemporaryFolder.make("iiif-down")
        defer { try? FileManager.default.removeItem(at: dir) }
        let scan = dir.appendingPathComponent("scan.png")
        try Self.writeScan(scan.path)
        let files = try TemporaryFolder.make("iiif-static")
        let broken = try LocalHTTPServer.nginx(
            server: "location = /iiif/scan/info.json { alias \(files.path)/scan/info.json; } location /iiif/ { return 500; }"
        ) { port in
            try LocalHTTPServer.writeIIIFStatic(scan, identifier: "scan", tile: 256, port: port, into: files)
        }
        defer { broken.stop() }
        let ann = dir.appendingPathComponent("annotation.json").path
        try Self.annotation(service: "\(broken.base)/iiif/scan").write(toFile: ann, atomically: true, encoding: .utf8)

        let out = dir.appendingPathComponent("out").path
        let r = try TegulaBinary.run(["tile", ann, "-o", out, "--iiif-cache", dir.appendingPathComponent("cache-tile").path, "--quiet"])
        #expect(r.status != 0)
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.contains("\(broken.base)/iiif/scan/") && r.stderr.contains("500"), "\(r.stderr)")

        let tegula = try LocalHTTPServer.tegula(["serve", ann, "--iiif-cache", dir.appendingPathComponent("cache-serve").path])
        defer { tegula.stop() }
        #expect(tegula.output(contains: "listening on"), "\(tegula.output)")
        // The max zoom's tile over the map's centre (4.505°E, 52.16°N).
        let tileJSON = try JSONSerialization.jsonObject(with: try tegula.get("/annotation.json").body) as? [String: Any]
        let z = try #require(tileJSON?["maxzoom"] as? Int)
        let n = Double(1 << z), lat = 52.16 * Double.pi / 180
        let x = Int((4.505 + 180) / 360 * n), y = Int((1 - log(tan(lat) + 1 / cos(lat)) / Double.pi) / 2 * n)
        let answer = try tegula.get("/annotation/\(z)/\(x)/\(y).png")
        #expect(answer.status == 503, "\(answer.status): \(String(decoding: answer.body, as: UTF8.self))")
        #expect(answer.headers["retry-after"].flatMap(Int.init).map { $0 > 0 } == true, "\(answer.headers)")
        #expect(String(decoding: answer.body, as: UTF8.self).contains("500"))
    }

    /// `tegula warp` three zooms below the native resolution (8 scan pixels an output pixel) reads
    /// the image at the coarsest scale factor the server lists that keeps full detail (the largest
    /// at most 8, from its info.json): only that factor's tiles are asked for, and the result is
    /// the local scan's warp within what the server's own reduction changes (≥ 42.3 dB: 43.32 dB
    /// measured, the same in 3 runs).
    @Test func aWarpFarBelowNativeResolutionReadsOnlyTheCoarsestScaleFactor() throws {
        let (dir, scan, server, ann) = try Self.levelZeroCase("iiif-warp")
        defer { server.stop(); try? FileManager.default.removeItem(at: dir) }
        let local = dir.appendingPathComponent("local.tif").path, remote = dir.appendingPathComponent("remote.tif").path
        let probe = try TegulaBinary.run(["warp", scan.path, "--gcps", ann, "-o", dir.appendingPathComponent("probe.tif").path, "--quiet"])
        #expect(probe.status == 0, "\(probe.stderr)")
        let native = try #require(
            Int(
                try ProgramRun.output(
                    "python3",
                    [
                        "-c",
                        """
                        import sys, math
                        from osgeo import gdal
                        g = gdal.Open(sys.argv[1]).GetGeoTransform()
                        print(round(math.log2(2 * math.pi * 6378137 / 256 / g[1])))
                        """, dir.appendingPathComponent("probe.tif").path,
                    ]
                ).trimmingCharacters(in: .whitespacesAndNewlines)))
        let l = try TegulaBinary.run(["warp", scan.path, "--gcps", ann, "-o", local, "--zoom", "\(native - 3)", "--quiet"])
        #expect(l.status == 0, "\(l.stderr)")
        let r = try TegulaBinary.run([
            "warp", ann, "-o", remote, "--zoom", "\(native - 3)", "--iiif-cache", dir.appendingPathComponent("cache").path, "--quiet",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        // The oracle: the info.json's scale factors (iiif_static.py lists 1, 2, 4 for this image);
        // the largest at most 8, and its grid over the whole image (the map covers it all).
        let info = try JSONSerialization.jsonObject(with: try server.get("/iiif/scan/info.json").body) as? [String: Any]
        let factors = try #require(((info?["tiles"] as? [[String: Any]])?.first?["scaleFactors"] as? [Int]))
        let sf = try #require(factors.filter { $0 <= 8 }.max())
        let side = 256 * sf
        let expected = ((Self.width + side - 1) / side) * ((Self.height + side - 1) / side)
        let fetched = Self.imageRequests(server)
        let factorsAsked = fetched.map { line -> Int in
            let parts = line.split(separator: " ")[6].split(separator: "/")  // /iiif/scan/x,y,w,h/s,/0/default.jpg
            let w = Int(parts[2].split(separator: ",")[2])!, s = Int(parts[3].dropLast())!
            return (w + s - 1) / s
        }
        #expect(
            sf > 1 && fetched.count == expected && factorsAsked.allSatisfy { $0 == sf },
            "zoom \(native - 3), scale factors \(factors): \(fetched.joined(separator: "\n"))")
        let psnr = try ProgramRun.output(
            "python3",
            [
                "-c",
                """
                import sys, numpy
                from osgeo import gdal
                a, b = (gdal.Open(p).ReadAsArray().astype(float) for p in sys.argv[1:3])
                print(-1 if a.shape != b.shape else 10 * numpy.log10(255 ** 2 / max(((a - b) ** 2).mean(), 1e-9)))
                """, local, remote,
            ])
        let db = Double(psnr.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        print("IIIF warp at zoom \(native - 3) from scale factor \(sf) vs the local scan's: \(db) dB")
        #expect(db >= 42.3, "\(db) dB")
    }
}
