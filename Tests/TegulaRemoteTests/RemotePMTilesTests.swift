import Foundation
import TegulaFetch
import TegulaGeometry
import TegulaRemote
import TegulaServer
import TegulaTestSupport
import TegulaTileset
import Testing

/// PMTiles read by HTTP range requests from real servers started here: moto's S3 (path-style
/// URLs, objects public-read) and nginx, each compared tile for tile with the local file.
@Suite(.timeLimit(.minutes(20)), .serialized)
struct RemotePMTilesTests {
    /// A range reader's fetcher on a transport of its own.
    static func fetcher() -> HTTPFetcher { HTTPRangeSource.fetcher(on: URLSessionTransport()) }

    /// Bytes unique to a tile and a file version, PNG-signed (the writer stores them as PNG).
    static func bytes(_ t: Tile, version: UInt8) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, version, UInt8(t.z)] + withUnsafeBytes(of: UInt32(t.x).littleEndian) { Array($0) }
            + withUnsafeBytes(of: UInt32(t.y).littleEndian) { Array($0) }
    }

    /// A PMTiles file of every tile of `zooms` (z0–7 is 21,845 tiles: more than a root holds, so
    /// leaf directories), tiles and name marked with `version`.
    static func pmtiles(in dir: URL, _ name: String, zooms: ClosedRange<Int>, version: UInt8) throws -> URL {
        let url = dir.appendingPathComponent(name)
        let w = try Tileset.openWriter(at: url.path)
        for z in zooms {
            for x in 0..<(1 << z) {
                for y in 0..<(1 << z) { try w.write(Tile(x: x, y: y, z: z), data: bytes(Tile(x: x, y: y, z: z), version: version)) }
            }
        }
        try w.finish(
            metadata: TilesetMetadata(
                name: "sheets v\(version)", bounds: GeoBounds(west: -20, south: -10, east: 30, north: 50),
                zooms: ZoomRange(min: zooms.lowerBound, max: zooms.upperBound)!, attribution: "test"))
        return url
    }

    /// Tiles to compare: all of z0–3, 150 spread over the deeper zooms (deterministic), and
    /// tiles the file lacks (one zoom deeper).
    static func sample(maxZoom: Int) -> [Tile] {
        var tiles = (0...min(3, maxZoom)).flatMap { z in (0..<(1 << z)).flatMap { x in (0..<(1 << z)).map { Tile(x: x, y: $0, z: z) } } }
        var s: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<150 where maxZoom > 3 {
            s = s &* 6364136223846793005 &+ 1442695040888963407
            let z = 4 + Int(s >> 60) % (maxZoom - 3)
            tiles.append(Tile(x: Int((s >> 20) % UInt64(1 << z)), y: Int((s >> 40) % UInt64(1 << z)), z: z))
        }
        tiles += [Tile(x: 0, y: 0, z: maxZoom + 1), Tile(x: 5, y: 9, z: maxZoom + 1)]
        return tiles
    }

    /// Every sampled tile and the metadata equal the local reader's; header and root are read
    /// once, and a leaf once however many of its tiles are read.
    static func expectSameAsLocal(_ url: String, _ file: URL) async throws {
        let local = try Tileset.openReader(at: file.path)
        let remote = try await RemotePMTilesReader.open(url: url, fetcher: Self.fetcher())
        #expect(remote.readCount == 1, "header, root and metadata in the first 16 KiB")
        #expect(remote.metadata == local.metadata)
        let tiles = sample(maxZoom: local.metadata.zooms.max)
        for t in tiles {
            let got = try await remote.tile(t)
            #expect(got == (try local.tile(t)), "tile \(t) from \(url)")
        }
        let reads = remote.readCount
        #expect(reads > 1 + tiles.count - 2, "leaves read: \(reads)")  // a file with leaves reads some
        #expect(remote.cachedLeafCount > 0 && remote.cachedLeafCount <= RemotePMTilesReader.leafCacheLimit)
        // The same tiles again: one read each, every directory from memory.
        let present = tiles.filter { $0.z <= local.metadata.zooms.max }
        for t in present { _ = try await remote.tile(t) }
        #expect(remote.readCount == reads + present.count)
        // The server's source gives the same bytes, awaited, under the file's version; asked
        // synchronously it refuses rather than park a thread.
        let source = RemoteTileSource(reader: remote), t = Tile(x: 3, y: 5, z: 7)
        guard case let .image(bytes, version, _) = await source.tile(t, isCancelled: { false }) else {
            Issue.record("tile \(t) through RemoteTileSource")
            return
        }
        #expect(bytes == (try local.tile(t)) && version == remote.version)
        #expect(throws: RemoteError.self) { try source.tile(t) }
    }

    /// A file replaced on the server: the next read notices (412 to If-Match, or a new ETag), reads
    /// header and root again, and from then on every tile is the new file's, under a new version.
    static func expectReplacementNoticed(_ url: String, replace: (URL) throws -> Void, in dir: URL) async throws {
        let remote = try await RemotePMTilesReader.open(url: url, fetcher: Self.fetcher())
        let before = remote.version
        #expect(try await remote.tile(Tile(x: 1, y: 1, z: 1)) == bytes(Tile(x: 1, y: 1, z: 1), version: 1))
        let b = try pmtiles(in: dir, "b.pmtiles", zooms: 0...4, version: 2)
        try replace(b)
        let (first, version) = try await remote.versionedTile(Tile(x: 1, y: 1, z: 1))
        #expect(first == bytes(Tile(x: 1, y: 1, z: 1), version: 2))
        #expect(version != before && remote.version == version)
        #expect(remote.metadata.zooms.max == 4 && remote.metadata.name == "sheets v2")
        let local = try Tileset.openReader(at: b.path)
        for t in sample(maxZoom: 4) {
            let got = try await remote.tile(t)
            #expect(got == (try local.tile(t)), "tile \(t) after the replacement")
        }
    }

    @Test func motoS3ServesTheSameTilesAsTheLocalFile() async throws {
        let dir = try TemporaryFolder.make("remote")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try Self.pmtiles(in: dir, "a.pmtiles", zooms: 0...7, version: 1)
        let s3 = try LocalHTTPServer.moto()
        defer { s3.stop() }
        let url = try s3.s3Put(file, bucket: "maps", key: "sheets/a.pmtiles")
        try await Self.expectSameAsLocal(url, file)
        #expect(Tileset.name(of: url + "?X-Amz-Expires=60") == "a")
    }

    @Test func nginxServesTheSameTilesAsTheLocalFile() async throws {
        let dir = try TemporaryFolder.make("remote")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try Self.pmtiles(in: dir, "a.pmtiles", zooms: 0...7, version: 1)
        let nginx = try LocalHTTPServer.nginx()
        defer { nginx.stop() }
        try nginx.publish(file, as: "a.pmtiles")
        try await Self.expectSameAsLocal(nginx.base + "/a.pmtiles", file)
    }

    @Test func aFileReplacedOnS3IsNoticedAndReadAgain() async throws {
        let dir = try TemporaryFolder.make("remote")
        defer { try? FileManager.default.removeItem(at: dir) }
        let s3 = try LocalHTTPServer.moto()
        defer { s3.stop() }
        let url = try s3.s3Put(try Self.pmtiles(in: dir, "a.pmtiles", zooms: 0...3, version: 1), bucket: "maps", key: "a.pmtiles")
        try await Self.expectReplacementNoticed(url, replace: { try s3.s3Put($0, bucket: "maps", key: "a.pmtiles") }, in: dir)
    }

    @Test func aFileReplacedOnNginxIsNoticedAndReadAgain() async throws {
        let dir = try TemporaryFolder.make("remote")
        defer { try? FileManager.default.removeItem(at: dir) }
        let nginx = try LocalHTTPServer.nginx()
        defer { nginx.stop() }
        try nginx.publish(try Self.pmtiles(in: dir, "a.pmtiles", zooms: 0...3, version: 1), as: "a.pmtiles")
        try await Self.expectReplacementNoticed(nginx.base + "/a.pmtiles", replace: { try nginx.publish($0, as: "a.pmtiles") }, in: dir)
    }

    /// What cannot be served says so in one line naming the URL: missing, private, not PMTiles,
    /// no range support, nobody listening, not an http(s) URL.
    @Test func refusalsAreOneLineNamingTheURL() async throws {
        let dir = try TemporaryFolder.make("remote")
        defer { try? FileManager.default.removeItem(at: dir) }
        let s3 = try LocalHTTPServer.moto()
        defer { s3.stop() }
        let text = dir.appendingPathComponent("notes.pmtiles")
        try Data(String(repeating: "not a tileset\n", count: 100).utf8).write(to: text)
        let notPMTiles = try s3.s3Put(text, bucket: "maps", key: "notes.pmtiles")
        let good = try Self.pmtiles(in: dir, "a.pmtiles", zooms: 0...2, version: 1)
        let hidden = try s3.s3Put(good, bucket: "maps", key: "private.pmtiles", acl: "private")
        let plain = try LocalHTTPServer.python()
        defer { plain.stop() }
        try FileManager.default.copyItem(at: good, to: plain.www.appendingPathComponent("a.pmtiles"))
        let nobody = "http://127.0.0.1:\(try LocalHTTPServer.freePort())/a.pmtiles"

        let cases: [(String, RemoteFailure?, String)] = [
            (s3.base + "/maps/missing.pmtiles", .notFound, "not found (HTTP 404)"),
            (hidden, .denied, "access denied (HTTP 403)"),
            (notPMTiles, nil, "not a PMTiles v3 file"),
            (plain.base + "/a.pmtiles", .noRanges, "whole file (HTTP 200)"),
            (nobody, .unreachable, "no answer"),
            ("ftp://example.org/a.pmtiles", .badURL, "expected http://HOST/PATH"),
        ]
        for (url, reason, words) in cases {
            do {
                _ = try await RemotePMTilesReader.open(url: url, fetcher: Self.fetcher())
                Issue.record("\(url) opened")
            } catch {
                let line = "\(error)"
                #expect(line.hasPrefix(url + ": ") && line.contains(words) && !line.contains("\n"), "\(line)")
                if let reason { #expect((error as? RemoteError)?.reason == reason, "\(line)") }
            }
        }
    }
}
