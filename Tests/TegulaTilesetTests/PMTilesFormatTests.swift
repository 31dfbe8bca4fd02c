import Foundation
import TegulaGeometry
import TegulaTestSupport
import Testing

@testable import TegulaTileset

/// PMTiles v3 pieces against the spec's published values.
struct PMTilesFormatTests {
    @Test func hilbertIDsPublishedValues() {
        #expect(PMTilesID.id(of: Tile(x: 0, y: 0, z: 0)) == 0)
        #expect(PMTilesID.id(of: Tile(x: 0, y: 0, z: 1)) == 1)
        #expect(PMTilesID.id(of: Tile(x: 0, y: 1, z: 1)) == 2)
        #expect(PMTilesID.id(of: Tile(x: 1, y: 1, z: 1)) == 3)
        #expect(PMTilesID.id(of: Tile(x: 1, y: 0, z: 1)) == 4)
        #expect(PMTilesID.id(of: Tile(x: 0, y: 0, z: 2)) == 5)
        #expect(PMTilesID.id(of: Tile(x: 0, y: 0, z: 3)) == 21)
        #expect(PMTilesID.id(of: Tile(x: 0, y: 0, z: 20)) == 366_503_875_925)
        #expect(PMTilesID.id(of: Tile(x: 3423, y: 1763, z: 12)) == 19_078_479)
        #expect(PMTilesID.id(of: Tile(x: 486, y: 332, z: 10)) == 506_307)  // python pmtiles zxy_to_tileid
    }

    @Test func hilbertRoundTripAndOrder() {
        var ids = Set<UInt64>()
        for t in BundleFixtures.pyramid(0...5) {
            let id = PMTilesID.id(of: t)
            #expect(PMTilesID.tile(of: id) == t)
            ids.insert(id)
        }
        #expect(ids == Set(0..<UInt64(1365)))  // z0–5 fill 0..<(4^6−1)/3 exactly
        for z in [12, 20, 28] {
            let t = Tile(x: (1 << z) - 3, y: (1 << z) / 3, z: z)
            #expect(PMTilesID.tile(of: PMTilesID.id(of: t)) == t)
        }
    }

    @Test func directoryRoundTrip() {
        let entries = [
            PMTilesEntry(tileId: 0, offset: 0, length: 10, runLength: 1),
            PMTilesEntry(tileId: 5, offset: 10, length: 7, runLength: 3),
            PMTilesEntry(tileId: 300, offset: 0, length: 10, runLength: 1),
            PMTilesEntry(tileId: 1 << 40, offset: 17, length: 70000, runLength: 0),
        ]
        let bytes = PMTilesDirectory.serialize(entries)
        #expect(PMTilesDirectory.deserialize(bytes) == entries)
        #expect(PMTilesDirectory.find(entries, 6)?.tileId == 5)
        #expect(PMTilesDirectory.find(entries, 8) == nil)  // past the run of 3
        #expect(PMTilesDirectory.find(entries, 1 << 41)?.runLength == 0)  // the leaf before it
        #expect(PMTilesDirectory.deserialize(Array(bytes.dropLast(2))) == nil)
    }

    @Test func headerRoundTrip() {
        var h = PMTilesHeader()
        h.rootLength = 99; h.tileDataOffset = 1 << 33; h.minLonE7 = -300_000_000; h.centerLatE7 = 400_000_000
        h.maxZoom = 8; h.tileType = 3
        let b = h.serialized()
        #expect(b.count == 127)
        #expect(PMTilesHeader(b) == h)
        #expect(PMTilesHeader(Array(b.prefix(100))) == nil)
    }

    /// The names of remote file versions end up in ETags and `?v=` URLs that browsers and caches
    /// keep, so they are pinned: FNV-1a 64 of the ETag (else the date) then the size in decimal,
    /// the values computed by an independent Python FNV-1a.
    @Test func aRemoteFileVersionIsNamedByTheFNV1aOfItsValidatorAndSize() {
        #expect(PMTilesSnapshot.versionName(FileVersion(etag: "\"abc\"", size: 12345)) == "5654df2ded76b6c2")
        #expect(PMTilesSnapshot.versionName(FileVersion(etag: "W/\"x\"", lastModified: "Mon", size: 7)) == "c7c624603dd672c2")
        #expect(
            PMTilesSnapshot.versionName(FileVersion(lastModified: "Wed, 21 Oct 2015 07:28:00 GMT", size: 99))
                == "98d30656b6a1dd55")
        #expect(PMTilesSnapshot.versionName(FileVersion(size: 0)) == "af63ad4c86019caf")
    }
}
