import Foundation
import TegulaOnDemand
import Testing

/// OnDemandError in the one error shape: each reason, its place and its line as they were when it
/// was a plain message.
struct OnDemandErrorTests {
    @Test func aMissingScanOrGCPFileIsTheSameLineWithAReason() throws {
        let f = try OnDemandFixtures()
        let inputs = f.inputs()
        let cases: [(String, OnDemandErrorReason, String)] = [
            (f.dir + "/plain.png", .noScan, "\(f.dir)/plain.png: no such file"),
            (f.scan + ":" + f.dir + "/none.points", .noGCPFile, "\(f.dir)/none.points: no such GCP file"),
        ]
        for (path, reason, line) in cases {
            #expect(throws: OnDemandError.self) { _ = try inputs.sources(for: path) }
            do {
                _ = try inputs.sources(for: path)
            } catch let error as OnDemandError {
                #expect(error.reason == reason)
                #expect("\(error)" == line)
            }
        }
    }

    @Test func aMapGoneFromItsPipelineFileNamesTheFileAndTheMap() {
        let error = OnDemandError.mapGone("sheet-3", from: "maps.yml")
        #expect(error.reason == .mapGone)
        #expect(error.location == "maps.yml")
        #expect("\(error)" == "maps.yml: map 'sheet-3' is no longer in the file")
    }
}
