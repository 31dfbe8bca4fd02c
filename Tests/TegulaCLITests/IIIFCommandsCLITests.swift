import Foundation
import TegulaTestSupport
import Testing

/// Issue 29's "sources by URL wherever a scan is accepted" beyond tile, warp and serve: `tegula
/// info`, `georef` and `edit` of an IIIF image or its Georeference Annotation, a pipeline's
/// `input:` and `maps_from:` AnnotationPage, paper removal on an IIIF source, and the line an
/// unreachable server ends a run with; against the local IIIF servers of ``IIIFSourceCLITests``.
@Suite(.timeLimit(.minutes(20)), .serialized)
struct IIIFCommandsCLITests {
    /// The info.json a server gives for `path`, parsed.
    static func info(_ server: LocalHTTPServer, _ path: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: try server.get(path).body) as? [String: Any])
    }

    /// A JSON object from a file.
    static func object(_ path: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    /// `tegula run FILE` with the cache in `cache`, checked to succeed.
    static func run(_ file: String, cache: String) throws -> ProgramRun {
        let r = try TegulaBinary.run(["run", file, "--iiif-cache", cache, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        return r
    }

    /// The run's log line of `map`'s georeference stage.
    static func georeferenceLine(_ r: ProgramRun, map: String) -> String {
        r.stderr.split(separator: "\n").first { $0.contains("\(map): georeference") }.map(String.init) ?? ""
    }

    /// `tegula info URL` prints the image's size, every scale factor its info.json lists with
    /// that level's size (⌈w/s⌉ × ⌈h/s⌉, Image API 2.1 §4.2) and the info.json it came from;
    /// `tegula info ANNOTATION --json` the same image with the annotation's five GCPs. Neither
    /// fetches an image.
    @Test func infoOfAnIIIFImageOrItsAnnotationPrintsItsSizeLevelsAndSourceFetchingNoImage() throws {
        let (dir, _, server, ann) = try IIIFSourceCLITests.levelZeroCase("iiif-info")
        defer { server.stop(); try? FileManager.default.removeItem(at: dir) }
        let cache = dir.appendingPathComponent("cache").path
        let url = "\(server.base)/iiif/scan"
        let info = try Self.info(server, "/iiif/scan/info.json")
        let factors = try #require((info["tiles"] as? [[String: Any]])?.first?["scaleFactors"] as? [Int]).sorted()
        let w = IIIFSourceCLITests.width, h = IIIFSourceCLITests.height
        let text = try TegulaBinary.run(["info", url, "--iiif-cache", cache])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("from: \(url)/info.json (IIIF Image API 2.1, level0)"), "\(text.stdout)")
        #expect(text.stdout.contains("size: \(w) x \(h) pixels"), "\(text.stdout)")
        #expect(text.stdout.contains("scale factors \(factors.map(String.init).joined(separator: ", "))"), "\(text.stdout)")
        for f in factors {
            #expect(text.stdout.contains("scale factor \(f): \((w + f - 1) / f) x \((h + f - 1) / f) pixels"), "\(text.stdout)")
        }
        let json = try TegulaBinary.run(["info", ann, "--json", "--iiif-cache", cache])
        #expect(json.status == 0, "\(json.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(report["service"] as? String == info["@id"] as? String)
        #expect(report["width"] as? Int == w && report["height"] as? Int == h)
        #expect((report["levels"] as? [[String: Any]])?.compactMap { $0["scaleFactor"] as? Int } == factors)
        #expect(report["gcps"] as? Int == 5 && report["annotation"] as? String == ann, "\(report)")
        #expect(IIIFSourceCLITests.imageRequests(server).isEmpty)
    }

    /// `tegula georef ANNOTATION -o OUT.json` fits the annotation's GCPs as `tegula georef SCAN
    /// --gcps ANNOTATION` does on the local scan (the same report: transform, RMSEs, footprint),
    /// writes an annotation naming the image's service that Allmaps' schema accepts, and a
    /// picture with the scan in it; a `.vrt` output is refused in one line, nothing written.
    @Test func georefOfAnAnnotationFitsLikeTheLocalScanAndWritesAnAnnotationNamingTheImage() throws {
        let (dir, scan, server, ann) = try IIIFSourceCLITests.levelZeroCase("iiif-georef")
        defer { server.stop(); try? FileManager.default.removeItem(at: dir) }
        let cache = dir.appendingPathComponent("cache").path
        let path = { (name: String) in dir.appendingPathComponent(name).path }
        let l = try TegulaBinary.run(["georef", scan.path, "--gcps", ann, "-o", path("local.vrt"), "--report", path("local.report.json")])
        #expect(l.status == 0, "\(l.stderr)")
        let r = try TegulaBinary.run([
            "georef", ann, "-o", path("remote.json"), "--report", path("remote.report.json"),
            "--picture", path("remote.svg"), "--iiif-cache", cache,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let a = try Self.object(path("local.report.json")), b = try Self.object(path("remote.report.json"))
        for key in ["transform", "rmse", "leave_one_out_rmse", "footprint", "gcps", "image_width", "image_height"] {
            #expect((a[key] as? NSObject) == (b[key] as? NSObject), "\(key): \(a[key] ?? "none") vs \(b[key] ?? "none")")
        }
        let written = try Self.object(path("remote.json"))
        let source = ((written["target"] as? [String: Any])?["source"] as? [String: Any]) ?? [:]
        #expect(source["id"] as? String == "\(server.base)/iiif/scan" && source["type"] as? String == "ImageService2", "\(source)")
        #expect(((written["body"] as? [String: Any])?["features"] as? [Any])?.count == 5)
        let errors = try ProgramRun.output(
            "python3",
            [
                "-c",
                """
                import sys, json
                from jsonschema import Draft202012Validator
                v = Draft202012Validator(json.load(open(sys.argv[1])))
                print(json.dumps([e.message for e in v.iter_errors(json.load(open(sys.argv[2])))]))
                """, PackageRoot.path("Tests/Schemas/allmaps-annotation-1.schema.json"), path("remote.json"),
            ])
        #expect(errors.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "\(errors)")
        let svg = try String(contentsOfFile: path("remote.svg"), encoding: .utf8)
        #expect(svg.contains("data:image/jpeg;base64,"), "the picture holds no scan")

        let vrt = try TegulaBinary.run(["georef", ann, "-o", path("remote.vrt"), "--iiif-cache", cache])
        #expect(vrt.status != 0)
        #expect(vrt.stderr.split(separator: "\n").count == 1 && vrt.stderr.contains("OUT.json"), "\(vrt.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("remote.vrt")))
    }

    /// `tegula edit ANNOTATION -o OUT.json` starts from the annotation's five points, its scan
    /// pane is the IIIF image read from the server (a region is the local scan's pixels exactly:
    /// the server offers PNG), and Save writes an annotation naming that server's service.
    @Test func editOfAnAnnotationReadsTheScanFromTheIIIFServerAndSavesAnAnnotationNamingIt() throws {
        let (dir, scan, server, ann) = try IIIFSourceCLITests.levelOneCase("iiif-edit")
        defer { server.stop(); try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("saved.json").path
        let editor = try LocalHTTPServer.tegula(["edit", ann, "-o", out, "--iiif-cache", dir.appendingPathComponent("cache").path])
        defer { editor.stop() }
        let session = try editor.get("/api/session")
        #expect(session.status == 200, "\(editor.output)")
        let points = (try JSONSerialization.jsonObject(with: session.body) as? [String: Any])?["gcps"] as? [Any]
        #expect(points?.count == 5, "\(String(decoding: session.body, as: UTF8.self))")
        let info = try #require(try JSONSerialization.jsonObject(with: try editor.get("/iiif/scan/info.json").body) as? [String: Any])
        #expect(info["width"] as? Int == IIIFSourceCLITests.width && info["height"] as? Int == IIIFSourceCLITests.height, "\(info)")
        let region = try editor.get("/iiif/scan/300,200,256,256/256,256/0/default.png")
        #expect(region.status == 200)
        let got = dir.appendingPathComponent("region.png")
        try region.body.write(to: got)
        let diff = try ProgramRun.output(
            "python3",
            [
                "-c",
                """
                import sys, numpy
                from osgeo import gdal
                a = gdal.Open(sys.argv[1]).ReadAsArray()[:3, 200:456, 300:556].astype(int)
                b = gdal.Open(sys.argv[2]).ReadAsArray()[:3].astype(int)
                print(-1 if a.shape != b.shape else abs(a - b).max())
                """, scan.path, got.path,
            ])
        #expect(diff.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "largest difference \(diff)")
        let body = dir.appendingPathComponent("session.json")
        try session.body.write(to: body)
        let put = try ProgramRun.run(
            "curl",
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "PUT", "--data-binary", "@\(body.path)",
                editor.base + "/api/session",
            ])
        #expect(put.stdout == "200", "\(put.stdout) \(editor.output)")
        let service = try Self.info(server, "/3.0_pil/scan/info.json")["id"] as? String
        let source = ((try Self.object(out)["target"] as? [String: Any])?["source"] as? [String: Any]) ?? [:]
        #expect(service != nil && source["id"] as? String == service && source["type"] as? String == "ImageService3", "\(source)")
    }

    /// A pipeline whose `input:` is the annotation of an image on `iiif_testserver.py` (PNG)
    /// tiles byte for byte like the same map of the local scan, and so with `remove_color:`: the
    /// paper is taken out of the IIIF windows as out of the file's (and it changes the tiles).
    @Test func aPipelineInputThatIsAnAnnotationTilesLikeTheLocalScanWithAndWithoutPaperRemoval() throws {
        let (dir, _, server, _) = try IIIFSourceCLITests.levelOneCase("iiif-pipeline")
        defer { server.stop(); try? FileManager.default.removeItem(at: dir) }
        let paper = "remove_color: {color: \"#A0A0A0\", threshold: 0.35, hardness: 0.5}"
        let file = dir.appendingPathComponent("p.yml").path
        try """
        version: 1
        map_defaults:
          tile: {min_zoom: 11}
        maps:
          - {name: local, input: images/scan.png, georeference: {gcps: annotation.json}, output: out/local}
          - {name: remote, input: annotation.json, output: out/remote}
          - {name: local-paper, input: images/scan.png, georeference: {gcps: annotation.json}, \(paper), output: out/local-paper}
          - {name: remote-paper, input: annotation.json, \(paper), output: out/remote-paper}
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let r = try Self.run(file, cache: dir.appendingPathComponent("cache").path)
        let digest = { (name: String) in try TilesetDigest.of(dir.appendingPathComponent("out/\(name)").path) }
        let local = try digest("local"), remote = try digest("remote")
        let localPaper = try digest("local-paper"), remotePaper = try digest("remote-paper")
        #expect(local.tiles > 20 && local == remote, "\(local) vs \(remote)\n\(r.stderr)")
        #expect(localPaper.tiles > 20 && localPaper == remotePaper, "\(localPaper) vs \(remotePaper)")
        #expect(localPaper.digest != local.digest, "remove_color changed nothing")
    }

    /// A rerun of a pipeline over an IIIF image skips its stages and fetches no image; a changed
    /// annotation, or a changed info.json (the image's description: the content hash covers it,
    /// not the pixels), makes the georeference stage run again.
    @Test func aRerunOverAnIIIFImageIsSkippedUntilTheAnnotationOrTheInfoJSONChanges() throws {
        let dir = try TemporaryFolder.make("iiif-rerun")
        defer { try? FileManager.default.removeItem(at: dir) }
        let scan = dir.appendingPathComponent("scan.png")
        try IIIFSourceCLITests.writeScan(scan.path)
        let files = dir.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        let server = try IIIFSourceCLITests.levelZero(scan, files: files)
        defer { server.stop() }
        let ann = dir.appendingPathComponent("annotation.json").path
        let text = IIIFSourceCLITests.annotation(service: "\(server.base)/iiif/scan")
        try text.write(toFile: ann, atomically: true, encoding: .utf8)
        let file = dir.appendingPathComponent("p.yml").path
        try "version: 1\nmaps:\n  - {name: remote, input: annotation.json, tile: {min_zoom: 12}, output: out/remote}\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let cache = dir.appendingPathComponent("cache").path
        let first = try Self.run(file, cache: cache)
        #expect(!Self.georeferenceLine(first, map: "remote").contains("skipped"), "\(first.stderr)")
        let fetched = IIIFSourceCLITests.imageRequests(server).count
        #expect(fetched > 0)

        let again = try Self.run(file, cache: cache)
        #expect(Self.georeferenceLine(again, map: "remote").contains("skipped (unchanged)"), "\(again.stderr)")
        #expect(again.stderr.contains("remote: tile") && again.stderr.contains("skipped (unchanged)"), "\(again.stderr)")
        #expect(IIIFSourceCLITests.imageRequests(server).count == fetched, "the rerun fetched images")

        try text.replacingOccurrences(of: "4.505", with: "4.506").write(toFile: ann, atomically: true, encoding: .utf8)
        let moved = try Self.run(file, cache: cache)
        #expect(!Self.georeferenceLine(moved, map: "remote").contains("skipped"), "a moved GCP was not seen: \(moved.stderr)")

        let infoPath = files.appendingPathComponent("scan/info.json")
        let info = try String(contentsOf: infoPath, encoding: .utf8)
        try (info.trimmingCharacters(in: .whitespacesAndNewlines) + "\n\n").write(to: infoPath, atomically: true, encoding: .utf8)
        let described = try Self.run(file, cache: cache)
        #expect(!Self.georeferenceLine(described, map: "remote").contains("skipped"), "a changed info.json was not seen: \(described.stderr)")
    }

    /// `maps_from:` an AnnotationPage by URL (two annotations of the PNG image, ids `…/maps/alpha`
    /// and `…/maps/beta`, the second's centre GCP moved) runs both maps, each named by its id's
    /// last path component: alpha's tiles are byte for byte the local scan's with alpha's GCPs,
    /// and beta's differ.
    @Test func mapsFromAnAnnotationPageByURLRunsEveryMapNamedByItsID() throws {
        let (dir, _, server, _) = try IIIFSourceCLITests.levelOneCase("iiif-page")
        defer { server.stop(); try? FileManager.default.removeItem(at: dir) }
        let service = "\(server.base)/3.0_pil/scan"
        let alpha = IIIFSourceCLITests.annotation(service: service, type: "ImageService3").replacingOccurrences(of: "maps/leiden", with: "maps/alpha")
        let beta = IIIFSourceCLITests.annotation(service: service, type: "ImageService3").replacingOccurrences(of: "maps/leiden", with: "maps/beta")
            .replacingOccurrences(of: "4.505", with: "4.515")
        let www = dir.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        try "{\"type\":\"AnnotationPage\",\"items\":[\(alpha),\(beta)]}".write(
            to: www.appendingPathComponent("page.json"), atomically: true, encoding: .utf8)
        try alpha.write(to: dir.appendingPathComponent("alpha.json"), atomically: true, encoding: .utf8)
        let pages = try LocalHTTPServer.python(serving: www)
        defer { pages.stop() }
        let file = dir.appendingPathComponent("p.yml").path
        try """
        version: 1
        map_defaults:
          tile: {min_zoom: 11}
          output: out/{name}
        maps_from: \(pages.base)/page.json
        maps:
          - {name: oracle, input: images/scan.png, georeference: {gcps: alpha.json}, output: out/oracle}
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let r = try Self.run(file, cache: dir.appendingPathComponent("cache").path)
        let made = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("out").path).sorted()
        #expect(made == ["alpha", "beta", "oracle"], "\(made)\n\(r.stderr)")
        let digest = { (name: String) in try TilesetDigest.of(dir.appendingPathComponent("out/\(name)").path) }
        let a = try digest("alpha"), b = try digest("beta"), o = try digest("oracle")
        #expect(a.tiles > 20 && a == o, "\(a) vs \(o)")
        #expect(b.digest != a.digest)
    }

    /// `tegula serve p.yml` renders on demand the maps of a pipeline that live on an IIIF server
    /// (`iiif_testserver.py`, PNG): an `input:` that is an annotation file, one that is the image
    /// service's URL with the annotation as its GCPs, and a map of a `maps_from:` AnnotationPage
    /// by URL. Each one's max-zoom tiles are byte for byte those `tegula tile` cuts from the
    /// local scan with the same GCPs (the oracle: no IIIF in it).
    @Test func servingAPipelineOfIIIFMapsRendersTheLocalScansMaxZoomTiles() throws {
        let (dir, scan, server, ann) = try IIIFSourceCLITests.levelOneCase("iiif-serve-pipeline")
        defer { server.stop(); try? FileManager.default.removeItem(at: dir) }
        let service = "\(server.base)/3.0_pil/scan"
        let alpha = IIIFSourceCLITests.annotation(service: service, type: "ImageService3").replacingOccurrences(of: "maps/leiden", with: "maps/alpha")
        let www = dir.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        try "{\"type\":\"AnnotationPage\",\"items\":[\(alpha)]}".write(to: www.appendingPathComponent("page.json"), atomically: true, encoding: .utf8)
        let pages = try LocalHTTPServer.python(serving: www)
        defer { pages.stop() }
        let file = dir.appendingPathComponent("p.yml").path
        try """
        version: 1
        map_defaults:
          output: out/{name}
        maps_from: \(pages.base)/page.json
        maps:
          - {name: annotated, input: annotation.json}
          - {name: byurl, input: \(service), georeference: {gcps: annotation.json}}
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let local = dir.appendingPathComponent("local").path
        let l = try TegulaBinary.run(["tile", scan.path, "--gcps", ann, "-o", local, "--quiet"])
        #expect(l.status == 0, "\(l.stderr)")
        let z = try IIIFSourceCLITests.maxZoom(local)
        let names = try FileManager.default.subpathsOfDirectory(atPath: "\(local)/\(z)").filter { $0.hasSuffix(".png") }.sorted()
        #expect(z >= 12 && names.count >= 4, "z\(z): \(names)")

        let tegula = try LocalHTTPServer.tegula(["serve", file, "--iiif-cache", dir.appendingPathComponent("cache").path])
        defer { tegula.stop() }
        #expect(tegula.output(contains: "listening on"), "\(tegula.output)")
        for map in ["annotated", "byurl", "alpha"] {
            for name in names {
                let answer = try tegula.get("/\(map)/\(z)/\(name)")
                let cut = try Data(contentsOf: URL(fileURLWithPath: "\(local)/\(z)/\(name)"))
                #expect(answer.status == 200 && answer.body == cut, "\(map) \(z)/\(name): \(answer.status)\n\(tegula.output)")
            }
        }
    }

    /// A server that is not there (a free port): `tegula info` of its IIIF image and `tegula
    /// serve` of a PMTiles file on it each end in one line naming the URL and the cause in words,
    /// its parentheses balanced (SwiftNIO's own text has a stray `)`), no type names or errno.
    /// `--iiif-retries 0` asks once: `info` ends within seconds (by default each of its two
    /// URLs is tried 6 times, each try retrying the connection for 10 s: 146 s measured);
    /// the PMTiles reader's own two tries of 10 s each remain.
    @Test func anUnreachableServerIsOneBalancedLineNamingTheURL() throws {
        let dir = try TemporaryFolder.make("iiif-unreachable")
        defer { try? FileManager.default.removeItem(at: dir) }
        let port = try LocalHTTPServer.freePort()
        let image = "http://127.0.0.1:\(port)/iiif/scan", pmtiles = "http://127.0.0.1:\(port)/map.pmtiles"
        let start = Date()
        let info = try TegulaBinary.run(["info", image, "--iiif-cache", dir.appendingPathComponent("cache").path, "--iiif-retries", "0"])
        let seconds = Date().timeIntervalSince(start)
        #expect(seconds < 5, "tegula info --iiif-retries 0 took \(seconds) s")
        let runs = [(image, info), (pmtiles, try TegulaBinary.run(["serve", pmtiles, "--port", "0"]))]
        for (url, r) in runs {
            let line = r.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(r.status != 0)
            #expect(!line.isEmpty && !line.contains("\n"), "\(r.stderr)")
            #expect(line.contains(url) && line.contains("connection refused"), "\(line)")
            var depth = 0
            for c in line where c == "(" || c == ")" {
                depth += c == "(" ? 1 : -1
                if depth < 0 { break }
            }
            #expect(depth == 0, "unbalanced parentheses: \(line)")
            #expect(!line.contains("errno") && !line.contains("Error") && !line.contains("NIO"), "\(line)")
        }
    }
}
