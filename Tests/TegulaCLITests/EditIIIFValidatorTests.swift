import Foundation
import TegulaTestSupport
import Testing

/// The editors' `/iiif/` services through the official IIIF Image API validator (PyPI
/// `iiif-validator`, `iiif-validate.py --version=3.0 --level 1`), as `tegula serve`'s is in
/// `IIIFServeCLITests`: the scan editor's (`tegula edit SCAN`) and the tie editor's, which serves
/// each sheet of a pipeline by its map name (`tegula edit PIPELINE --map A --tie-with B`). The
/// validator's own test image (`IIIFServeCLITests.writeValidatorImage`) is the scan.
@Suite(.timeLimit(.minutes(20)))
struct EditIIIFValidatorTests {
    /// Runs the validator against `server` for image `id`; the report, after checking that all
    /// 24 level-1 tests ran and passed (iiif-validator 1.0.5's count, as for `tegula serve`).
    static func validate(_ server: LocalHTTPServer, id: String) throws -> String {
        let run = try ProgramRun.run(
            "iiif-validate.py",
            [
                "-s", "127.0.0.1:\(server.port)", "-p", "iiif", "-i", id,
                "--version=3.0", "--level", "1",
            ])
        let report = run.stdout + run.stderr
        #expect(run.status == 0, "the validator failed:\n\(report)")
        #expect(report.contains("Done (24 tests, 0 failures)"), "\(report)")
        #expect(report.components(separatedBy: "\n").filter { $0.hasSuffix(" PASS") }.count == 24, "\(report)")
        return report
    }

    @Test func theOfficialValidatorPassesAtLevelOneAgainstTheScanEditorsIIIFService() throws {
        let dir = try TemporaryFolder.make("edit-iiif-validator")
        defer { try? FileManager.default.removeItem(at: dir) }
        let id = IIIFServeCLITests.validatorID
        let image = dir.appendingPathComponent("\(id).tif").path
        try IIIFServeCLITests.writeValidatorImage(image)
        let server = try LocalHTTPServer.tegula([
            "edit", image, "-o", dir.appendingPathComponent("squares.points").path,
            "--render-threads", "2",
        ])
        defer { server.stop() }
        let info = try JSONSerialization.jsonObject(with: try server.get("/iiif/\(id)/info.json").body) as? [String: Any]
        #expect(info?["id"] as? String == "\(server.base)/iiif/\(id)" && info?["width"] as? Int == 1000, "\(info ?? [:])")
        _ = try Self.validate(server, id: id)
    }

    @Test func theOfficialValidatorPassesAtLevelOneAgainstTheTieEditorsIIIFServiceOfASheet() throws {
        let dir = try TemporaryFolder.make("edit-ties-iiif-validator")
        defer { try? FileManager.default.removeItem(at: dir) }
        let series = try MadeSeries.make(in: dir.appendingPathComponent("series").path, cols: 2, rows: 1, cell: 128)
        // Sheet r1c2's scan becomes the validator's image (1000 px a side, larger than the sheet's
        // 172, so its GCPs and ties stay inside); the tie editor serves it as /iiif/r1c2.
        let scan = dir.appendingPathComponent("series/scans/r1c2.tif").path
        try FileManager.default.removeItem(atPath: scan)
        try IIIFServeCLITests.writeValidatorImage(scan)
        let server = try LocalHTTPServer.tegula(["edit", series, "--map", "r1c1", "--tie-with", "r1c2", "--render-threads", "2"])
        defer { server.stop() }
        let info = try JSONSerialization.jsonObject(with: try server.get("/iiif/r1c2/info.json").body) as? [String: Any]
        #expect(info?["id"] as? String == "\(server.base)/iiif/r1c2" && info?["width"] as? Int == 1000, "\(info ?? [:])")
        _ = try Self.validate(server, id: "r1c2")
    }
}
