import Foundation
import TegulaGeoreference
import Testing

@testable import TegulaPipeline

/// `maps_from:` (sheet lists and globs), `map_defaults:` and output patterns: what they expand
/// to, and errors that name the sheet list's row or the matching scan.
struct CollectionTests {
    /// Three 128 × 64 scans `scans/s1.tif`… with GCP files `gcps/s1.csv`… (x,y,lon,lat: a plate
    /// carrée box per scan).
    func collection(_ f: PipelineFixtures, count: Int = 3) throws {
        try FileManager.default.createDirectory(atPath: f.folder + "/scans", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: f.folder + "/gcps", withIntermediateDirectories: true)
        for i in 1...count {
            try f.image("scans/s\(i).tif", seed: UInt8(i * 40))
            let w = Double(i * 10), e = w + 20
            try "x,y,lon,lat\n0,0,\(w),30\n128,0,\(e),30\n0,64,\(w),20\n128,64,\(e),20\n"
                .write(toFile: f.folder + "/gcps/s\(i).csv", atomically: true, encoding: .utf8)
        }
    }

    @Test func sheetListWithDefaultsAndOutputPattern() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try collection(f)
        try FileManager.default.createDirectory(atPath: f.folder + "/list", withIntermediateDirectories: true)
        // Paths in a sheet list resolve against its own folder; a quoted field may hold a comma.
        try "name,input,gcps,transform\ns1,../scans/s1.tif,../gcps/s1.csv,\n\"s-2\",../scans/s2.tif,../gcps/s2.csv,helmert\n"
            .write(toFile: f.folder + "/list/sheets.csv", atomically: true, encoding: .utf8)
        let path = try f.pipeline(
            """
            version: 1
            maps:
              - name: own
                input: scans/s3.tif
                georeference: {gcps: gcps/s3.csv}
                tile: {max_zoom: 3}
                output: out/own-{stem}.mbtiles
            maps_from: list/sheets.csv
            map_defaults:
              georeference: {transform: polynomial1}
              tile: {min_zoom: 1, max_zoom: 2}
              output: out/{name}.pmtiles
            """)
        let p = try Pipeline.load(path: path)
        #expect(p.spec.maps.map(\.name) == ["own", "s1", "s-2"])
        let own = p.spec.maps[0], s1 = p.spec.maps[1], s2 = p.spec.maps[2]
        #expect(own.output == f.folder + "/out/own-s3.mbtiles")
        #expect(own.tile.settings.zooms.max == 3 && own.tile.settings.zooms.min == 1)  // own key wins, default fills the rest
        #expect(own.georeference?.transform == .polynomial1)
        #expect(s1.input == f.folder + "/scans/s1.tif")
        #expect(s1.georeference?.gcps == .file(f.folder + "/gcps/s1.csv"))
        #expect(s1.georeference?.transform == .polynomial1)
        #expect(s2.georeference?.transform == .helmert)  // the row's column wins
        #expect(s2.output == f.folder + "/out/s-2.pmtiles")
        #expect(s2.tile.settings.zooms.max == 2)
    }

    @Test func globWithGCPPattern() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try collection(f)
        let path = try f.pipeline(
            """
            version: 1
            maps_from: {glob: "scans/*.tif", gcps: "gcps/{stem}.csv"}
            map_defaults: {output: "out/{name}", tile: {max_zoom: 2}}
            """)
        let p = try Pipeline.load(path: path)
        #expect(p.spec.maps.map(\.name) == ["s1", "s2", "s3"])
        #expect(p.spec.maps.map(\.output) == ["s1", "s2", "s3"].map { f.folder + "/out/\($0)" })
        #expect(p.spec.maps[2].georeference?.gcps == .file(f.folder + "/gcps/s3.csv"))
        // A missing GCP file names the scan that matched.
        try FileManager.default.removeItem(atPath: f.folder + "/gcps/s2.csv")
        let e = try f.loadError("version: 1\nmaps_from: {glob: \"scans/*.tif\", gcps: \"gcps/{stem}.csv\"}\nmap_defaults: {output: \"out/{name}\"}\n")
        #expect(e.contains("bad.yml:2:40: maps_from.gcps: \(f.folder)/scans/s2.tif: GCP file \(f.folder)/gcps/s2.csv does not exist"), "\(e)")
        let none = try f.loadError("version: 1\nmaps_from: {glob: \"nothing/*.tif\", gcps: \"gcps/{stem}.csv\"}\n")
        #expect(none.contains("maps_from.glob: 'nothing/*.tif' matches no file"), "\(none)")
        let noWildcard = try f.loadError("version: 1\nmaps_from: {glob: scans/s1.tif, gcps: \"gcps/{stem}.csv\"}\n")
        #expect(noWildcard.contains("maps_from.glob: 'scans/s1.tif' has no wildcard"), "\(noWildcard)")
    }

    @Test func sheetListErrorsNameTheRow() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try collection(f)
        let csv = f.folder + "/sheets.csv"
        func error(_ text: String, defaults: String = "map_defaults: {output: \"out/{name}\"}\n") throws -> String {
            try text.write(toFile: csv, atomically: true, encoding: .utf8)
            return try f.loadError("version: 1\nmaps_from: sheets.csv\n" + defaults)
        }
        #expect(try error("name,input\ns1,scans/s1.tif\n").contains("sheets.csv:1:1: the header lacks column 'gcps'"))
        #expect(try error("name,input,gcps,transfrom\n").contains("sheets.csv:1:17: unknown column 'transfrom'; did you mean 'transform'?"))
        #expect(try error("name,input,gcps\n").contains("sheets.csv:2: the sheet list has a header but no rows"))
        let twoRows = "name,input,gcps,transform\ns1,scans/s1.tif,gcps/s1.csv,\ns2,scans/s2.tif,gcps/s2.csv,polynomal1\n"
        let bad = try error(twoRows)
        #expect(bad.contains("sheets.csv:3:29: transform: map 's2': 'polynomal1' is not a transform"), "\(bad)")
        let missing = try error("name,input,gcps\ns1,scans/s1.tif,gcps/s1.csv\ns2,scans/nothere.tif,gcps/s2.csv\n")
        #expect(missing.contains("sheets.csv:3:4: input: map 's2': input scan \(f.folder)/scans/nothere.tif does not exist"), "\(missing)")
        let fields = try error("name,input,gcps\ns1,scans/s1.tif\n")
        #expect(fields.contains("sheets.csv:2:1: 2 fields where the header has 3"), "\(fields)")
        let dup = try error("name,input,gcps\ns1,scans/s1.tif,gcps/s1.csv\ns1,scans/s2.tif,gcps/s2.csv\n")
        #expect(dup.contains("sheets.csv:3:1: name: map 's1': a second map named 's1' (the first is sheets.csv:2)"), "\(dup)")
        let quote = try error("name,input,gcps\ns1,\"scans/s1.tif,gcps/s1.csv\n")
        #expect(quote.contains("sheets.csv:2:4: a quoted field is never closed"), "\(quote)")
        // An error in a default names the place in map_defaults and the map it was merged into.
        let d = try error(
            "name,input,gcps\ns1,scans/s1.tif,gcps/s1.csv\n",
            defaults: "map_defaults:\n  output: out/{name}\n  georeference: {fit_srs: EPSG:99999}\n")
        #expect(d.contains("bad.yml:5:27: map_defaults.georeference.fit_srs:"), "\(d)")
        #expect(d.contains("(for map 's1', sheets.csv:2)"), "\(d)")
    }

    @Test func defaultsAreStrictAndPatternsChecked() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try collection(f)
        let head = "version: 1\nmaps:\n  - {name: a, input: scans/s1.tif, georeference: {gcps: gcps/s1.csv}}\n"
        #expect(
            try f.loadError(head + "map_defaults: {tile: {formt: png}, output: o}\n")
                .contains(":4:23: map_defaults.tile.formt: unknown key 'formt'; did you mean 'format'?"))
        #expect(
            try f.loadError(head + "map_defaults: {input: x.tif}\n")
                .contains(":4:16: map_defaults.input: unknown key 'input'; known keys: georeference, warp, tile, output, remove_color"))
        #expect(
            try f.loadError(head + "map_defaults: {output: \"out/{nmae}\"}\n")
                .contains("map_defaults.output: 'out/{nmae}': unknown placeholder {nmae}; did you mean {name}?"))
        #expect(
            try f.loadError(head + "map_defaults: {georeference: {transfrom: tps}}\n")
                .contains("map_defaults.georeference.transfrom: unknown key 'transfrom'; did you mean 'transform'?"))
        // Without a placeholder every map would write the same output.
        let same = try f.loadError("version: 1\nmaps_from: {glob: \"scans/*.tif\", gcps: \"gcps/{stem}.csv\"}\nmap_defaults: {output: out/all}\n")
        #expect(
            same.contains(
                "bad.yml:3:24: map_defaults.output: \(f.folder)/out/all is also the output of map 's1' (for map 's2', \(f.folder)/scans/s2.tif)"),
            "\(same)")
        #expect(try f.loadError("version: 1\nwork: w\n").contains("missing required key 'maps'"))
    }

    @Test func mapWithoutGeoreferenceTakesNoGeoreferenceDefaults() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try collection(f)
        let path = try f.pipeline(
            """
            version: 1
            maps:
              - {name: a, input: scans/s1.tif, georeference: {bounds: [0, 0, 10, 10]}}
              - {name: b, input: scans/s2.tif}
            map_defaults:
              georeference: {srs: "EPSG:4326"}
              output: out/{name}
            """)
        let p = try Pipeline.load(path: path)
        #expect(p.spec.maps[0].georeference?.srs == .wgs84)
        #expect(p.spec.maps[1].georeference == nil)
    }

    @Test func csvFieldsFollowRFC4180() throws {
        let recs = try CSVTable.parse("a,\"b,c\",\"say \"\"hi\"\"\"\r\nx,,z\n", path: "t.csv")
        #expect(recs.map { $0.fields.map(\.text) } == [["a", "b,c", "say \"hi\""], ["x", "", "z"]])
        #expect(recs[1].line == 2 && recs[0].fields[2].column == 9)
        #expect(try PathPattern("out/{name}-{stem}.pmtiles").expand(name: "n", stem: "s") == "out/n-s.pmtiles")
    }
}
