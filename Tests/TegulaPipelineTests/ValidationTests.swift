import Foundation
import TegulaTileset
import Testing

@testable import TegulaPipeline

/// Bad pipeline files: each error names file:line:column, the key path and what would be right.
struct ValidationTests {
    @Test func unknownKeyGetsSuggestionAndPlace() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("world.tif")
        let e = try f.loadError(
            """
            version: 1
            maps:
              - name: world
                input: world.tif
                georeference: {bounds: [-180, -85, 180, 85]}
                tile:
                  max_zoom: 1
                  formt: png
                output: out/world
            """)
        #expect(e.hasSuffix("bad.yml:8:7: maps[0].tile.formt: unknown key 'formt'; did you mean 'format'?"), "\(e)")
    }

    /// "Billion laughs": nine anchors, each a list of ten aliases of the one before (10^9 values
    /// from 600 bytes), where the loader walks values before checking them. Before the cap this
    /// hung `tegula run --dry-run` (killed after 60 s); now one line at the anchor that adds most.
    @Test func yamlAliasBombIsRefusedBeforeExpanding() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        var anchors = [#"&a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]"#]
        for i in 1...9 { anchors.append("&a\(i) [" + Array(repeating: "*a\(i - 1)", count: 10).joined(separator: ",") + "]") }
        let e = try f.loadError(
            """
            version: 1
            map_defaults:
              georeference:
                mask: [\(anchors.joined(separator: ", "))]
            maps:
              - name: x
                input: x.tif
                output: out
            """)
        // At `&a8`, whose ten copies in a9 add the most; 38 values written, 1 + Σ(10^(i+2) − 1)/9 + 17 expanded.
        let a8 = anchors.prefix(8).map { $0.utf8.count + 2 }.reduce(12, +)
        #expect(
            e.hasSuffix(
                "bad.yml:4:\(a8): its aliases (*name) would expand 38 written values to 12345679028, more than "
                    + "the 1000000 that aliases may add (a YAML alias bomb?); refused before expanding them: write "
                    + "the values out, or share them through map_defaults"), "\(e)")
    }

    /// Anchors and aliases within the budget load as if written out.
    @Test func sharedAnchorsStillLoad() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("a.tif")
        try f.image("b.tif")
        let p = try Pipeline.load(
            path: try f.pipeline(
                """
                version: 1
                maps:
                  - name: a
                    input: a.tif
                    georeference: &world {bounds: [-180, -85, 180, 85]}
                    tile: &zooms {min_zoom: 0, max_zoom: 1}
                    output: out/a
                  - name: b
                    input: b.tif
                    georeference: *world
                    tile: *zooms
                    output: out/b
                """))
        #expect(p.spec.maps.map(\.tile.settings.zooms.max) == [1, 1])
        let c = AliasBudget.count(p.document.root)
        #expect(c.expanded - c.written == 7 + 5)  // the bounds mapping (key, list, 4 numbers) and the zooms (2 pairs)
    }

    @Test func camelCaseKeySuggestsSnakeCase() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        let e = try f.loadError("version: 1\nmaps:\n  - name: a\n    input: a.tif\n    tile: {tileSize: 512}\n    output: o\n")
        #expect(e.contains(":5:12: maps[0].tile.tileSize: unknown key 'tileSize'; did you mean 'tile_size'?"), "\(e)")
    }

    @Test func unknownKeyWithoutNeighbourListsKnownKeys() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        let e = try f.loadError("version: 1\ncolour: red\nmaps: []\n")
        #expect(e.contains(":2:1: colour: unknown key 'colour'; known keys: version, work, maps, maps_from, map_defaults, composite"), "\(e)")
    }

    @Test func yamlSyntaxErrorHasLine() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        let e = try f.loadError("version: 1\nmaps:\n  - name: a\n    input: [x\n    output: o\n")
        #expect(e.contains("bad.yml:5:"), "\(e)")
        #expect(e.contains("invalid YAML"), "\(e)")
    }

    @Test func duplicateKeyAndWrongShape() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        #expect(try f.loadError("version: 1\nmaps:\n  - name: a\n    name: b\n").contains("bad.yml:3:5: invalid YAML: duplicate key 'name'"))
        #expect(try f.loadError("- a\n- b\n").contains("bad.yml:1:1: expected a mapping (key: value lines), found a list"))
        #expect(try f.loadError("version: 1\nmaps: 5\n").contains("bad.yml:2:7: maps: expected a list, found '5'"))
        #expect(try f.loadError("").contains("the file is empty"))
    }

    @Test func missingFileNamedWithResolvedPath() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        let e = try f.loadError("version: 1\nmaps:\n  - name: a\n    input: scans/nothere.jpg\n    output: o\n")
        #expect(e.contains(":4:12: maps[0].input: input scan \(f.folder)/scans/nothere.jpg does not exist"), "\(e)")
    }

    @Test func missingGCPFileNamed() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("a.tif")
        let e = try f.loadError("version: 1\nmaps:\n  - name: a\n    input: a.tif\n    georeference:\n      gcps: a.points\n    output: o\n")
        #expect(e.contains(":6:13: maps[0].georeference.gcps: GCP file \(f.folder)/a.points does not exist"), "\(e)")
    }

    /// Seen failing before: `gcps: ~` read as the file ~ (the home folder), `gcps: ""` as the
    /// pipeline's folder, `gcps: None` as a file named None.
    @Test(arguments: ["~", "null", "\"\"", "None"])
    func anEmptyOrNullGCPsValueIsRefusedSayingWhatToWrite(value: String) throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("a.tif")
        let e = try f.loadError("version: 1\nmaps:\n  - name: a\n    input: a.tif\n    georeference:\n      gcps: \(value)\n    output: o\n")
        #expect(e.contains(":6:") && e.contains("maps[0].georeference.gcps: "), "\(e)")
        #expect(e.contains(value == "None" ? "did you mean none" : "no GCP file given"), "\(e)")
        #expect(!e.contains("does not exist") && !e.contains("\n"), "\(e)")
    }

    /// A distortion is largest over smallest scale: a limit under 1 fails every sheet.
    @Test func aMaxDistortionUnderOneIsRefused() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("a.tif")
        let e = try f.loadError(
            "version: 1\nquality: {max_distortion: 0.5}\nmaps:\n  - name: a\n    input: a.tif\n    georeference: {bounds: [0, 0, 1, 1]}\n    output: o\n"
        )
        #expect(e.contains(":2:") && e.contains("quality.max_distortion: 0.5 is not a limit: give a number ≥ 1"), "\(e)")
    }

    /// Seen failing before: a weight of -5 passed the load's checks (with `ties: auto` every
    /// overlap was matched first) and was refused by the fit, at the `ties:` line.
    @Test func aTieWeightThatIsNotPositiveIsRefusedAtItsOwnKey() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("world.tif")
        let e = try f.loadError("version: 1\ntie_weight: -5\nmaps:\n" + PipelineFixtures.worldMap())
        #expect(e.contains(":2:13: tie_weight: -5.0 is not a tie weight: give a number > 0"), "\(e)")
    }

    /// `ties: {auto: true}` reads as `ties: auto`; `{auto: false}` is refused, saying what to do.
    @Test func tiesAutoTrueIsAutoAndFalseIsRefused() throws {
        func spec(_ ties: String) throws -> PipelineSpec {
            try PipelineDocument(path: "t.yml", text: "version: 1\nties: \(ties)\nmaps:\n" + PipelineFixtures.worldMap())
                .decode(Strict<PipelineSpec>.self).value
        }
        #expect(try spec("{auto: true}").autoTies == AutoTiesSpec())
        let e = #expect(throws: PipelineError.self) { try spec("{auto: false}") }
        #expect(e?.description.contains("ties.auto: auto: false finds no ties; leave ties: out") == true, "\(e?.description ?? "")")
    }

    /// A composite's or a map's key at the top level says where it belongs (seen failing before:
    /// "unknown key 'tone'; known keys: version, work, …").
    @Test func aKeyOfAnotherSectionAtTheTopLevelSaysWhereItBelongs() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("world.tif")
        let tone = try f.loadError("version: 1\ntone: match\ncomposite: {output: all.pmtiles}\nmaps:\n" + PipelineFixtures.worldMap())
        #expect(tone.contains(":2:1: tone: unknown key 'tone'; 'tone' belongs to the composite: write it under composite:"), "\(tone)")
        let input = try f.loadError("version: 1\ninput: world.tif\nmaps:\n" + PipelineFixtures.worldMap())
        #expect(input.contains("unknown key 'input'; 'input' belongs to a map"), "\(input)")
    }

    /// Seen failing before: "expected an integer, found '16'" for `max_zoom: "16"`.
    @Test func aQuotedNumberIsSaidToBeQuotedText() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("a.tif")
        let e = try f.loadError("version: 1\nmaps:\n  - name: a\n    input: a.tif\n    tile: {max_zoom: \"16\"}\n    output: o\n")
        #expect(e.contains("maps[0].tile.max_zoom: expected an integer, found the quoted text '16' (a number without the quotes)"), "\(e)")
    }

    @Test func wrongTypeSaysWhatWasExpected() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("a.tif")
        let e = try f.loadError("version: 1\nmaps:\n  - name: a\n    input: a.tif\n    tile: {max_zoom: two}\n    output: o\n")
        #expect(e.contains(":5:22: maps[0].tile.max_zoom: expected an integer, found 'two'"), "\(e)")
    }

    @Test func badEnumValueListsAccepted() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("a.tif")
        let e = try f.loadError("version: 1\nmaps:\n  - name: a\n    input: a.tif\n    warp: {resampling: bicubic}\n    output: o\n")
        #expect(
            e.contains("maps[0].warp.resampling: 'bicubic' is not a resampling kernel; expected one of near, bilinear, cubic, lanczos, average"),
            "\(e)")
    }

    /// `tile.auto_lossy` is read (jpeg, jpg or webp) into the map's tile options, and refused in
    /// one line for a format other than auto or a name it does not know.
    @Test func autoLossyOnlyWithFormatAuto() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("a.tif")
        let ok = try Pipeline.load(
            path: try f.pipeline(
                "version: 1\nmaps:\n  - name: a\n    input: a.tif\n    georeference: {bounds: [-180, -85, 180, 85]}\n    tile: {format: auto, auto_lossy: webp, quality: 70}\n    output: o\n",
                name: "ok.yml"))
        #expect(ok.spec.maps[0].tile.settings.encoding.autoLossy == .webp && ok.spec.maps[0].tile.settings.encoding.quality == 70)
        let png = try f.loadError("version: 1\nmaps:\n  - name: a\n    input: a.tif\n    tile: {format: png, auto_lossy: webp}\n    output: o\n")
        #expect(png.contains("maps[0].tile.auto_lossy: auto-lossy applies to format auto only, not png"), "\(png)")
        let gif = try f.loadError("version: 1\nmaps:\n  - name: a\n    input: a.tif\n    tile: {format: auto, auto_lossy: gif}\n    output: o\n")
        #expect(gif.contains("maps[0].tile.auto_lossy: 'gif' is not a lossy format for auto; expected one of jpeg, webp"), "\(gif)")
    }

    /// `tile.webp_effort` is read into the map's tile options, and refused
    /// in one line out of 0–9, for a format other than webp, or with a quality (lossy webp).
    @Test func webpEffortOnlyWithLosslessWebP() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("a.tif")
        let ok = try Pipeline.load(
            path: try f.pipeline(
                "version: 1\nmaps:\n  - name: a\n    input: a.tif\n    georeference: {bounds: [-180, -85, 180, 85]}\n    tile: {format: webp, webp_effort: 7}\n    output: o\n",
                name: "ok.yml"))
        #expect(ok.spec.maps[0].tile.settings.encoding.webpEffort == WebPEffort(7))
        for (tile, message) in [
            ("{format: webp, webp_effort: 10}", "maps[0].tile.webp_effort: webp effort 10 is out of range; expected 0–9"),
            ("{format: webp, webp_effort: -1}", "maps[0].tile.webp_effort: webp effort -1 is out of range; expected 0–9"),
            ("{format: png, webp_effort: 3}", "maps[0].tile.webp_effort: webp-effort applies to format webp (lossless) only, not png"),
            ("{webp_effort: 3}", "maps[0].tile.webp_effort: webp-effort applies to format webp (lossless) only, not png"),
            (
                "{format: webp, quality: 80, webp_effort: 3}",
                "maps[0].tile.webp_effort: webp-effort applies to lossless webp only; with a quality (80) the tiles are lossy"
            ),
        ] {
            let e = try f.loadError("version: 1\nmaps:\n  - name: a\n    input: a.tif\n    tile: \(tile)\n    output: o\n")
            #expect(e.contains(message), "\(tile): \(e)")
        }
    }

    @Test func missingKeyAndVersion() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        #expect(try f.loadError("version: 1\nmaps:\n  - name: a\n    output: o\n").contains(":3:5: maps[0]: missing required key 'input'"))
        #expect(try f.loadError("version: 3\nmaps: []\n").contains(":1:10: version: version 3 is not known to this tegula; it reads version 1"))
        #expect(try f.loadError("maps: []\n").contains("missing required key 'version'"))
    }

    @Test func duplicateNamesAndOutputs() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("world.tif")
        let two = "version: 1\nmaps:\n" + PipelineFixtures.worldMap() + PipelineFixtures.worldMap(output: "out/other")
        #expect(try f.loadError(two).contains("maps[1].name: a second map named 'world' (the first is maps[0]); names must be unique"))
        let same = "version: 1\nmaps:\n" + PipelineFixtures.worldMap() + PipelineFixtures.worldMap(name: "w2")
        #expect(try f.loadError(same).contains("maps[1].output: \(f.folder)/out/world is also the output of map 'world'"))
    }

    @Test func gcpsAndBoundsAreExclusive() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("a.tif")
        let e = try f.loadError(
            "version: 1\nmaps:\n  - name: a\n    input: a.tif\n    georeference: {bounds: [0, 0, 1, 1], transform: tps}\n    output: o\n")
        #expect(e.contains("maps[0].georeference.transform: transform applies to gcps only"), "\(e)")
        let inline = try f.loadError(
            "version: 1\nmaps:\n  - name: a\n    input: a.tif\n    georeference:\n      gcps:\n        - {pixel: [1, 2], ground: [3, 4], weight: 2}\n    output: o\n"
        )
        #expect(inline.contains(":7:43: maps[0].georeference.gcps[0].weight: unknown key 'weight'"), "\(inline)")
    }

    @Test func existingNonTilesetOutputIsRefusedUntouched() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("world.tif")
        let notes = f.folder + "/notes.txt"
        try "keep me".write(toFile: notes, atomically: true, encoding: .utf8)
        let e = try f.loadError("version: 1\nmaps:\n" + PipelineFixtures.worldMap(output: "notes.txt"))
        #expect(e.contains("maps[0].output: \(notes) exists and is not a tileset; refusing to overwrite it"), "\(e)")
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "keep me")
    }

    /// Seen failing before: the plan passed and a run failed late, in Foundation's words.
    @Test func anOutputUnderAFileIsRefusedAtLoad() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("world.tif")
        let notes = f.folder + "/notes.txt"
        try "keep me".write(toFile: notes, atomically: true, encoding: .utf8)
        let e = try f.loadError("version: 1\nmaps:\n" + PipelineFixtures.worldMap(output: "notes.txt/deeper/world.pmtiles"))
        #expect(e.contains("maps[0].output: \(notes)/deeper/world.pmtiles cannot be made: \(notes) is a file, not a folder"), "\(e)")
        let c = try f.loadError(
            "version: 1\ncomposite: {output: notes.txt/all.pmtiles}\nmaps:\n" + PipelineFixtures.worldMap(output: "out/world"))
        #expect(c.contains("composite.output: \(notes)/all.pmtiles cannot be made: \(notes) is a file"), "\(c)")
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "keep me")
    }

    @Test func relativePathsResolveAgainstThePipelineFolder() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("world.tif")
        let path = try f.pipeline("version: 1\nmaps:\n" + PipelineFixtures.worldMap())
        let p = try Pipeline.load(path: path)
        #expect(p.spec.maps[0].input == f.folder + "/world.tif")
        #expect(p.spec.maps[0].output == f.folder + "/out/world")
        #expect(p.workFolder == f.folder + "/.tegula/p")
    }

    @Test func suggestionRule() {
        #expect(KeySuggestion.nearest(to: "resampleing", in: ["zoom", "resampling"]) == "resampling")
        #expect(KeySuggestion.nearest(to: "maxzoom", in: ["min_zoom", "max_zoom"]) == "max_zoom")
        #expect(KeySuggestion.nearest(to: "colour", in: ["version", "maps"]) == nil)
        #expect(KeySuggestion.editDistance("ouptut", "output") == 1)
    }
}
