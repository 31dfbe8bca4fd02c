import Foundation
import HTTPTypes
import TegulaCodec
import TegulaHTTP
import TegulaIIIFServer
import TegulaOnDemand
import TegulaServer
import TegulaTestSupport
import Testing

/// A scan served as an IIIF image (`ScanImage` behind `IIIFImageServer`, which `tegula serve`
/// answers its `/iiif/` routes with): each
/// region and size against GDAL's own window read of the same scan (`gdal_translate -srcwin
/// -outsize`, averaging when reduced, as the service reads), and the statuses and headers of
/// Image API 3.0 without a socket.
@Suite(.timeLimit(.minutes(20)))
struct IIIFImageTests {
    /// A 1165 × 835 RGB scan with no georeference: waves of 23–31 px and 17–23 px with a 7-px
    /// ripple on top (so an average differs from any one pixel, and a window read one pixel off
    /// differs), optionally with GDAL overviews at 2, 4 and 8 (`gdaladdo -r average`).
    final class Scan: @unchecked Sendable {
        let dir: URL
        let path: String
        let service: IIIFImageServer
        let image: ScanImage

        init(overviews: Bool = false, maxArea: Int = 1 << 24) throws {
            dir = try TemporaryFolder.make("iiif-scan")
            path = dir.appendingPathComponent("scan.tif").path
            try ProgramRun.output(
                "python3",
                [
                    "-c",
                    """
                    import sys, numpy
                    from osgeo import gdal
                    y, x = numpy.mgrid[0:835, 0:1165]
                    ds = gdal.GetDriverByName('GTiff').Create(sys.argv[1], 1165, 835, 3, gdal.GDT_Byte, ['TILED=YES'])
                    for b in range(3):
                        v = 128 + 60 * numpy.sin(x / (23.0 + 4 * b)) + 60 * numpy.cos(y / (17.0 + 3 * b)) + (x + y) % 7
                        ds.GetRasterBand(b + 1).WriteArray(numpy.clip(v, 0, 255).astype(numpy.uint8))
                    ds = None
                    """, path,
                ])
            if overviews { try ProgramRun.output("gdaladdo", ["-q", "-r", "average", path, "2", "4", "8"]) }
            image = try ScanImage(id: "scan", path: path, queue: RenderQueue(workers: 2))
            service = IIIFImageServer(images: ["scan": image], imageConfiguration: IIIFServerConfiguration(maxArea: maxArea))
        }

        deinit { try? FileManager.default.removeItem(at: dir) }

        /// The answer to a GET of `target` (async path, as over HTTP), with a Host header.
        func get(_ target: String, _ fields: HTTPFields = [:]) async -> ServerResponse {
            var headers = fields
            headers[ServerRequest.host] = "maps.example.org"
            return await service.respond(ServerRequest(target: target, headers: headers), isCancelled: { false })
        }

        /// GDAL's read of the window at the size, as RGBA: `gdal_translate -srcwin -outsize -r`.
        func gdal(_ x: Int, _ y: Int, _ w: Int, _ h: Int, _ ow: Int, _ oh: Int, resampling: String) throws -> RGBAImage {
            let out = dir.appendingPathComponent("oracle-\(UUID()).png").path
            try ProgramRun.output(
                "gdal_translate",
                [
                    "-q", "-of", "PNG", "-srcwin", "\(x)", "\(y)", "\(w)", "\(h)",
                    "-outsize", "\(ow)", "\(oh)", "-r", resampling, path, out,
                ])
            return try PNGDecoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: out))))
        }
    }

    /// Each request, the window GDAL is asked for (x, y, w, h → W × H), by the spec's arithmetic
    /// worked by hand for a 1165 × 835 image: regions `full`, `square` (the centred 835² square),
    /// pixels (clipped at the right edge), `pct:` (rounded to whole pixels), sizes `max`, `w,`, `,h`,
    /// `w,h`, `pct:`, `!w,h`, and tiles of the 512-px grid at scale factors 1, 2 and 4 (edges
    /// included); and whether it is read at full resolution or a power-of-two reduction of the
    /// whole image (the `sizes` info.json lists), where a file's overviews serve both reads alike.
    static let cases: [(String, (Int, Int, Int, Int, Int, Int), powerOfTwo: Bool)] = [
        ("full/max", (0, 0, 1165, 835, 1165, 835), true),
        ("100,200,300,150/max", (100, 200, 300, 150, 300, 150), true),
        ("100,200,300,150/150,", (100, 200, 300, 150, 150, 75), false),
        ("1000,800,500,500/max", (1000, 800, 165, 35, 165, 35), true),
        ("square/,200", (165, 0, 835, 835, 200, 200), false),
        ("pct:10,20,30,40/pct:50", (117, 167, 350, 334, 175, 167), false),
        ("full/233,167", (0, 0, 1165, 835, 233, 167), false),
        ("full/!300,300", (0, 0, 1165, 835, 300, 215), false),
        ("1024,0,141,835/71,418", (1024, 0, 141, 835, 71, 418), false),
        ("512,512,512,323/max", (512, 512, 512, 323, 512, 323), true),
        ("full/583,418", (0, 0, 1165, 835, 583, 418), true),
        ("full/292,209", (0, 0, 1165, 835, 292, 209), true),
    ]

    /// Every case's PNG holds exactly the pixels `gdal_translate -srcwin -outsize -r average`
    /// reads (nearest at full size). With overviews, GDAL's dataset read and gdal_translate's VRT
    /// pick their overview and window differently at scales that are not a power of two (measured
    /// here: samples up to 12 apart, mean 0.6–2.9, on this scan): those are held to a mean of 4;
    /// the power-of-two reductions and full-size windows stay identical.
    @Test(arguments: [false, true])
    func regionsAndSizesAreGDALsOwnWindowReads(overviews: Bool) async throws {
        let scan = try Scan(overviews: overviews)
        for (request, w, powerOfTwo) in Self.cases {
            let r = await scan.get("/iiif/scan/\(request)/0/default.png")
            #expect(r.status == .ok, "\(request): \(String(decoding: r.body, as: UTF8.self))")
            guard r.status == .ok else { continue }
            let got = try PNGDecoder.decode(r.body)
            let reduced = w.4 < w.2 || w.5 < w.3
            let want = try scan.gdal(w.0, w.1, w.2, w.3, w.4, w.5, resampling: reduced ? "average" : "nearest")
            #expect(got.width == w.4 && got.height == w.5, "\(request): \(got.width) × \(got.height)")
            guard got.width == want.width, got.height == want.height else { continue }
            let diffs = zip(got.rgba.pixels, want.rgba.pixels).map { abs(Int($0) - Int($1)) }
            let worst = diffs.max() ?? 0, mean = Double(diffs.reduce(0, +)) / Double(max(1, diffs.count))
            if overviews && !powerOfTwo {
                #expect(mean <= 4, "\(request) with overviews: mean difference \(mean) from gdal_translate")
            } else {
                #expect(worst == 0, "\(request) (overviews: \(overviews)): samples differ by up to \(worst) from gdal_translate")
            }
            print("IIIF \(request) (overviews: \(overviews)): worst \(worst), mean \(String(format: "%.3f", mean)) against gdal_translate")
        }
    }

    /// `^` sizes scale up, as GDAL's nearest-neighbour read does; JPEG and WebP answers decode to
    /// the size asked for.
    @Test func upscalingWithTheCaretAndTheOtherFormats() async throws {
        let scan = try Scan()
        let up = await scan.get("/iiif/scan/10,20,30,40/^60,80/0/default.png")
        #expect(up.status == .ok)
        #expect(try PNGDecoder.decode(up.body).rgba == (try scan.gdal(10, 20, 30, 40, 60, 80, resampling: "nearest")).rgba)
        for (ext, type) in [("jpg", "image/jpeg"), ("webp", "image/webp")] {
            let r = await scan.get("/iiif/scan/full/200,/0/default.\(ext)")
            #expect(r.status == .ok && r.header("Content-Type") == type)
            let decoded = try TileDecoder.decode(r.body)
            #expect(decoded.width == 200 && decoded.height == 143)
        }
    }

    /// info.json (Image API 3.0 §5): the service id from the Host header, level 1 with what is
    /// added, 512-px tiles at scale factors 1, 2, 4 (1165 px fits one tile at 4), the whole image at
    /// each, `maxArea`; JSON-LD only when asked for; the base URI redirects to it (303).
    @Test func infoJSONDescribesTheScanAndTheBaseURIRedirectsToIt() async throws {
        let scan = try Scan()
        let r = await scan.get("/iiif/scan/info.json")
        #expect(r.status == .ok && r.header("Content-Type") == "application/json")
        #expect(r.header("Access-Control-Allow-Origin") == "*")
        let info = try #require(try JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any])
        #expect(info["@context"] as? String == "http://iiif.io/api/image/3/context.json")
        #expect(info["id"] as? String == "http://maps.example.org/iiif/scan")
        #expect(info["type"] as? String == "ImageService3" && info["protocol"] as? String == "http://iiif.io/api/image")
        #expect(info["profile"] as? String == "level1")
        #expect(info["width"] as? Int == 1165 && info["height"] as? Int == 835)
        #expect(info["maxArea"] as? Int == 1 << 24)
        let tiles = info["tiles"] as? [[String: Any]]
        #expect(tiles?.count == 1 && tiles?[0]["width"] as? Int == 512 && tiles?[0]["scaleFactors"] as? [Int] == [1, 2, 4])
        let sizes = (info["sizes"] as? [[String: Int]])?.map { [$0["width"]!, $0["height"]!] }
        #expect(sizes == [[292, 209], [583, 418], [1165, 835]])
        #expect(Set(info["extraFormats"] as? [String] ?? []) == ["png", "webp"])
        let ld = await scan.get("/iiif/scan/info.json", [.accept: "application/ld+json"])
        #expect(ld.header("Content-Type") == "application/ld+json;profile=\"http://iiif.io/api/image/3/context.json\"")
        let base = await scan.get("/iiif/scan")
        #expect(base.status == .seeOther && base.header("Location") == "http://maps.example.org/iiif/scan/info.json")
    }

    /// An image answer carries its profile and canonical links, a strong ETag (304 when sent
    /// back), CORS; HEAD has the headers and no body.
    @Test func imageAnswersCarryTheProfileAndCanonicalLinksAndAnETag() async throws {
        let scan = try Scan()
        let r = await scan.get("/iiif/scan/full/583,/0/default.jpg")
        #expect(r.status == .ok && r.header("Content-Type") == "image/jpeg")
        #expect(
            r.header("Link") == "<http://iiif.io/api/image/3/level1.json>;rel=\"profile\", "
                + "<http://maps.example.org/iiif/scan/full/583,418/0/default.jpg>;rel=\"canonical\"")
        let tag = try #require(r.header("ETag"))
        let again = await scan.get("/iiif/scan/full/583,/0/default.jpg", [.ifNoneMatch: tag])
        #expect(again.status == .notModified && again.body.isEmpty)
        let head = await scan.service.respond(
            ServerRequest(method: .head, target: "/iiif/scan/full/max/0/default.png"),
            isCancelled: { false })
        #expect(head.status == .ok && head.body.isEmpty && head.header("Content-Length").map { Int($0)! > 1000 } == true)
    }

    /// `tegula serve` (a ``TileService`` with the scan as its one image, as `tegula serve SCAN`
    /// makes it) hands `/iiif/` to the image server: the same answers, byte for byte, headers in
    /// the same order, for images, `info.json`, the redirect, 304s, refusals, HEAD and POST.
    @Test func theTileServerAnswersIIIFAsTheImageServerDoes() async throws {
        let scan = try Scan()
        let serve = TileService(catalogue: try Catalogue([]), images: ["scan": scan.image])
        let tag = try #require(await scan.get("/iiif/scan/full/200,/0/default.jpg").header("ETag"))
        let requests: [ServerRequest] =
            [
                "/iiif/scan", "/iiif/scan/info.json", "/iiif/scan/full/200,/0/default.jpg", "/iiif/scan/0,0,300,200/150,/0/default.png",
                "/iiif/scan/full/max/90/default.jpg", "/iiif/nope/info.json", "/iiif/scan/a/b/c", "/iiif/%zz/info.json",
            ].map { ServerRequest(target: $0, headers: [ServerRequest.host: "maps.example.org"]) } + [
                ServerRequest(target: "/iiif/scan/full/200,/0/default.jpg", headers: [ServerRequest.host: "maps.example.org", .ifNoneMatch: tag]),
                ServerRequest(method: .head, target: "/iiif/scan/info.json"),
                ServerRequest(method: .post, target: "/iiif/scan/info.json"),
            ]
        for request in requests {
            let want = await serve.respond(request, isCancelled: { false })
            let got = await scan.service.respond(request, isCancelled: { false })
            #expect(got == want, "\(request.method) \(request.target): \(got.status) \(got.headers) vs \(want.status) \(want.headers)")
        }
        // Four segments are a tile path to the tile server (of a tileset named `iiif`); the image
        // server alone knows no tiles and names no route.
        let tilePath = ServerRequest(target: "/iiif/scan/x/info.json")
        #expect(await serve.respond(tilePath, isCancelled: { false }).status == .badRequest)
        #expect(await scan.service.respond(tilePath, isCancelled: { false }).status == .notFound)
    }

    /// What the service does not answer is refused in one line with the status the spec gives:
    /// 400 for a bad or unoffered parameter, a region outside the image, a size above the region
    /// without `^` or above `maxArea`; 404 for an unknown id or an unescaped slash in one.
    @Test func unansweredRequestsAreRefusedInOneLine() async throws {
        let scan = try Scan(maxArea: 500 * 500)
        let refusals: [(String, HTTPResponse.Status, String)] = [
            ("/iiif/scan/full/max/90/default.jpg", .badRequest, "rotation 90 is not offered"),
            ("/iiif/scan/full/max/0/gray.jpg", .badRequest, "quality gray is not offered"),
            ("/iiif/scan/full/max/0/default.tif", .badRequest, "format tif is not offered"),
            ("/iiif/scan/full/max/0/default.xyz", .badRequest, "unknown format"),
            ("/iiif/scan/2000,0,10,10/max/0/default.jpg", .badRequest, "outside the 1165 × 835 image"),
            ("/iiif/scan/0,0,100,100/200,/0/default.jpg", .badRequest, "above the region needs ^"),
            ("/iiif/scan/full/600,/0/default.jpg", .badRequest, "at most 250000 pixels"),
            ("/iiif/scan/full/pct:200/0/default.jpg", .badRequest, "bad size"),
            ("/iiif/scan/a,b,c,d/max/0/default.jpg", .badRequest, "bad region"),
            ("/iiif/nope/full/max/0/default.jpg", .notFound, "no IIIF image 'nope'"),
            ("/iiif/a/b/full/max/0/default.jpg", .notFound, "nothing here"),
        ]
        for (target, status, words) in refusals {
            let r = await scan.get(target)
            let text = String(decoding: r.body, as: UTF8.self)
            #expect(r.status == status, "\(target): \(r.status) \(text)")
            #expect(text.contains(words) && text.split(separator: "\n").count == 1, "\(target): \(text)")
        }
        // max stays within maxArea: the whole image scaled down, not refused.
        let max = await scan.get("/iiif/scan/full/max/0/default.png")
        let image = try PNGDecoder.decode(max.body)
        #expect(max.status == .ok && image.width * image.height <= 500 * 500 && image.width >= 585, "\(image.width) × \(image.height)")
    }
}
