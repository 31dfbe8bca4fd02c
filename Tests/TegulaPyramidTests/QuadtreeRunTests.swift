import TegulaGeometry
import Testing

@testable import TegulaPyramid

/// Which zooms of a tile matrix set are built by halving: the published documents' cell sizes
/// (morecantile 7.1.0 reads them so: WorldCRS84Quad and EuropeanETRS89_LAEAQuad halve at every
/// level from one origin, CanadianNAD83_LCC shrinks by 1.67–1.75 a level).
struct QuadtreeRunTests {
    @Test(arguments: ["WorldCRS84Quad", "EuropeanETRS89_LAEAQuad"])
    func aSetThatHalvesAtEveryLevelIsOneRun(name: String) throws {
        let tms = try TileMatrixSet.named(name)
        let zooms = ZoomRange(min: 0, max: 8)!
        #expect(PyramidPlan.quadtreeRuns(of: tms, zooms: zooms) == [zooms])
    }

    @Test func aSetWhoseLevelsDoNotHalveIsWarpedZoomByZoom() throws {
        let tms = try TileMatrixSet.named("CanadianNAD83_LCC")
        let runs = PyramidPlan.quadtreeRuns(of: tms, zooms: ZoomRange(min: 2, max: 6)!)
        #expect(runs == (2...6).reversed().map { ZoomRange(min: $0, max: $0)! })
    }
}
