import Foundation
import TegulaGeometry
import TegulaTestSupport
import Testing

/// `TileMatrixSet(argument:)`, the one parser of `--tms NAME|FILE.json`: the names it takes are
/// the ones morecantile 7.1.0's `tms.get` takes (case-sensitive), a file is a TMS 2.0 document such
/// as morecantile writes, and anything else is refused in one line that lists the names.
struct TileMatrixSetArgumentTests {
    /// morecantile's names, one a line, and for each whether `tms.get` takes it in lower case.
    static func morecantileNames() throws -> [(name: String, lowerCaseTaken: Bool)] {
        let script = """
            import morecantile
            for n in sorted(morecantile.tms.list()):
                try:
                    morecantile.tms.get(n.lower()); low = 1
                except Exception:
                    low = 0
                print(n, low)
            """
        let r = try ProgramRun.run("python3", ["-c", script])
        #expect(r.status == 0, "morecantile failed: \(r.stderr.suffix(600))")
        return r.stdout.split(separator: "\n").map { line in
            let v = line.split(separator: " ")
            return (String(v[0]), v[1] == "1")
        }
    }

    @Test func everyNameMorecantileTakesIsTakenCaseSensitively() throws {
        let names = try Self.morecantileNames()
        #expect(names.map(\.name) == TileMatrixSet.builtInNames)
        for (name, lowerCaseTaken) in names {
            #expect(try TileMatrixSet(argument: name).id == name)
            let taken = (try? TileMatrixSet(argument: name.lowercased())) != nil
            #expect(taken == lowerCaseTaken, "\(name.lowercased()): morecantile takes it: \(lowerCaseTaken)")
        }
        #expect(try TileMatrixSet(argument: "WebMercatorQuad") == TileMatrixSet.webMercatorQuad)
    }

    @Test func aFileIsReadAsTheDocumentMorecantileWrote() throws {
        let folder = try TemporaryFolder.make("tms-argument")
        let path = folder.appendingPathComponent("bng.json").path
        let script = """
            import sys, pyproj, morecantile
            t = morecantile.TileMatrixSet.custom([-238375.0, 0.0, 900000.0, 1376256.0], pyproj.CRS.from_epsg(27700), id='BNG', maxzoom=5)
            open(sys.argv[1], 'w').write(t.model_dump_json(exclude_none=True))
            """
        let r = try ProgramRun.run("python3", ["-c", script, path])
        #expect(r.status == 0, "morecantile failed: \(r.stderr.suffix(600))")
        let tms = try TileMatrixSet(argument: path)
        #expect(tms.id == "BNG")
        #expect(tms.crs == "http://www.opengis.net/def/crs/EPSG/0/27700")
        #expect(tms.zooms == 0...5)
        #expect(try tms.matrix(zoom: 5).pointOfOrigin == [-238375.0, 1376256.0])
    }

    @Test func aNameThatIsNeitherIsRefusedListingTheNames() throws {
        let failure = #expect(throws: TileMatrixSet.Failure.self) { try TileMatrixSet(argument: "webmercatorquad") }
        #expect(failure?.reason == .unknownName)
        let line = failure?.description ?? ""
        #expect(line.hasPrefix("'webmercatorquad' is neither a built-in tile matrix set (ids are case-sensitive: WebMercatorQuad?)"))
        #expect(!line.contains("\n"))
        for name in TileMatrixSet.builtInNames { #expect(line.contains(name)) }
        #expect(line.hasSuffix("or the path of a TMS 2.0 JSON file"))
    }

    @Test func aFileThatIsNoSetIsRefusedNamingIt() throws {
        let folder = try TemporaryFolder.make("tms-argument")
        let path = folder.appendingPathComponent("not-a-tms.json").path
        try Data(#"{"id": "X", "tileMatrices": []}"#.utf8).write(to: URL(fileURLWithPath: path))
        let malformed = #expect(throws: TileMatrixSet.Failure.self) { try TileMatrixSet(argument: path) }
        #expect(malformed?.reason == .malformed)
        #expect(malformed?.description.hasPrefix("\(path): not a TMS 2.0 tile matrix set (no 'crs')") == true, "\(malformed?.description ?? "")")
        let folderItself = #expect(throws: TileMatrixSet.Failure.self) { try TileMatrixSet(argument: folder.path) }
        #expect(folderItself?.reason == .unreadableFile)
        #expect(folderItself?.description.hasPrefix("\(folder.path): cannot be read") == true, "\(folderItself?.description ?? "")")
    }
}
