import Foundation
import Logging
import TegulaGeometry
import TegulaTestSupport
import TegulaTileset
import Testing

@testable import TegulaHTTP
@testable import TegulaServer

/// What strangers send a tile server, over a real loopback server where the socket matters
/// (issue 16 item 5): over-long heads, hostile names in the viewer and TileJSON, reflected input,
/// 404s that could tell which files exist, numbers past 64 bits, and a tileset that turns corrupt
/// while served. Slow heads and idle clients, whose outcome depends on timing, are in
/// ``TimingTests/ConnectionTimingTests``.
@Suite(.serialized) struct HostileClientTests {
    let f = ServerFixtures.shared

    // MARK: Over-long heads

    @Test func overLongRequestLineIs414AndOverLongHeadersAre431() async throws {
        try await LiveServer.run(f.service()) { server in
            let port = server.port
            func ask(_ head: String) async throws -> RawHTTP.Response {
                let raw = try await RawHTTP.exchange(port: port, send: Array(head.utf8))
                return try #require(try RawHTTP.responses(raw, heads: [false]).first)
            }
            let limit = ServerConfiguration().maxHeaderBytes
            let long = "/blue/" + String(repeating: "a", count: limit + 100) + ".png"
            let cases: [(String, String, Int)] = [
                ("target past the decoder's limit", "GET \(long) HTTP/1.1\r\nHost: x\r\n\r\n", 414),
                ("target past maxTargetLength", "GET /\(String(repeating: "b", count: 3000)) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 414),
                ("one huge header", "GET /blue/0/0/0.png HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "c", count: limit + 100))\r\n\r\n", 431),
                (
                    "many headers",
                    "GET /blue/0/0/0.png HTTP/1.1\r\nHost: x\r\n"
                        + (0..<150).map { "X-\($0): v\r\n" }.joined() + "\r\n", 431
                ),
                (
                    "headers over the total",
                    "GET /blue/0/0/0.png HTTP/1.1\r\nHost: x\r\n"
                        + (0..<40).map { "X-\($0): \(String(repeating: "d", count: 500))\r\n" }.joined() + "\r\n", 431
                ),
            ]
            for (what, head, status) in cases {
                let r = try await ask(head)
                #expect(r.status == status, "\(what): \(r.status)")
                let body = String(decoding: r.body, as: UTF8.self)
                #expect(body.hasSuffix("bytes\n") && !body.contains("aaaa") && !body.contains("cccc"), "\(what): \(body)")
            }
            #expect(try await server.fetch("/blue/0/0/0.png").status == 200)
        }
    }

    /// NUL bytes and backslashes sent raw on the wire, not only percent-encoded.
    @Test func rawNULAndBackslashTargetsAreRefused() async throws {
        try await LiveServer.run(f.service()) { server in
            let port = server.port
            for target in [
                "/blue/0/0/0.png\u{0}", "/blue/0/0/0\u{0}.png", "/blue\\..\\..\\secret.txt", "/blue/0/0/..\\..\\..\\secret.txt",
                "/..\\secret.txt",
            ] {
                let raw = try await RawHTTP.exchange(port: port, send: Array("GET \(target) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
                let r = try #require(try RawHTTP.responses(raw, heads: [false]).first)
                #expect([400, 404].contains(r.status), "\(target.debugDescription): \(r.status)")
                #expect(!String(decoding: r.body, as: UTF8.self).contains("root:x"))
            }
        }
    }

    // MARK: Reflection and escaping

    /// A tileset whose id and name are HTML: the viewer page embeds them so that no `<` of theirs
    /// reaches the HTML parser, and TileJSON carries them intact as JSON with the id
    /// percent-encoded in the URL.
    @Test func htmlInIdsAndNamesIsEscapedInViewerAndTileJSON() throws {
        let dir = try TemporaryFolder.make("server-html").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let id = "x<img src=x onerror=alert(1)>\"'&"
        let name = "</script><script>alert(2)</script><!--"
        let w = try Tileset.openWriter(at: dir + "/" + id)
        try w.write(Tile(x: 0, y: 0, z: 0), data: ServerFixtures.bytes("x", Tile(x: 0, y: 0, z: 0)))
        try w.finish(
            metadata: TilesetMetadata(
                name: name, zooms: ZoomRange(min: 0, max: 0)!, attribution: "<b onmouseover=alert(3)>a</b>",
                extra: [
                    TilesetMetadata.gcpsKey: .array([
                        .object([
                            "name": .string("<i>gcp</i>"),
                            "lon": .double(0), "lat": .double(0), "residual_m": .double(1),
                        ])
                    ])
                ]))
        let service = TileService(
            catalogue: try Catalogue.load(paths: [dir + "/" + id]),
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        let page = String(decoding: service.get("/").body, as: UTF8.self)
        for markup in ["<img", "<script>alert", "</script><script>", "<!--", "<b ", "<i>"] {
            #expect(!page.contains(markup), "the page holds \(markup)")
        }
        #expect(page.components(separatedBy: "<script").count - 1 == 4)  // the catalogue, Leaflet, the viewer's CRS, the viewer
        let open = #"<script id="catalogue" type="application/json">"#
        let json = try #require(page.components(separatedBy: open).last?.components(separatedBy: "</script>").first)
        let catalogue = try JSONValue.parse(Array(json.utf8))
        #expect(catalogue.arrayValue?.first?["id"]?.stringValue == id)
        #expect(catalogue.arrayValue?.first?["name"]?.stringValue == name)

        let encoded = id.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let tj = service.get("/\(encoded).json")
        #expect(tj.status == 200 && tj.header("Content-Type") == "application/json")
        let tileJSON = try JSONValue.parse(tj.body)
        #expect(tileJSON["name"]?.stringValue == name)
        let template = try #require(tileJSON["tiles"]?.arrayValue?.first?.stringValue)
        #expect(!template.contains("<") && !template.contains(">") && !template.contains("\""), "\(template)")
        #expect(service.get(template.replacingOccurrences(of: "{z}/{x}/{y}", with: "0/0/0")).status == 200, "\(template)")
    }

    /// Nothing a client sends comes back as markup: every refusal is plain text a browser may not
    /// sniff, and no answer of any other type repeats the payload.
    @Test(arguments: [
        "/maps?lon=<script>alert(1)</script>&lat=1", "/maps?lon=1&lat=2&x=<script>alert(1)</script>",
        "/blue.json?callback=<script>alert(1)</script>", "/blue/0/0/0.png?<script>alert(1)</script>",
        "/?<script>alert(1)</script>", "/<script>alert(1)</script>.json", "/%3Cscript%3Ealert(1)%3C%2Fscript%3E.json",
        "/<script>alert(1)</script>/0/0/0.png", "/blue/0/0/<script>alert(1)</script>.png", "/leaflet/<script>alert(1)</script>",
        "/blue/0/0/0.<script>alert(1)</script>", "/blue/<script>alert(1)</script>/0/0.png",
    ]) func noInputIsReflectedAsMarkup(target: String) {
        let r = f.service().get(target)
        let body = String(decoding: r.body, as: UTF8.self)
        let type = r.header("Content-Type") ?? ""
        if r.status.code >= 400 {
            #expect(type == "text/plain; charset=utf-8" && r.header("X-Content-Type-Options") == "nosniff", "\(target) → \(r.status) \(type)")
        } else {
            #expect(!body.contains("<script>alert"), "\(target) → \(r.status) \(type) repeats the script")
        }
    }

    /// The 404 for a path says nothing about what is on disk behind it: the same body (up to the
    /// name asked for) for a file that exists beside the tilesets and one that does not, and for a
    /// tile that is absent, a symlink out of the folder, a dangling symlink or a directory.
    @Test func notFoundIsTheSameWhetherOrNotAFileExists() throws {
        let s = f.service()
        func body(_ t: String, _ name: String) -> String {
            String(decoding: s.get(t).body, as: UTF8.self).replacingOccurrences(of: name, with: "NAME")
        }
        for (existing, absent) in [
            ("secret.txt", "absent.txt"), ("secret.json", "absent.json"), ("secret", "absent"),
            ("blue/secret.txt", "blue/absent.txt"),
        ] {
            #expect(s.get("/" + existing).status == s.get("/" + absent).status)
            #expect(body("/" + existing, "secret") == body("/" + absent, "absent"), "\(existing)")
        }

        let dir = try TemporaryFolder.make("server-404").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let w = try Tileset.openWriter(at: dir + "/t")
        for t in ServerFixtures.pyramid(1...1) { try w.write(t, data: ServerFixtures.bytes("t", t)) }
        try w.finish(metadata: TilesetMetadata(name: "t", zooms: ZoomRange(min: 1, max: 1)!))
        try FileManager.default.removeItem(atPath: dir + "/t/1/0/0.png")
        try FileManager.default.removeItem(atPath: dir + "/t/1/0/1.png")
        try FileManager.default.createSymbolicLink(atPath: dir + "/t/1/0/1.png", withDestinationPath: "/etc/passwd")
        try FileManager.default.removeItem(atPath: dir + "/t/1/1/0.png")
        try FileManager.default.createSymbolicLink(atPath: dir + "/t/1/1/0.png", withDestinationPath: dir + "/nothing-here")
        try FileManager.default.removeItem(atPath: dir + "/t/1/1/1.png")
        try FileManager.default.createDirectory(atPath: dir + "/t/1/1/1.png", withIntermediateDirectories: false)
        let served = TileService(catalogue: try Catalogue.load(paths: [dir + "/t"]), logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        var answers: Set<String> = []
        for (x, y) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
            let r = served.get("/t/1/\(x)/\(y).png")
            #expect(r.status == 404, "1/\(x)/\(y): \(r.status)")
            #expect(!String(decoding: r.body, as: UTF8.self).contains("root:x"))
            answers.insert("\(r.status) " + String(decoding: r.body, as: UTF8.self).replacingOccurrences(of: "1 \(x) \(y)", with: "TILE"))
        }
        #expect(answers.count == 1, "\(answers)")
    }

    // MARK: Numbers

    @Test(arguments: [
        "/blue/0/4294967296/0.png", "/blue/0/0/4294967296.png", "/blue/32/0/0.png", "/blue/99/0/0.png",
        "/blue/4294967296/0/0.png", "/blue/18446744073709551616/0/0.png", "/blue/0/18446744073709551616/0.png",
        "/blue/0/0/18446744073709551617.png", "/blue/1/9223372036854775807/0.png", "/blue/1/9223372036854775808/0.png",
        "/blue/1/99999999999999999999999999999999999999/0.png", "/blue/tms/1/0/18446744073709551615.png",
        "/blue/1/-1/0.png", "/blue/1/+1/0.png", "/blue/1/1e3/0.png", "/blue/1/0x1/0.png", "/blue/1/1.0/0.png",
        "/blue/1/%31%30%30%30%30%30%30%30%30%30%30%30/0.png", "/blue/-0/0/0.png", "/blue/30/1073741824/0.png",
    ]) func tileNumbersPastTheirRangeAreRefused(target: String) {
        let r = f.service().get(target)
        #expect(r.status == 400, "\(target) → \(r.status)")
    }

    // MARK: A tileset turning corrupt

    /// An MBTiles truncated and a PMTiles cut short while served: each request for their tiles is
    /// answered 500 with one error line in the log (and no file detail in the body), and the
    /// server goes on serving everything else.
    @Test func corruptTilesetsAre500WithOneLogLineEach() async throws {
        let dir = try TemporaryFolder.make("server-corrupt").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for name in ["m.mbtiles", "p.pmtiles"] {
            let w = try Tileset.openWriter(at: dir + "/" + name)
            for t in ServerFixtures.pyramid(0...3) { try w.write(t, data: ServerFixtures.bytes(name, t) + [UInt8](repeating: 7, count: 3000)) }
            try w.finish(metadata: TilesetMetadata(name: name, zooms: ZoomRange(min: 0, max: 3)!))
        }
        let catalogue = try Catalogue.load(paths: [dir + "/m.mbtiles", dir + "/p.pmtiles", f.dir + "/blue"])
        // Both cut after loading, as a disk error or a careless copy would.
        truncate(dir + "/m.mbtiles", 4096)
        truncate(dir + "/p.pmtiles", 20_000)
        let capture = ServerFixtures.CapturedLog(level: .info)
        let service = TileService(catalogue: catalogue, logger: capture.logger)
        try await LiveServer.run(service) { server in
            var failures = 0
            for target in ["/m/3/7/7.png", "/m/3/7/7.png", "/p/3/7/7.png", "/p/3/7/7.png", "/m/2/1/1.png"] {
                let r = try await server.fetch(target)
                #expect(r.status == 500, "\(target): \(r.status)")
                if r.status == 500 { failures += 1 }
                let body = String(decoding: r.body, as: UTF8.self)
                #expect(!body.contains(dir) && body.contains("see the server log"), "\(body)")
                #expect(try await server.fetch("/blue/0/0/0.png").status == 200)
            }
            #expect(try await server.fetch("/health").status == 200)
            let errors = capture.lines.filter { $0.level >= .error }
            #expect(errors.count == failures, "\(errors.map(\.message))")
            #expect(errors.allSatisfy { $0.message.contains(dir) || $0.message.contains("'m'") || $0.message.contains("'p'") })
        }
    }
}
