import Foundation
import TegulaDeflate
import TegulaTestSupport
import Testing

/// gzip through libdeflate, checked against Python's `gzip` module both ways, and refusing
/// what it must refuse.
@Suite(.timeLimit(.minutes(20)))
struct GzipTests {
    @Test func compressedBytesAreReadByPythonGzip() throws {
        let data = (0..<150_000).map { UInt8($0 % 251) }
        let g = Gzip.compress(data)
        #expect(g.count < data.count / 10)  // really compressed, not stored blocks
        #expect(try Gzip.decompress(g, limit: data.count) == data)
        #expect(Gzip.compress(data) == g)  // no time stamp: the same input gives the same bytes
        #expect(try Gzip.decompress(Gzip.compress([]), limit: 0) == [])  // an empty member
        let dir = try TemporaryFolder.make("codec")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("x.gz").path
        try Data(g).write(to: URL(fileURLWithPath: file))
        let n = try ProgramRun.output(
            "python3",
            [
                "-c",
                "import gzip,sys; d = gzip.decompress(open(sys.argv[1],'rb').read()); "
                    + "print(len(d), all(b == i % 251 for i, b in enumerate(d)))", file,
            ])
        #expect(n.trimmingCharacters(in: .whitespacesAndNewlines) == "150000 True")
    }

    @Test func decompressesPythonGzipAndRefusesCorruption() throws {
        let dir = try TemporaryFolder.make("codec")
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = (0..<5000).map { "tile \($0 % 97) \($0 * 7919 % 1000)\n" }.joined()
        let plain = dir.appendingPathComponent("plain").path, packed = plain + ".gz"
        try Data(text.utf8).write(to: URL(fileURLWithPath: plain))
        try ProgramRun.output(
            "python3",
            [
                "-c", "import gzip,sys; open(sys.argv[2],'wb').write(gzip.compress(open(sys.argv[1],'rb').read(), 9))",
                plain, packed,
            ])
        let gz = [UInt8](try Data(contentsOf: URL(fileURLWithPath: packed)))
        #expect(gz.count < text.utf8.count / 3)  // dynamic Huffman blocks, not stored ones
        #expect(try Gzip.decompress(gz, limit: 1 << 20) == Array(text.utf8))
        var broken = gz
        broken[broken.count - 9] ^= 0xFF  // the last byte of the deflate stream
        #expect(throws: DeflateError.self) { try Gzip.decompress(broken, limit: 1 << 20) }
        #expect(throws: DeflateError.self) { try Gzip.decompress(Array(gz.dropLast(4)), limit: 1 << 20) }
        #expect(throws: DeflateError.self) { try Gzip.decompress(Array("not gzip at all, twenty bytes".utf8), limit: 1 << 20) }
    }

    @Test func refusesAGzipBomb() throws {
        // 16 MiB of zeros packs into about 16 KiB; a 1 MiB limit must refuse it before inflating.
        let bomb = Gzip.compress([UInt8](repeating: 0, count: 16 << 20))
        #expect(bomb.count < 40_000)
        do {
            _ = try Gzip.decompress(bomb, limit: 1 << 20)
            Issue.record("a 16 MiB member passed a 1 MiB limit")
        } catch {
            #expect(error.reason == .tooLarge)
        }
        // A trailer that understates the size does not get past the limit either.
        var lying = bomb
        lying.replaceSubrange((lying.count - 4)..., with: [0, 0, 1, 0])  // claims 64 KiB
        do {
            _ = try Gzip.decompress(lying, limit: 1 << 20)
            Issue.record("a member larger than its trailer says was accepted")
        } catch {
            #expect(error.reason == .corruptGzip)
        }
    }

    @Test func crc32KnownValue() {
        // The CRC-32 check value of the ASCII digits 1–9 (ITU-T V.42, as gzip and PNG use).
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([]) == 0)
    }
}
