import Testing
@testable import TegulaCodec
import TegulaDeflate
import TegulaTestSupport

/// Every seed and every input that ever crashed the codec's fuzz targets (scripts/fuzz), replayed
/// as Fuzz/Targets/gzip.swift and png.swift run them: refused or decoded, never a crash.
struct FuzzReplayTests {
    @Test(arguments: try FuzzInputs.names("gzip"))
    func gzip(_ name: String) throws {
        guard let out = try? Gzip.decompress(try FuzzInputs.bytes(name), limit: 1 << 20) else { return }
        #expect(out.count <= 1 << 20)
        #expect(try Gzip.decompress(Gzip.compress(out, level: 1), limit: 1 << 20) == out)
    }

    @Test(arguments: try FuzzInputs.names("png"))
    func png(_ name: String) throws {
        guard let image = try? PNGDecoder.decode(try FuzzInputs.bytes(name)) else { return }
        #expect(image.pixels.count == image.width * image.height * 4)
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
