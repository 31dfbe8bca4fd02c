import TegulaGeoreference
import TegulaTestSupport
import Testing

/// Every input of the GCP-format fuzz targets (FuzzInputs: seeds, campaign corpus, crashes), run
/// through the targets' own bodies (FuzzBodies/gcp-*.swift, allmaps.swift): read, or refused
/// with a ``GeoreferenceError`` that says what in the file is wrong, within the CPU cap; never a
/// crash.
struct FuzzReplayTests {
    /// What a GCP file may be refused for: its content, not the reading of a file that exists.
    static let fileRefusals: Set<GeoreferenceErrorReason> = [
        .unparseableRow, .unknownFormat, .unknownCRS, .unknownTransform, .tooFewGCPs, .tooManyGCPs,
        .degenerateGCPs, .duplicateGCPs, .invalidCoordinate, .badMask,
    ]

    static func check(_ name: String, _ body: ([UInt8], inout FuzzCase) -> Void, also: Set<GeoreferenceErrorReason> = []) throws {
        let replay = try FuzzReplay(name, body)
        #expect(replay.problems(refusing: GeoreferenceError.self) { fileRefusals.union(also).contains($0.reason) } == [])
    }

    @Test(.timeLimit(.minutes(20)), arguments: try FuzzInputs.names("gcp-points"))
    func points(_ name: String) throws { try Self.check(name, GCPPointsFuzz.run) }

    @Test(.timeLimit(.minutes(20)), arguments: try FuzzInputs.names("gcp-csv"))
    func csv(_ name: String) throws { try Self.check(name, GCPCSVFuzz.run) }

    @Test(.timeLimit(.minutes(20)), arguments: try FuzzInputs.names("allmaps"))
    func allmaps(_ name: String) throws { try Self.check(name, AllmapsFuzz.run) }

    @Test(.timeLimit(.minutes(20)), arguments: try FuzzInputs.names("gcp-vrt"))
    // GDAL parses the VRT when it opens it, so a VRT GDAL refuses ("Invalid dataType") is
    // `.unreadableFile` (Crashes/gcp-vrt/misspelt-projection-searched-for-a-second).
    func vrt(_ name: String) throws { try Self.check(name, GCPVRTFuzz.run, also: [.unreadableFile]) }
}
