import Foundation
import HTTPTypes
import TegulaEditor
import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference
import TegulaHTTP
import TegulaOnDemand
import TegulaServer
import TegulaTestSupport
import Testing

/// The editor's scan as an IIIF Image API 3.0 service (`/iiif/{id}/`, `tegula serve`'s own
/// responder over the real Schagen scan, marble-qt-data), without a socket: its `info.json` is
/// `tegula serve`'s byte for byte, its regions are GDAL's own window reads of the scan, and an
/// Allmaps annotation saved through it names the service as its target.
@Suite(.timeLimit(.minutes(20)), .serialized)
struct EditorIIIFTests {
    /// The scan's id: its file name without the extension, as `tegula serve` names it.
    static let id = "schagen1689"

    /// An editor over the Schagen scan saving to `name` in a fresh folder, from the committed GCPs.
    static func editor(output name: String = "out.points") throws -> (EditorService, URL) {
        let dir = try TemporaryFolder.make("editor-iiif")
        let out = dir.appendingPathComponent(name).path
        let initial = try EditorSession(try GCPReader.read(path: Schagen1689.points), output: out)
        let s = try EditorService(
            scanPath: Schagen1689.scan, output: out, initial: initial, basemaps: [.openStreetMap], basemapTilesets: nil,
            renderThreads: 2)
        return (s, dir)
    }

    /// The answer to `method target` as it came over HTTP to `host`.
    static func send(
        _ service: any HTTPService, _ target: String, method: HTTPRequest.Method = .get, body: Data? = nil,
        host: String = "editor.example:8123"
    ) async -> ServerResponse {
        var request = ServerRequest(method: method, target: target, headers: [ServerRequest.host: host])
        if let body { request.body = Array(body) }
        return await service.respond(request, isCancelled: { false })
    }

    /// RGB samples of a PNG as GDAL decodes it (`bytes` written to `dir`).
    static func rgb(_ bytes: [UInt8], in dir: URL) throws -> (width: Int, height: Int, samples: [UInt8]) {
        let file = dir.appendingPathComponent("answer-\(UUID()).png")
        try Data(bytes).write(to: file)
        return try rgb(file.path)
    }

    static func rgb(_ path: String) throws -> (width: Int, height: Int, samples: [UInt8]) {
        let d = try Dataset(path: path)
        var px = [UInt8](repeating: 0, count: d.width * d.height * 3)
        try px.withUnsafeMutableBufferPointer {
            try d.readBytes(x: 0, y: 0, width: d.width, height: d.height, bands: [1, 2, 3], into: $0.baseAddress!)
        }
        return (d.width, d.height, px)
    }

    /// `info.json` is the one `tegula serve` gives for the same scan (the same responder and
    /// id, byte for byte): the editor's address as the service id, 2700 × 1350, level 1, 512-px
    /// tiles at scale factors 1–8. Other images are 404 and writes 405, as IIIF answers them.
    @Test func infoJSONIsTegulaServesOwnForTheScan() async throws {
        let (editor, _) = try Self.editor()
        let image = try ScanImage(id: Self.id, path: Schagen1689.scan, queue: RenderQueue(workers: 1))
        let serve = TileService(catalogue: try Catalogue([]), images: [Self.id: image], leafletDirectory: nil)
        let got = await Self.send(editor, "/iiif/\(Self.id)/info.json")
        let want = await Self.send(serve, "/iiif/\(Self.id)/info.json")
        #expect(got.status == .ok && got.header("Content-Type") == "application/json")
        #expect(got.body == want.body, "\(String(decoding: got.body, as: UTF8.self))")
        let info = try #require(try JSONSerialization.jsonObject(with: Data(got.body)) as? [String: Any])
        #expect(info["id"] as? String == "http://editor.example:8123/iiif/\(Self.id)")
        #expect(info["type"] as? String == "ImageService3" && info["profile"] as? String == "level1")
        #expect(info["width"] as? Int == 2700 && info["height"] as? Int == 1350)
        #expect((info["tiles"] as? [[String: Any]])?.first?["scaleFactors"] as? [Int] == [1, 2, 4, 8])
        #expect(await Self.send(editor, "/iiif/\(Self.id)").status == .seeOther)
        #expect(await Self.send(editor, "/iiif/other/info.json").status == .notFound)
        #expect(await Self.send(editor, "/iiif/\(Self.id)/info.json", method: .post, body: Data()).status == .methodNotAllowed)
        #expect(await Self.send(editor, "/iiif/\(Self.id)/full/max/90/default.jpg").status == .badRequest)
    }

    /// The regions the scan pane asks for are the scan's own pixels, read by `gdal_translate
    /// -srcwin` at full resolution (PNG, so no encoder decides): a tile of the page's grid at
    /// zoom maxzoom and one at the right edge sample for sample; a tile of zoom maxzoom − 2 (4 × 4
    /// scan pixels per screen pixel) against the mean of each 4 × 4 block, within 12 levels and a
    /// mean of 1 (GDAL reduces a JPEG by its DCT scaling; measured here on that tile: at most 10.3,
    /// mean 0.56; `gdal_translate -outsize -r average` is no oracle there, off by up to 57).
    @Test func paneRegionsAreTheScansOwnPixels() async throws {
        let (editor, dir) = try Self.editor()
        #expect(editor.pane.maxZoom == 4)  // 2700 px: 256 · 2^4 = 4096 ≥ 2700 > 2048
        // (x, y, w, h) at (W, H): what editor.js asks for at zoom 4 tile 1,1; zoom 4 tile 10,2; zoom 2 tile 1,0.
        let cases = [(256, 256, 256, 256, 256, 256), (2560, 512, 140, 256, 140, 256), (1024, 0, 1024, 1024, 256, 256)]
        for (x, y, w, h, ow, oh) in cases {
            let r = await Self.send(editor, "/iiif/\(Self.id)/\(x),\(y),\(w),\(h)/\(ow),\(oh)/0/default.png")
            #expect(r.status == .ok && r.header("Content-Type") == "image/png", "\(String(decoding: r.body, as: UTF8.self))")
            let got = try Self.rgb(r.body, in: dir)
            let oracle = dir.appendingPathComponent("oracle-\(x)-\(y).png").path
            try ProgramRun.output("gdal_translate", ["-q", "-of", "PNG", "-srcwin", "\(x)", "\(y)", "\(w)", "\(h)", Schagen1689.scan, oracle])
            let full = try Self.rgb(oracle)
            let want = Self.blockMeans(full.samples, width: w, height: h, factor: w / ow)
            #expect(got.width == ow && got.height == oh && got.samples.count == want.count)
            let diffs = zip(got.samples, want).map { abs(Double($0) - $1) }
            let worst = diffs.max() ?? 255, mean = diffs.reduce(0, +) / Double(max(1, diffs.count))
            if ow == w {
                #expect(worst == 0, "\(x),\(y),\(w),\(h) → \(ow)×\(oh): samples differ by up to \(worst)")
            } else {
                #expect(worst <= 12 && mean <= 1, "\(x),\(y),\(w),\(h) → \(ow)×\(oh): worst \(worst), mean \(mean)")
            }
            print("editor IIIF \(x),\(y),\(w),\(h) → \(ow)×\(oh): worst \(worst), mean \(String(format: "%.3f", mean)) against the scan's pixels")
        }
    }

    /// RGB samples averaged over `factor` × `factor` blocks (a part block at the edge over the
    /// pixels it has).
    static func blockMeans(_ rgb: [UInt8], width: Int, height: Int, factor f: Int) -> [Double] {
        let ow = (width + f - 1) / f, oh = (height + f - 1) / f
        var out = [Double](repeating: 0, count: ow * oh * 3)
        for oy in 0..<oh {
            for ox in 0..<ow {
                var sum = [0, 0, 0], n = 0
                for y in oy * f..<min(height, oy * f + f) {
                    for x in ox * f..<min(width, ox * f + f) {
                        for c in 0..<3 { sum[c] += Int(rgb[(y * width + x) * 3 + c]) }
                        n += 1
                    }
                }
                for c in 0..<3 { out[(oy * ow + ox) * 3 + c] = Double(sum[c]) / Double(n) }
            }
        }
        return out
    }

    /// Saved as `.json` through the editor reached at `editor.example:8123`, the Allmaps
    /// annotation's `target.source` is the scan's IIIF service there, `{id, type: ImageService3,
    /// width, height}` (the `id` that service's `info.json` gives, the scan's own size), with the
    /// fields Allmaps' annotation schema (packages/annotation, `Source2Schema`, `TargetSchema`)
    /// requires; Tegula's own Allmaps reader reads the points back.
    @Test func theSavedAnnotationNamesTheScansIIIFService() async throws {
        let (editor, dir) = try Self.editor(output: "out.json")
        var s = editor.current
        s.mask = [PixelPoint(x: 100, y: 50), PixelPoint(x: 2600, y: 50), PixelPoint(x: 2600, y: 1300)]
        let saved = await Self.send(editor, "/api/session", method: .put, body: s.json())
        #expect(saved.status == .ok, "\(String(decoding: saved.body, as: UTF8.self))")
        let path = dir.appendingPathComponent("out.json").path
        let annotation = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let target = try #require(annotation["target"] as? [String: Any])
        let source = try #require(target["source"] as? [String: Any])
        let info = try #require(
            try JSONSerialization.jsonObject(with: Data(await Self.send(editor, "/iiif/\(Self.id)/info.json").body)) as? [String: Any])
        #expect(source["id"] as? String == "http://editor.example:8123/iiif/\(Self.id)")
        #expect(source["id"] as? String == info["id"] as? String)
        #expect(source["type"] as? String == "ImageService3")
        #expect(source["width"] as? Int == 2700 && source["height"] as? Int == 1350)
        #expect(Set(source.keys) == ["id", "type", "width", "height"])
        // Allmaps' schema: an Annotation with motivation georeferencing, a SpecificResource
        // target with an SvgSelector, a FeatureCollection body of Point features with resourceCoords.
        #expect(annotation["type"] as? String == "Annotation" && annotation["motivation"] as? String == "georeferencing")
        #expect((annotation["@context"] as? [String])?.first == "http://iiif.io/api/extension/georef/1/context.json")
        #expect(target["type"] as? String == "SpecificResource")
        #expect((target["selector"] as? [String: Any])?["type"] as? String == "SvgSelector")
        let body = try #require(annotation["body"] as? [String: Any])
        let features = try #require(body["features"] as? [[String: Any]])
        #expect(body["type"] as? String == "FeatureCollection" && features.count == 24)
        #expect(features.allSatisfy { ($0["properties"] as? [String: Any])?["resourceCoords"] as? [Double] != nil })
        let back = try GCPReader.read(path: path)
        #expect(back.gcps.map(\.id) == s.gcps.map(\.id) && back.gcps.map(\.pixel) == s.gcps.map(\.pixel))
        #expect(back.mask == s.mask!)
        // Without a Host (no address to name), the file is named as before.
        let bare = await editor.respond(ServerRequest(method: .put, target: "/api/session", body: Array(s.json())), isCancelled: { false })
        #expect(bare.status == .ok)
        let again = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let fileSource = ((again["target"] as? [String: Any])?["source"] as? [String: Any])
        #expect(fileSource?["type"] as? String == "Image" && (fileSource?["id"] as? String)?.hasPrefix("file://") == true)
    }
}
