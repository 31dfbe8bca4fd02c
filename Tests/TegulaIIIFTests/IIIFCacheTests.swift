import Foundation
import TegulaSupport
import TegulaTestSupport
import Testing

@testable import TegulaIIIF

/// The disk cache: exact round trips, least-recently-used eviction under its cap, damaged and
/// half-written files.
@Suite(.timeLimit(.minutes(20)))
struct IIIFCacheTests {
    static func entry(_ key: String, _ size: Int, fill: UInt8 = 7) -> IIIFCache.Entry {
        IIIFCache.Entry(
            key: key, etag: "\"e-\(key)\"", lastModified: "Fri, 27 Nov 2026 06:00:00 GMT", contentType: "image/png",
            size: size, body: [UInt8](repeating: fill, count: size))
    }

    @Test func anEntryComesBackWithItsValidatorsAndBody() throws {
        let cache = try IIIFCache(folder: try TemporaryFolder.make("iiif-cache").path)
        try cache.store(Self.entry("https://x/a/info.json", 1000))
        let e = try #require(cache.load("https://x/a/info.json"))
        #expect(e == Self.entry("https://x/a/info.json", 1000))
        #expect(cache.load("https://x/b/info.json") == nil)
    }

    /// With room for four 100 kB answers (each file 100,000 bytes and a header of about 160), the
    /// fifth takes the folder over 450,000 and eviction down to 90 % (405,000) removes one: the
    /// least recently used, not the oldest stored (read meanwhile).
    @Test func theLeastRecentlyUsedAnswersAreEvictedOverTheCap() throws {
        let cache = try IIIFCache(folder: try TemporaryFolder.make("iiif-cache").path, capacity: 450_000)
        for k in ["a", "b", "c", "d"] {
            try cache.store(Self.entry(k, 100_000))
            try Poll.untilTheFileClockPasses(cache.path(of: k))  // distinct modification times
        }
        #expect(cache.load("a") != nil)  // a is now the most recently used
        try Poll.untilTheFileClockPasses(cache.path(of: "a"))
        try cache.store(Self.entry("e", 100_000))
        #expect(cache.load("b") == nil, "least recently used")
        #expect(cache.load("a") != nil && cache.load("c") != nil && cache.load("d") != nil && cache.load("e") != nil)
        #expect(cache.size <= 405_000)
    }

    /// A file cut short or another key's file (a hash collision) is a miss, never wrong bytes;
    /// a dead writer's temporary file is swept.
    @Test func aDamagedOrForeignFileIsAMissAndAKilledWritersTemporaryIsSwept() throws {
        let folder = try TemporaryFolder.make("iiif-cache")
        let cache = try IIIFCache(folder: folder.path, capacity: 1 << 20)
        try cache.store(Self.entry("k", 5000))
        let p = cache.path(of: "k")
        let whole = try Data(contentsOf: URL(fileURLWithPath: p))
        try whole.prefix(whole.count - 10).write(to: URL(fileURLWithPath: p))
        #expect(cache.load("k") == nil)
        let foreign = URL(fileURLWithPath: cache.path(of: "other"))
        try FileManager.default.createDirectory(at: foreign.deletingLastPathComponent(), withIntermediateDirectories: true)
        try whole.write(to: foreign)
        #expect(cache.load("other") == nil)
        // A writer that no longer runs: a child process already reaped.
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        let dir = (p as NSString).deletingLastPathComponent
        let orphan = "\(dir)/.\((p as NSString).lastPathComponent).\(child.processIdentifier)-12345.tmp"
        #expect(FileManager.default.createFile(atPath: orphan, contents: Data(count: 100)))
        cache.evict()
        #expect(!FileManager.default.fileExists(atPath: orphan))
    }
}
