import Foundation
import TegulaSupport
import Testing

@testable import TegulaPipeline

/// A map's failure keeps the stage's error itself beside its words, and prints as before.
struct MapFailureUnderlyingTests {
    @Test func aFailingMapKeepsItsStagesError() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("plain.tif")
        let path = try f.pipeline("version: 1\nmaps:\n  - name: broken\n    input: plain.tif\n    output: out/broken\n")
        let r = try runPipeline(path)
        let failure = try #require((r.error as? BatchFailure)?.failures.first)
        let underlying = try #require(failure.underlying)
        #expect(failure.message == "\(underlying)")
        #expect("\(failure)" == "map 'broken'" + (failure.stage.map { ", \($0.rawValue) stage" } ?? "") + ": \(underlying)")
    }

    @Test func theLineIsTheSame() {
        let error = FileError(path: "/w/scan.tif", operation: "open", errno: 2)
        let failure = MapFailure(map: "sheet-1", stage: .warp, message: "\(error)", underlying: error)
        #expect("\(failure)" == "map 'sheet-1', warp stage: /w/scan.tif: open failed: No such file or directory (errno 2)")
    }
}
