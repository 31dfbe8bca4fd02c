import Foundation
import TegulaTestSupport
import Testing

/// `tegula match` run as a user runs it on pairs that do not show the same map: a noise image, a
/// blank sheet of paper, and another part of the same sheet in the same engraver's hand, each a
/// GeoTIFF georeferenced by GDAL. Each is refused with exit 3, one line, and nothing at `-o`.
@Suite(.timeLimit(.minutes(20))) struct MatchCommandRefusalTests {
    /// The unrelated references, by name.
    static let references = ["noise", "blank", "another-part-of-the-sheet"]

    @Test("a reference of another picture exits 3 with one line and writes nothing", arguments: references)
    func anUnrelatedReferenceExitsThreeAndWritesNothing(_ name: String) throws {
        let folder = try TemporaryFolder.make("match-cli-refused")
        let out = folder.appendingPathComponent("proposed.points").path
        let run = try ProgramRun.run(
            try BuiltTegula.path(), ["match", try Self.westOfTheSheet(in: folder), "--reference", try Self.reference(name, in: folder), "-o", out])
        #expect(run.status == 3, "\(name): \(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains("no match"), "\(name): \(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out), "\(name): \(out) was written")
    }

    @Test func anExistingOutputIsLeftUntouchedWhenThePairDoesNotMatch() throws {
        let folder = try TemporaryFolder.make("match-cli-refused-kept")
        let out = folder.appendingPathComponent("proposed.points").path
        let kept = Data("#CRS: EPSG:3857\nmapX,mapY,sourceX,sourceY,enable,dX,dY,residual\n1,2,3,-4,1,0,0,0\n".utf8)
        try kept.write(to: URL(fileURLWithPath: out))
        let run = try ProgramRun.run(
            try BuiltTegula.path(), ["match", try Self.westOfTheSheet(in: folder), "--reference", try Self.reference("noise", in: folder), "-o", out])
        #expect(run.status == 3, "\(run.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == kept, "the existing \(out) was changed")
    }

    /// The scan: the west 1200 × 1350 pixels of the 1689 sheet.
    static func westOfTheSheet(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("west.tif").path
        try ProgramRun.output("gdal_translate", ["-q", "-srcwin", "0", "0", "1200", "1350", Schagen1689.scan, path])
        return path
    }

    /// The reference `name`, 800 × 600 pixels (the sheet's part: 1200 × 1350), given a
    /// geotransform in EPSG:3857 by `gdal_translate -a_ullr -a_srs`.
    static func reference(_ name: String, in folder: URL) throws -> String {
        let source: String
        var window: [String] = []
        switch name {
        case "noise": source = try MatchFixtures.flat("noise", width: 800, height: 600, in: folder)
        case "blank": source = try MatchFixtures.flat("blank", width: 800, height: 600, value: 236, in: folder)
        default:
            // The sheet's east, which the west does not overlap: lettering and hatching alike.
            source = Schagen1689.scan
            window = ["-srcwin", "1500", "0", "1200", "1350"]
        }
        let path = folder.appendingPathComponent(name + ".tif").path
        try ProgramRun.output(
            "gdal_translate", ["-q"] + window + ["-a_srs", "EPSG:3857", "-a_ullr", "400000", "7100000", "520000", "7010000", source, path])
        return path
    }
}
