import TegulaTestSupport
import Testing

@testable import TegulaPipeline

/// Every input of the pipeline-file and sheet-list fuzz targets (FuzzInputs: seeds, campaign
/// corpus, crashes), run through the targets' own bodies (FuzzBodies/pipeline.swift,
/// maps-from.swift): loaded, or refused with a located ``PipelineError`` saying the file is
/// unreadable, not YAML or not a valid pipeline, within the CPU cap; never a crash.
struct FuzzReplayTests {
    static let fileRefusals: Set<PipelineErrorReason> = [.unreadable, .syntax, .invalid]

    @Test(.timeLimit(.minutes(20)), arguments: try FuzzInputs.names("pipeline"))
    func pipeline(_ name: String) throws {
        let replay = try FuzzReplay(name, PipelineFuzz.run)
        #expect(replay.problems(refusing: PipelineError.self) { Self.fileRefusals.contains($0.reason) } == [])
    }

    @Test(.timeLimit(.minutes(20)), arguments: try FuzzInputs.names("maps-from"))
    func mapsFrom(_ name: String) throws {
        let replay = try FuzzReplay(name, MapsFromFuzz.run)
        #expect(replay.problems(refusing: PipelineError.self) { Self.fileRefusals.contains($0.reason) } == [])
    }
}
