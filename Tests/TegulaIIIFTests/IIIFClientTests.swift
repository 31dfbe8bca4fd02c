import Foundation
import TegulaFetch
import TegulaGDAL
import TegulaSupport
import TegulaTestSupport
import Testing

@testable import TegulaIIIF

/// The IIIF client against real servers on loopback: `iiif_static.py`'s level-0 files under
/// nginx (also behind a 429 front and beside hostile locations) and `iiif_testserver.py` at
/// level 1. Images assembled from fetched tiles are compared with the scan, both read by GDAL.
@Suite(.timeLimit(.minutes(20)), .serialized)
struct IIIFClientTests {
    /// A smooth 3-band scan (JPEG keeps such an image above 40 dB), written as PNG by GDAL.
    static func scan(width: Int, height: Int, in dir: URL, name: String = "scan") throws -> URL {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                pixels[i] = UInt8(128 + 100 * sin(Double(x) / 37))
                pixels[i + 1] = UInt8(128 + 100 * sin(Double(y) / 53))
                pixels[i + 2] = UInt8(128 + 60 * sin(Double(x + y) / 71))
            }
        }
        let png = try pixels.withUnsafeBufferPointer {
            try Dataset.encode(pixels: $0.baseAddress!, width: width, height: height, bands: 3, driver: "PNG", options: [])
        }
        let url = dir.appendingPathComponent("\(name).png")
        try Data(png).write(to: url)
        return url
    }

    /// RGB pixels of a file as GDAL reads it.
    static func rgb(_ path: String) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        let d = try Dataset(path: path)
        var out = [UInt8](repeating: 0, count: d.width * d.height * 3)
        try out.withUnsafeMutableBufferPointer {
            try d.readBytes(x: 0, y: 0, width: d.width, height: d.height, bands: [1, 2, 3], into: $0.baseAddress!)
        }
        return (d.width, d.height, out)
    }

    /// The image of `service` at full resolution assembled from its scale-factor-1 tiles, each
    /// decoded by GDAL from the bytes fetched; the tiles' bytes by URL.
    static func assemble(_ service: IIIFImageService, in dir: URL) async throws -> (pixels: [UInt8], tiles: [String: [UInt8]]) {
        let w = service.info.width, h = service.info.height
        let got = Locked([String: [UInt8]]())
        try await service.fetchAll(scaleFactor: 1) { tile, bytes in got.withLock { $0[service.url(of: tile)] = bytes } }
        var image = [UInt8](repeating: 0, count: w * h * 3)
        for tile in try service.tiles(scaleFactor: 1) {
            let file = dir.appendingPathComponent("tile-\(tile.column)-\(tile.row).\(service.format.rawValue)")
            try Data(try #require(got.current[service.url(of: tile)])).write(to: file)
            let t = try rgb(file.path)
            #expect(t.width == tile.width && t.height == tile.height)
            for row in 0..<t.height {
                let src = row * t.width * 3, dst = ((tile.y + row) * w + tile.x) * 3
                image.replaceSubrange(dst..<(dst + t.width * 3), with: t.pixels[src..<(src + t.width * 3)])
            }
        }
        return (image, got.current)
    }

    /// Peak signal-to-noise ratio of two 8-bit images, in dB (∞ when equal).
    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        let se = zip(a, b).reduce(0.0) {
            let d = Double($1.0) - Double($1.1); return $0 + d * d
        }
        return se == 0 ? .infinity : 10 * log10(255 * 255 / (se / Double(a.count)))
    }

    static func politeness(attempts: Int = 6) -> IIIFPoliteness {
        var p = IIIFPoliteness()
        p.userAgent = "tegula/test"
        p.retry.maxAttempts = attempts
        p.retry.initialBackoff = .milliseconds(100)
        p.retry.maxBackoff = .seconds(2)
        p.timeout = .seconds(20)
        return p
    }

    /// A level-0 static image of a 1165 × 3185 scan, 256-px tiles (reference-iiif.md §14's
    /// example), written for nginx on a free port, and that nginx started.
    static func staticServer(rateLimit: Bool = false, extra: String = "") throws -> (server: LocalHTTPServer, scan: URL, files: URL) {
        let dir = try TemporaryFolder.make("iiif-static")
        let scan = try scan(width: 1165, height: 3185, in: dir)
        let files = dir.appendingPathComponent("www")
        let http = """
            types { application/json json; image/jpeg jpg; image/png png; image/webp webp; text/html html; }
            limit_req_zone $binary_remote_addr zone=lim:1m rate=15r/s;
            limit_req_status 429;
            """
        let server = """
            location /iiif/ { alias \(files.path)/; \(rateLimit ? "limit_req zone=lim burst=4 nodelay;" : "") }
            \(extra)
            """
        let nginx = try LocalHTTPServer.nginx(http: http, server: server, accessLog: true) { port in
            try LocalHTTPServer.writeIIIFStatic(scan, identifier: "scan", tile: 256, port: port, into: files)
        }
        return (nginx, scan, files)
    }

    /// Every tile file `iiif_static.py` wrote is one our plan lists, and every tile we list at
    /// every scale factor is a file it wrote: the tile math against the generator's own.
    @Test func theTilePlanNamesExactlyTheFilesIIIFStaticWrote() async throws {
        let (server, _, files) = try Self.staticServer()
        defer { server.stop() }
        let client = IIIFClient(transport: URLSessionTransport(), politeness: Self.politeness(), cache: nil)
        let service = try await client.open(server.base + "/iiif/scan")
        #expect(service.info.version == .v2 && service.info.level == .level0 && service.format == .jpg)
        #expect(service.scaleFactors == [1, 2, 4, 8])
        var planned = Set<String>()
        for s in service.scaleFactors {
            for t in try service.tiles(scaleFactor: s) { planned.insert("scan/" + t.request(in: service.info, format: .jpg).path(for: .v2)) }
        }
        var written = Set<String>()
        let e = FileManager.default.enumerator(atPath: files.path)
        while let p = e?.nextObject() as? String {
            if p.hasSuffix(".jpg"), !p.hasPrefix("scan/full/") { written.insert(p) }
        }
        #expect(planned.count == 96, "5 × 13 + 3 × 7 + 2 × 4 + 1 × 2")
        #expect(
            planned == written,
            "listed but not written: \(planned.subtracting(written).sorted().prefix(5)); written but not listed: \(written.subtracting(planned).sorted().prefix(5))"
        )
    }

    /// Level 0 (JPEG only): every fetched tile is the file's bytes, the assembled image is the scan
    /// within 40 dB; a rerun over the same cache fetches no image (one info.json revalidation, 304).
    @Test func aLevelZeroImageIsFetchedOnceAndAssemblesIntoTheScan() async throws {
        let (server, scan, files) = try Self.staticServer()
        defer { server.stop() }
        let cache = try IIIFCache(folder: try TemporaryFolder.make("iiif-cache").path)
        let work = try TemporaryFolder.make("iiif-tiles")
        let client = IIIFClient(transport: URLSessionTransport(), politeness: Self.politeness(), cache: cache)
        let service = try await client.open(server.base + "/iiif/scan/info.json")
        let (image, tiles) = try await Self.assemble(service, in: work)
        #expect(tiles.count == 65)
        for (url, bytes) in tiles {
            let file = files.appendingPathComponent(String(url.dropFirst((server.base + "/iiif/").count)))
            #expect(bytes == [UInt8](try Data(contentsOf: file)), "\(url)")
        }
        let source = try Self.rgb(scan.path)
        let db = Self.psnr(image, source.pixels)
        #expect(db >= 40, "PSNR \(db) dB")
        #expect(client.counts.requests == 66 && client.counts.retries == 0 && client.counts.cacheHits == 0)
        let logged = server.loggedRequests().filter { $0.contains("/iiif/") }
        #expect(logged.count == 66 && logged.allSatisfy { $0.hasSuffix("\"tegula/test\"") }, "User-Agent in nginx's log")

        let again = IIIFClient(transport: URLSessionTransport(), politeness: Self.politeness(), cache: cache)
        let reopened = try await again.open(server.base + "/iiif/scan")
        let (image2, _) = try await Self.assemble(reopened, in: work)
        #expect(image2 == image)
        #expect(again.counts.requests == 1 && again.counts.revalidated == 1 && again.counts.cacheHits == 65 && again.counts.bytes == 0)
    }

    /// Level 1 (`iiif_testserver.py`, Image API 3.0, PNG offered): tiles asked as PNG assemble
    /// into the scan exactly.
    @Test func aLevelOneImageAssemblesFromPNGTilesIntoTheScanExactly() async throws {
        let images = try TemporaryFolder.make("iiif-images")
        let scan = try Self.scan(width: 1300, height: 1100, in: images, name: "sheet")
        let server = try LocalHTTPServer.iiifTestServer(images: images)
        defer { server.stop() }
        let client = IIIFClient(transport: URLSessionTransport(), politeness: Self.politeness(), cache: nil)
        let service = try await client.open(server.base + "/3.0_pil/sheet")
        #expect(service.info.version == .v3 && service.info.level == .level1 && service.format == .png)
        #expect(service.grid.width == 512 && service.info.width == 1300 && service.info.height == 1100)
        let (image, tiles) = try await Self.assemble(service, in: try TemporaryFolder.make("iiif-tiles"))
        #expect(tiles.count == 3 * 3)
        #expect(tiles.keys.contains(server.base + "/3.0_pil/sheet/1024,1024,276,76/276,76/0/default.png"), "the corner tile, w,h in 3.0")
        #expect(image == (try Self.rgb(scan.path)).pixels)
    }

    /// Through nginx's `limit_req` (15 r/s, burst 4, 429) every tile still arrives, the same bytes.
    @Test func throughARateLimitingFrontEveryTileArrivesTheSame() async throws {
        let (server, _, files) = try Self.staticServer(rateLimit: true)
        defer { server.stop() }
        let client = IIIFClient(transport: URLSessionTransport(), politeness: Self.politeness(attempts: 12), cache: nil)
        let service = try await client.open(server.base + "/iiif/scan")
        let (_, tiles) = try await Self.assemble(service, in: try TemporaryFolder.make("iiif-tiles"))
        #expect(tiles.count == 65)
        for (url, bytes) in tiles {
            #expect(bytes == [UInt8](try Data(contentsOf: files.appendingPathComponent(String(url.dropFirst((server.base + "/iiif/").count))))))
        }
        #expect(client.counts.retries > 0, "the front answered 429 at least once")
        #expect(server.loggedRequests().filter { $0.contains("\" 429 ") }.count == client.counts.retries)
    }

    /// Hostile answers, each refused in one line naming the URL, nothing cached for them.
    @Test func hostileServersAreRefusedInOneLine() async throws {
        let extra = """
            location /down/ { return 503; }
            location /loop/ { return 302 /loop/again; }
            location /huge/ { default_type application/json; return 200 '{"@context": "http://iiif.io/api/image/3/context.json", "id": "http://127.0.0.1/huge", "type": "ImageService3", "profile": "level0", "width": 100000, "height": 100000, "tiles": [{"width": 256, "scaleFactors": [1]}]}'; }
            """
        let (server, _, files) = try Self.staticServer(extra: extra)
        defer { server.stop() }
        let cache = try IIIFCache(folder: try TemporaryFolder.make("iiif-cache").path)
        let client = IIIFClient(transport: URLSessionTransport(), politeness: Self.politeness(attempts: 3), cache: cache)

        func refusal(_ body: () async throws -> Void) async -> IIIFError? {
            do {
                try await body()
                return nil
            } catch let e as IIIFError {
                #expect(!"\(e)".contains("\n"))
                return e
            } catch {
                Issue.record("not an IIIFError: \(error)")
                return nil
            }
        }
        let down = await refusal { _ = try await client.open(server.base + "/down/x") }
        #expect(down?.reason == .status(503) && down?.location == server.base + "/down/x/info.json", "\(String(describing: down))")
        #expect("\(down!)".contains("HTTP 503 Service Unavailable after 3 attempts"))
        let loop = await refusal { _ = try await client.open(server.base + "/loop/x") }
        #expect(loop?.reason == .overLimit, "\(String(describing: loop))")
        let huge = await refusal { _ = try await client.open(server.base + "/huge/x") }
        #expect(huge?.reason == .overLimit && "\(huge!)".contains("100000 × 100000"), "\(String(describing: huge))")
        let scheme = await refusal { _ = try await client.open("file:///etc/passwd") }
        #expect(scheme?.reason == .badURL)

        // One tile replaced by an HTML page, another by a tile of another size.
        let service = try await client.open(server.base + "/iiif/scan")
        let tiles = try service.tiles(scaleFactor: 1)
        func file(_ t: IIIFTile) -> URL { files.appendingPathComponent("scan/" + t.request(in: service.info, format: .jpg).path(for: .v2)) }
        try Data("<html><body>Service Unavailable</body></html>".utf8).write(to: file(tiles[0]))
        try FileManager.default.removeItem(at: file(tiles[1]))
        try FileManager.default.copyItem(at: file(tiles[4]), to: file(tiles[1]))  // the right-edge tile: 141 px wide
        let html = await refusal { _ = try await service.fetch(tiles[0]) }
        #expect(html?.reason == .badImage && html?.location == service.url(of: tiles[0]) && "\(html!)".contains("not a PNG, JPEG or WebP"))
        let wrong = await refusal { _ = try await service.fetch(tiles[1]) }
        #expect(wrong?.reason == .badImage && "\(wrong!)".contains("141 × 256 pixels; expected 256 × 256"), "\(String(describing: wrong))")
        #expect(
            cache.load("\(service.version) \(service.url(of: tiles[0]))") == nil
                && cache.load("\(service.version) \(service.url(of: tiles[1]))") == nil)
        // A good tile is cached; the run that failed kept it.
        _ = try await service.fetch(tiles[2])
        #expect(cache.load("\(service.version) \(service.url(of: tiles[2]))") != nil)
    }
}
