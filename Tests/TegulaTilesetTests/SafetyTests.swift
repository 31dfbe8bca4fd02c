import Foundation
import TegulaGeometry
import TegulaTestSupport
import Testing

@testable import TegulaTileset

/// Refusing what is not a tileset, replacing or resuming what is.
struct SafetyTests {
    @Test(arguments: ["notes", "notes.mbtiles", "notes.pmtiles"]) func refusesExistingNonTileset(name: String) throws {
        let dir = try TemporaryFolder.make("bundle").path
        let path = dir + "/" + name
        if name == "notes" {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            try Data("keep me".utf8).write(to: URL(fileURLWithPath: path + "/thesis.txt"))
        } else {
            try Data("keep me".utf8).write(to: URL(fileURLWithPath: path))
        }
        #expect(!Tileset.isTileset(at: path))
        do {
            _ = try Tileset.openWriter(at: path)
            Issue.record("opened a writer over \(name)")
        } catch let e as TilesetError {
            guard case .notATileset = e else { Issue.record("wrong error \(e)"); return }
            #expect(e.description.contains(path) && e.description.contains("refusing"))
        }
        let kept = name == "notes" ? path + "/thesis.txt" : path
        #expect(try String(contentsOfFile: kept, encoding: .utf8) == "keep me")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == [name])
    }

    /// What a reader (the server, the overlay) may open, and the name it goes by, decided by the
    /// forms `Tileset` knows: a finished folder of any of them carries `tiles.json`.
    @Test func readableTilesetsAndTheirNames() throws {
        let dir = try TemporaryFolder.make("bundle").path
        for name in ["blue", "old map.mbtiles", "relief.PMTiles"] {
            let w = try Tileset.openWriter(at: dir + "/" + name)
            try w.finish(metadata: BundleFixtures.metadata(maxZoom: 0))
            #expect(Tileset.isReadable(at: dir + "/" + name), "\(name)")
            #expect(try Tileset.openReader(at: dir + "/" + name).metadata.zooms.max == 0, "\(name)")
        }
        #expect(FileManager.default.fileExists(atPath: dir + "/blue/" + Tileset.folderDescriptionName))
        #expect(Tileset.name(of: dir + "/blue") == "blue")
        #expect(Tileset.name(of: dir + "/old map.mbtiles") == "old map")
        #expect(Tileset.name(of: "relief.PMTiles") == "relief")
        #expect(Tileset.name(of: "scan.tif") == "scan.tif")  // not a tileset form: the name is kept whole
        // A folder without its TileJSON, a missing path and a file of no tileset form are not readable.
        try FileManager.default.createDirectory(atPath: dir + "/empty", withIntermediateDirectories: false)
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/notes.txt"))
        for name in ["empty", "nope.mbtiles", "notes.txt"] { #expect(!Tileset.isReadable(at: dir + "/" + name), "\(name)") }
        #expect(Tileset.Form.allCases.compactMap(\.fileExtension) == ["mbtiles", "pmtiles", "gpkg"])
        // A GeoPackage is written, not read: a server or the overlay does not take one for a tileset.
        #expect(Tileset.Form.allCases.filter(\.isReadable) == [.folder, .mbtiles, .pmtiles])
    }

    @Test func emptyFolderIsAccepted() throws {
        let path = try TemporaryFolder.make("bundle").path
        let w = try Tileset.openWriter(at: path)
        try w.finish(metadata: BundleFixtures.metadata(maxZoom: 0))
        #expect(Tileset.isTileset(at: path))
    }

    /// A run killed between making the folder and renaming its marker into place leaves the
    /// marker's temporary alone in the folder (`..tegula-tileset.PID-RANDOM.tmp`, the writer's
    /// pid long gone): the rerun, with or without `--resume`, takes the folder and sweeps the
    /// temporary (FaultTests met it once in a full run). A folder holding anything else is
    /// still refused (`refusesExistingNonTileset`).
    @Test(arguments: [false, true]) func aFolderHoldingOnlyAKilledWritersTemporaryIsTaken(resume: Bool) throws {
        let path = try TemporaryFolder.make("bundle").path + "/tiles"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let leftover = path + "/..tegula-tileset.\(Int32.max - 7)-12345.tmp"
        try Data("{\"lay".utf8).write(to: URL(fileURLWithPath: leftover))
        #expect(!Tileset.isTileset(at: path))
        let w = try Tileset.openWriter(at: path, resume: resume)
        try w.finish(metadata: BundleFixtures.metadata(maxZoom: 0))
        #expect(Tileset.isTileset(at: path) && Tileset.isReadable(at: path))
        #expect(!FileManager.default.fileExists(atPath: leftover))
    }

    /// A tile folder replaced by a run without `--resume` is first renamed aside as
    /// `.NAME.PID-RANDOM.tmp`, then removed: a kill while removing leaves that folder (never a
    /// folder of tiles without its marker at OUT), and the next writer of OUT sweeps it.
    @Test func aReplacedFolderKilledWhileBeingRemovedIsSwept() throws {
        let dir = try TemporaryFolder.make("bundle").path
        let path = dir + "/t"
        // What the kill left: the old tileset moved aside, half removed (marker gone, tiles kept).
        let aside = dir + "/.t.\(Int32.max - 7)-99.tmp"
        try FileManager.default.createDirectory(atPath: aside + "/3/4", withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: aside + "/3/4/2.png"))
        for resume in [false, true] {
            let w = try Tileset.openWriter(at: path, resume: resume)
            try w.finish(metadata: BundleFixtures.metadata(maxZoom: 0))
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["t"], "resume \(resume)")
        }
        // And a replace goes through a name of that form: OUT's marker never vanishes with tiles left.
        let again = try Tileset.openWriter(at: path)
        #expect(Tileset.isTileset(at: path))
        try again.finish(metadata: BundleFixtures.metadata(maxZoom: 0))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["t"])
    }

    @Test(arguments: ["t", "t.mbtiles", "t.pmtiles"]) func reopeningWithoutResumeReplaces(name: String) throws {
        let path = try TemporaryFolder.make("bundle").path + "/" + name
        let a = try Tileset.openWriter(at: path)
        try a.write(Tile(x: 0, y: 0, z: 1), data: [1])
        try a.finish(metadata: BundleFixtures.metadata(maxZoom: 1))
        let b = try Tileset.openWriter(at: path)
        try b.write(Tile(x: 1, y: 1, z: 1), data: [2])
        try b.finish(metadata: BundleFixtures.metadata(maxZoom: 1))
        #expect(Tileset.existingTiles(at: path) == [Tile(x: 1, y: 1, z: 1)])
    }

    /// An interrupted run (writer dropped without finish; for PMTiles also a torn journal record)
    /// is recognised, its tiles are listed, and resume finishes with everything.
    @Test(arguments: ["r", "r.mbtiles", "r.pmtiles"]) func resumeAfterInterruption(name: String) throws {
        let path = try TemporaryFolder.make("bundle").path + "/" + name
        let first = BundleFixtures.pyramid(0...3), second = BundleFixtures.pyramid(4...4)
        do {
            let w = try Tileset.openWriter(at: path)
            for t in first { try w.write(t, data: BundleFixtures.png(for: t)) }
        }
        if name.hasSuffix(".pmtiles") {
            let h = FileHandle(forWritingAtPath: path + ".index.tmp")!
            h.seekToEndOfFile()
            h.write(Data([1, 2, 3, 4, 5]))  // a torn record, as a kill mid-write leaves
            try h.close()
        }
        // Folder and MBTiles are written in place; a PMTiles exists only once finished (its tiles
        // are in OUT.data.tmp and OUT.index.tmp until then).
        #expect(name.hasSuffix(".pmtiles") ? !FileManager.default.fileExists(atPath: path) : Tileset.isTileset(at: path))
        #expect(Tileset.existingTiles(at: path) == Set(first))
        let w = try Tileset.openWriter(at: path, resume: true)
        for t in second { try w.write(t, data: BundleFixtures.png(for: t)) }
        try w.finish(metadata: BundleFixtures.metadata(maxZoom: 4))
        let r = try Tileset.openReader(at: path)
        for t in first + second { #expect(try r.tile(t) == BundleFixtures.png(for: t), "\(t)") }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent)
        #expect(leftovers == [name])
    }

    @Test func resumeAfterFinishedPMTilesKeepsTiles() throws {
        let path = try TemporaryFolder.make("bundle").path + "/f.pmtiles"
        let a = try Tileset.openWriter(at: path)
        try a.write(Tile(x: 0, y: 0, z: 0), data: [7])
        try a.finish(metadata: BundleFixtures.metadata(maxZoom: 1))
        let b = try Tileset.openWriter(at: path, resume: true)
        try b.write(Tile(x: 1, y: 0, z: 1), data: [8])
        try b.finish(metadata: BundleFixtures.metadata(maxZoom: 1))
        let r = try Tileset.openReader(at: path)
        #expect(try r.tile(Tile(x: 0, y: 0, z: 0)) == [7])
        #expect(try r.tile(Tile(x: 1, y: 0, z: 1)) == [8])
    }

    /// Resuming a finished archive copies its tiles into a new journal first; a run killed during
    /// that copy (here: right after it created the empty journal, and after one tile of it) must
    /// not lose the rest, which `existingTiles` already reports as done.
    @Test(arguments: [0, 1]) func aResumeKilledWhileCopyingAFinishedPMTilesLosesNoTile(copied: Int) throws {
        let path = try TemporaryFolder.make("bundle").path + "/c.pmtiles"
        let tiles = BundleFixtures.pyramid(0...3)
        let a = try Tileset.openWriter(at: path)
        for t in tiles { try a.write(t, data: BundleFixtures.png(for: t)) }
        try a.finish(metadata: BundleFixtures.metadata(maxZoom: 3))
        // What the killed run left: the finished archive, and a journal with `copied` of its tiles.
        do {
            let partial = try PMTilesWriter(path: path + ".part", format: .png, resume: false)
            for t in tiles.prefix(copied) { try partial.write(t, data: BundleFixtures.png(for: t)) }
        }
        try FileManager.default.moveItem(atPath: path + ".part.data.tmp", toPath: path + ".data.tmp")
        try FileManager.default.moveItem(atPath: path + ".part.index.tmp", toPath: path + ".index.tmp")
        #expect(Tileset.existingTiles(at: path) == Set(tiles))
        // The next run skips every tile it is told exists, and finishes.
        let b = try Tileset.openWriter(at: path, resume: true)
        try b.finish(metadata: BundleFixtures.metadata(maxZoom: 3))
        let r = try Tileset.openReader(at: path)
        for t in tiles { #expect(try r.tile(t) == BundleFixtures.png(for: t), "\(t)") }
    }

    @Test func errorsSayWhatWhereAndWhatWouldBeRight() throws {
        let e = TilesetError.badMetadata(path: "/x/tiles.json", key: "minzoom/maxzoom", expected: "integers")
        #expect(e.description == "/x/tiles.json: metadata 'minzoom/maxzoom' is missing or malformed; expected integers")
        let dir = try TemporaryFolder.make("bundle").path
        try Data(#"{"format": "gif", "minzoom": 0, "maxzoom": 1}"#.utf8).write(to: URL(fileURLWithPath: dir + "/tiles.json"))
        #expect(throws: TilesetError.badMetadata(path: dir + "/tiles.json", key: "format", expected: "png, jpg, webp or auto")) {
            _ = try Tileset.openReader(at: dir)
        }
    }
}
