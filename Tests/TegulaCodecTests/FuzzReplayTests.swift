import TegulaDeflate
import TegulaTestSupport
import Testing

@testable import TegulaCodec

/// Every input of the codec's fuzz targets (FuzzInputs: seeds, campaign corpus, crashes), run
/// through the targets' own bodies (FuzzBodies/gzip.swift, png.swift): decoded, or refused with
/// the error and reason that says the bytes are bad, within the CPU cap; never a crash.
struct FuzzReplayTests {
    @Test(.timeLimit(.minutes(20)), arguments: try FuzzInputs.names("gzip"))
    func gzip(_ name: String) throws {
        let replay = try FuzzReplay(name, GzipFuzz.run)
        #expect(replay.problems(refusing: DeflateError.self) { [.corruptGzip, .tooLarge].contains($0.reason) } == [])
    }

    @Test(.timeLimit(.minutes(20)), arguments: try FuzzInputs.names("png"))
    func png(_ name: String) throws {
        let replay = try FuzzReplay(name, PNGFuzz.run)
        #expect(replay.problems(refusing: CodecError.self) { [.unreadablePNG, .corruptPNG, .tooLarge].contains($0.reason) } == [])
    }

    /// A 100-byte PNG claiming 1,000,000 × 1,000,000 pixels is refused from its header; before,
    /// the decoder asked for 4 TB of RGBA.
    @Test func aPNGClaimingATrillionPixelsIsRefusedBeforeAllocating() throws {
        let e = #expect(throws: CodecError.self) {
            try PNGDecoder.decode(try FuzzInputs.bytes("Crashes/png/claims-a-million-squared-pixels"))
        }
        #expect(e?.reason == .tooLarge)
    }
}
