import Foundation
import TegulaTestSupport
import Testing

/// `tegula serve --format/--quality/--auto-lossy` for scans rendered on demand, and a pipeline
/// map's own `tile:` format: the max-zoom tiles are the bytes `tegula tile` writes with the same
/// options, each answered with its own Content-Type, TileJSON naming the format's extension;
/// bad combinations refused with one line before the server starts.
@Suite(.timeLimit(.minutes(20)))
struct ServeFormatCLITests {
    /// How the server is started (scan options, or a pipeline file's `tile:` keys) and the
    /// `tegula tile` options that cut the same tiles.
    struct Case: Sendable, CustomStringConvertible {
        let serve: [String]
        let pipelineTile: String?
        let tile: [String]
        let templateExtension: String
        var description: String { (pipelineTile.map { "pipeline {\($0)} " } ?? "") + serve.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(
            serve: ["--format", "webp", "--quality", "80"], pipelineTile: nil, tile: ["--format", "webp", "--quality", "80"],
            templateExtension: "webp"),
        Case(serve: ["--format", "jpg"], pipelineTile: nil, tile: ["--format", "jpg"], templateExtension: "jpg"),
        Case(serve: ["--format", "png8"], pipelineTile: nil, tile: ["--format", "png8"], templateExtension: "png"),
        Case(
            serve: ["--format", "auto", "--auto-lossy", "webp", "--quality", "70"], pipelineTile: nil,
            tile: ["--format", "auto", "--auto-lossy", "webp", "--quality", "70"], templateExtension: "png"),
        // A pipeline map's own format, and --format overriding it.
        Case(
            serve: [], pipelineTile: "format: auto, auto_lossy: webp", tile: ["--format", "auto", "--auto-lossy", "webp"], templateExtension: "png"),
        Case(serve: ["--format", "webp"], pipelineTile: "format: jpg, quality: 60", tile: ["--format", "webp"], templateExtension: "webp"),
    ]

    @Test(arguments: cases)
    func onDemandTilesAreTheBytesTegulaTileWritesInThatFormat(c: Case) throws {
        let dir = try TemporaryFolder.make("cli-serve-fmt")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try BlueMarble.georeferenced(in: dir)
        let folder = dir.appendingPathComponent("cut").path
        let r = try TegulaBinary.run(["tile", input, "-o", folder, "--zoom", "0-3", "--quiet"] + c.tile)
        #expect(r.status == 0, "\(r.stderr)")
        var path: String
        if let tile = c.pipelineTile {
            path = dir.appendingPathComponent("maps.yml").path
            try "version: 1\nmaps:\n  - name: scan\n    input: \(input)\n    tile: {min_zoom: 0, max_zoom: 3, \(tile)}\n    output: out\n"
                .write(toFile: path, atomically: true, encoding: .utf8)
        } else {
            path = input
        }
        let id = c.pipelineTile == nil ? ((input as NSString).lastPathComponent as NSString).deletingPathExtension : "scan"
        let server = try LocalHTTPServer.tegula(["serve", path] + c.serve)
        defer { server.stop() }
        let types = ["png": "image/png", "jpg": "image/jpeg", "webp": "image/webp"]
        var compared: [String: Int] = [:]
        for x in stride(from: 0, to: 8, by: 3) {
            for y in stride(from: 0, to: 8, by: 3) {
                let got = try server.get("/\(id)/3/\(x)/\(y).\(c.templateExtension)")
                let file = ["png", "jpg", "webp"].first { FileManager.default.fileExists(atPath: "\(folder)/3/\(x)/\(y).\($0)") }
                if let file, let expected = FileManager.default.contents(atPath: "\(folder)/3/\(x)/\(y).\(file)") {
                    #expect(got.status == 200 && got.body == expected, "3/\(x)/\(y): \(got.status), \(got.body.count) vs \(expected.count) bytes")
                    #expect(got.headers["content-type"] == types[file], "3/\(x)/\(y).\(file): \(got.headers["content-type"] ?? "none")")
                    compared[file, default: 0] += 1
                } else {
                    #expect(got.status == 404, "3/\(x)/\(y) is empty in the pyramid")
                }
            }
        }
        #expect(compared.values.reduce(0, +) > 5, "\(compared)")
        if c.tile.contains("auto") { #expect(compared.count == 2, "auto serves both its lossy tiles and PNG: \(compared)") }
        let tj = try JSONSerialization.jsonObject(with: try server.get("/\(id).json").body) as? [String: Any]
        let url = (tj?["tiles"] as? [String])?.first ?? ""
        #expect(url.contains("/\(id)/{z}/{x}/{y}.\(c.templateExtension)?v="), "\(url)")
    }

    @Test(arguments: [
        (["--quality", "80"], "--quality needs --format"),
        (["--auto-lossy", "webp"], "--auto-lossy needs --format"),
        (["--format", "png", "--quality", "80"], "quality applies to jpg, webp and auto, not png"),
        (["--format", "webp", "--quality", "0"], "quality 0 is out of range; expected 1–100"),
        (["--format", "webp", "--auto-lossy", "webp"], "auto-lossy applies to format auto only, not webp"),
        (["--format", "auto", "--auto-lossy", "gif"], "gif"),
    ])
    func badFormatOptionsAreRefusedInOneLine(args: [String], message: String) throws {
        let r = try TegulaBinary.run(["serve", BlueMarble.path, "--port", "0"] + args)
        #expect(r.status != 0)
        #expect(r.stderr.contains(message), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").filter { $0.contains("rror") }.count == 1, "\(r.stderr)")
    }
}
