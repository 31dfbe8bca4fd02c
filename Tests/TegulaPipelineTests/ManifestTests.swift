import Foundation
import TegulaGeometry
import TegulaSupport
import Testing

@testable import TegulaPipeline

/// A work folder's `manifest.json` keeps the keys it was written with before the zooms were a
/// ``ZoomRange``: the warp's `zoom`, and `minZoom` beside `zoom` for the tile stage's range.
struct ManifestTests {
    /// A manifest as `tegula run` wrote it before the range (a benchmark's work folder of 14:09), paths shortened.
    static let written = """
        {
          "stages" : {
            "tile" : {
              "finished" : "2026-11-29T14:09:06Z",
              "hash" : "602f2e512ab4f62cc167bfd0c21f8eed99a1334c98b126045fbe651d11071fcd",
              "minZoom" : 8,
              "outputs" : [
                "/w/out2/r1"
              ],
              "zoom" : 9
            },
            "warp" : {
              "finished" : "2026-11-29T14:09:06Z",
              "hash" : "d8330bd00015ba4e3a241898dff7c6ebadb5129cea13fa5a89211597841c312c",
              "outputs" : [
                "/w/.tegula/q/r1/warped.tif"
              ],
              "zoom" : 9
            }
          },
          "version" : 1
        }
        """

    @Test func aManifestWrittenBeforeReadsAsTheWarpZoomAndTheTileRange() throws {
        let m = try JSONDecoder().decode(Manifest.self, from: Data(Self.written.utf8))
        #expect(m[.warp]?.zoom == 9 && m[.warp]?.zooms == nil)
        #expect(m[.tile]?.zooms == ZoomRange(min: 8, max: 9) && m[.tile]?.zoom == nil)
    }

    @Test func aManifestIsWrittenAgainToTheSameBytes() throws {
        let m = try JSONDecoder().decode(Manifest.self, from: Data(Self.written.utf8))
        #expect(String(decoding: try JSONStyle.readable.encode(m), as: UTF8.self) == Self.written)
    }

    @Test func aCrossedRangeIsNoManifest() {
        let crossed = Self.written.replacingOccurrences(of: "\"minZoom\" : 8", with: "\"minZoom\" : 10")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Manifest.self, from: Data(crossed.utf8)) }
    }
}
