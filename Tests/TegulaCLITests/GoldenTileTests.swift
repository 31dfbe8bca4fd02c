import Foundation
import Testing
import TegulaTestSupport

/// Golden digests: small canonical runs of `tegula tile` on the Schagen 1689 scan (Debian's
/// marble-qt-data, georeferenced by pipelines/schagen1689.points with a thin-plate spline), zooms
/// 0–3, one run per resampling kernel, per tile format and per container, against the SHA-256 of
/// every tile stored in Tests/Goldens/schagen1689/RUN.sha256. Any changed byte fails, naming the
/// tiles. A deliberate change is recorded by `scripts/update-goldens` (never by CI: scripts/test
/// clears TEGULA_UPDATE_GOLDENS), and the diff of the .sha256 files shows which tiles moved.
struct GoldenTileTests {
    static let goldens = TegulaBinary.packageRoot.appendingPathComponent("Tests/Goldens/schagen1689")

    /// The runs: name → (format, resampling, output extension; "" for a folder).
    static let runs: [(name: String, format: String, resampling: String, ext: String)] = [
        ("near-png", "png", "near", ""), ("bilinear-png", "png", "bilinear", ""), ("cubic-png", "png", "cubic", ""),
        ("lanczos-png", "png", "lanczos", ""), ("average-png", "png", "average", ""),
        ("bilinear-jpeg", "jpeg", "bilinear", ""), ("bilinear-webp", "webp", "bilinear", ""), ("bilinear-png8", "png8", "bilinear", ""),
        ("bilinear-png-mbtiles", "png", "bilinear", ".mbtiles"), ("bilinear-jpeg-pmtiles", "jpeg", "bilinear", ".pmtiles"),
    ]

    static func parse(_ text: String) -> [String: String] {
        var out: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let f = line.split(separator: " ")
            if f.count == 2 { out[String(f[0])] = String(f[1]) }
        }
        return out
    }

    @Test(arguments: runs.map(\.name))
    func tilesEqualTheirGoldenDigests(run name: String) throws {
        let run = try #require(Self.runs.first { $0.name == name })
        let dir = try TemporaryFolder.make("golden")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("tiles" + run.ext).path
        let points = Schagen1689.points
        let r = try TegulaBinary.run(["tile", Schagen1689.scan, "--gcps", points, "--transform", "tps", "-o", out, "--zoom", "0-3",
                                      "--format", run.format, "--resampling", run.resampling, "--quiet"])
        try #require(r.status == 0, "\(r.stderr)")
        let got = try TilesetDigest.perTile(out)
        #expect(got.count > 20, "\(got.count) tiles")
        let file = Self.goldens.appendingPathComponent(name + ".sha256")
        if ProcessInfo.processInfo.environment["TEGULA_UPDATE_GOLDENS"] == "1" {
            try FileManager.default.createDirectory(at: Self.goldens, withIntermediateDirectories: true)
            let text = "# tegula tile schagen1689.jpg --gcps pipelines/schagen1689.points --transform tps --zoom 0-3 "
                + "--format \(run.format) --resampling \(run.resampling) -o tiles\(run.ext); scripts/update-goldens rewrites this\n"
                + got.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)\n" }.joined()
            try text.write(to: file, atomically: true, encoding: .utf8)
            print("golden \(name): recorded \(got.count) tiles")
            return
        }
        let text = try #require(try? String(contentsOf: file, encoding: .utf8), "no golden \(file.path): run scripts/update-goldens")
        let want = Self.parse(text)
        let changed = want.keys.filter { got[$0] != nil && got[$0] != want[$0] }.sorted()
        let missing = want.keys.filter { got[$0] == nil }.sorted()
        let extra = got.keys.filter { want[$0] == nil }.sorted()
        #expect(changed.isEmpty, "\(name): \(changed.count) of \(want.count) tiles changed: \(changed.joined(separator: ", "))")
        #expect(missing.isEmpty, "\(name): \(missing.count) tiles no longer written: \(missing.joined(separator: ", "))")
        #expect(extra.isEmpty, "\(name): \(extra.count) tiles written that the golden lacks: \(extra.joined(separator: ", "))")
    }
}
