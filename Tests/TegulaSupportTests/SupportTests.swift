import Foundation
import TegulaSupport
import Testing

/// Little-endian bytes, the lock, the thread pool, XML text and the FNV-1a hash.
struct SupportTests {
    @Test func littleEndianKnownBytes() {
        var b: [UInt8] = []
        LittleEndian.append(UInt64(0x0102_0304_0506_0708), to: &b)
        LittleEndian.append(Int32(-2), to: &b)
        LittleEndian.append(UInt16(0xABCD), to: &b)
        #expect(b == [8, 7, 6, 5, 4, 3, 2, 1, 0xFE, 0xFF, 0xFF, 0xFF, 0xCD, 0xAB])
        #expect(LittleEndian.read(UInt64.self, from: b, at: 0) == 0x0102_0304_0506_0708)
        #expect(LittleEndian.read(Int32.self, from: b, at: 8) == -2)
        #expect(LittleEndian.read(UInt16.self, from: b, at: 12) == 0xABCD)
        #expect(LittleEndian.read(UInt32.self, from: b, at: 11) == nil)  // 3 bytes left
        #expect(LittleEndian.read(UInt32.self, from: b[4...], at: 4) == 0x0102_0304)  // slices keep indices
    }

    @Test func parallelWorkVisitsEveryIndexOnce() throws {
        let seen = Locked([Int](repeating: 0, count: 1000))
        try ParallelWork.run(jobs: 4, count: 1000, makeState: { $0 }, process: { _, i in seen.withLock { $0[i] += 1 } })
        #expect(seen.current == [Int](repeating: 1, count: 1000))
    }

    @Test func parallelWorkRethrowsTheFirstErrorAndStops() {
        struct Bad: Error, Equatable { let index: Int }
        let done = Locked(0)
        #expect(throws: Bad(index: 10)) {
            try ParallelWork.run(
                jobs: 1, count: 100, makeState: { $0 },
                process: { _, i in
                    if i == 10 { throw Bad(index: i) }
                    done.withLock { $0 += 1 }
                })
        }
        #expect(done.current == 10)  // one worker: items after the failure never ran
    }

    @Test func xmlEscapesTheMarkupCharacters() {
        #expect(XMLText.escape(#"a<b & "c">"#) == "a&lt;b &amp; &quot;c&quot;&gt;")
        #expect(XMLText.escape("&amp;") == "&amp;amp;")
        #expect(XMLText.escape("Schagen 1689") == "Schagen 1689")
    }

    /// The published FNV-1a 64 test vectors (draft-eastlake-fnv, Appendix C), fed at once and in pieces.
    @Test func fnv1aPublishedValues() {
        #expect(FNV1a().value == 0xcbf2_9ce4_8422_2325)
        #expect(FNV1a.hash(Array("a".utf8)) == 0xaf63_dc4c_8601_ec8c)
        #expect(FNV1a.hash(Array("foobar".utf8)) == 0x8594_4171_f739_67e8)
        #expect(FNV1a.hex("a") == "af63dc4c8601ec8c")
        var h = FNV1a()
        h.update("foo")
        h.update([UInt8]("bar".utf8))
        #expect(h.value == 0x8594_4171_f739_67e8)
        #expect(FNV1a.hex("10") == "07f89207b4ba08a4")  // zero-padded to 16 digits
    }

    /// The word-at-a-time variant behind served tiles' ETags keeps the values it had inside
    /// EntityTag before it moved here (computed by a Python transcription of that code): 100
    /// bytes 0…99 (twelve words and a four-byte tail), and nothing.
    @Test func fnv1aWordsKeepsTheETagValues() {
        let bytes = (0..<100).map { UInt8($0) }
        #expect(bytes.withUnsafeBytes { FNV1a.words($0) } == 0x457b_2e04_a21d_12f2)
        #expect([UInt8]().withUnsafeBytes { FNV1a.words($0) } == 0x9e37_79b9_e17d_05ac)
    }
}
