import Foundation
import TegulaTestSupport
import Testing

/// `tegula georef --write-gcps` in every GCP form, each read back by `tegula transform` to the
/// same fit; a GCP file that could be read two ways is one line and writes nothing (issue 45
/// item 1).
@Suite(.timeLimit(.minutes(20)))
struct GCPFileFormsCLITests {
    static let forms = [("qgis", "points"), ("csv", "csv"), ("gdal", "txt"), ("arcgis-csv", "csv"), ("arcgis-tsv", "txt"), ("allmaps", "json")]

    @Test func georefWritesEveryGCPFormAndEachReadsBackToTheSameFit() throws {
        let dir = try TemporaryFolder.make("cli-gcp-forms")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (scan, points) = try GeorefCLITests.smallSchagen(in: dir)
        let probes = "0 0\n270.5 135.25\n540 270\n-20 300\n"
        let original = try TegulaBinary.run(["transform", "--gcps", points, "--transform", "polynomial2", "--image", scan], stdin: probes)
        #expect(original.status == 0 && original.stdout.split(separator: "\n").count == 4, "\(original.stderr)")
        for (form, ext) in Self.forms {
            let file = dir.appendingPathComponent("gcps-\(form).\(ext)").path
            let r = try TegulaBinary.run([
                "georef", scan, "--gcps", points, "--transform", "polynomial2", "-o", dir.appendingPathComponent("geo-\(form).vrt").path,
                "--write-gcps", file, "--write-gcps-format", form,
            ])
            #expect(r.status == 0, "\(form): \(r.stderr)")
            #expect(FileManager.default.fileExists(atPath: file + ".fit") == (form != "allmaps"), "\(form)")
            let back = try TegulaBinary.run(["transform", "--gcps", file, "--image", scan], stdin: probes)
            #expect(back.status == 0 && back.stdout == original.stdout, "\(form): \(back.stdout) vs \(original.stdout) \(back.stderr)")
        }
        // The extension names the form when --write-gcps-format does not: .txt is GDAL text.
        let txt = dir.appendingPathComponent("by-name.txt").path
        let r = try TegulaBinary.run(["georef", scan, "--gcps", points, "-o", dir.appendingPathComponent("by-name.vrt").path, "--write-gcps", txt])
        #expect(r.status == 0, "\(r.stderr)")
        let first = try String(contentsOfFile: txt, encoding: .utf8).split(separator: "\n").first.map(String.init)
        #expect(first == "257.4 81.6 -5.6 35.97", "\(String(describing: first))")
    }

    @Test func aGCPFileThatCouldBeReadTwoWaysIsOneLineAndWritesNothing() throws {
        let dir = try TemporaryFolder.make("cli-gcp-forms")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (scan, _) = try GeorefCLITests.smallSchagen(in: dir)
        let gcps = dir.appendingPathComponent("tabs.txt").path
        try Data("257.4\t81.6\t-5.6\t35.97\n254.4\t79.6\t-8.99\t37.02\n400\t100\t10\t40\n".utf8).write(to: URL(fileURLWithPath: gcps))
        let before = try GeorefCLITests.files(dir)
        let r = try TegulaBinary.run([
            "georef", scan, "--gcps", gcps, "-o", dir.appendingPathComponent("o.vrt").path,
            "--write-gcps", dir.appendingPathComponent("w.points").path,
        ])
        #expect(r.status != 0)
        #expect(
            r.stderr.split(separator: "\n").count == 1 && r.stderr.hasPrefix("tegula: \(gcps): ")
                && r.stderr.contains("could be read two ways") && r.stderr.contains("GDAL text") && r.stderr.contains("ArcGIS TSV"), "\(r.stderr)")
        #expect(try GeorefCLITests.files(dir) == before)
        let unnamed = try TegulaBinary.run([
            "georef", scan, "--gcps", gcps, "-o", dir.appendingPathComponent("o.vrt").path,
            "--write-gcps", dir.appendingPathComponent("w.dat").path,
        ])
        #expect(unnamed.status != 0 && unnamed.stderr.contains("which GCP format?") && unnamed.stderr.contains("arcgis-tsv"), "\(unnamed.stderr)")
    }
}
