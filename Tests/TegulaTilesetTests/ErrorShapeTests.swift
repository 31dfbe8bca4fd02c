import Foundation
import TegulaSupport
import TegulaTileset
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// TileFormat.OptionError and TilesetError's file errors in the one error shape: a reason to
/// branch on, and the same line as before.
struct ErrorShapeTests {
    /// The option checks throw a reason and the exact line each printed when it was a message.
    @Test func optionErrorsKeepTheirLines() {
        let cases: [(TileOptionReason, String, () throws -> Void)] = [
            (.qualityOutOfRange, "quality 0 is out of range; expected 1–100", { try TileFormat.checkQuality(0, for: .jpeg) }),
            (
                .qualityNotTaken, "quality applies to jpg, webp and auto, not png8 (lossless or palette)",
                { try TileFormat.checkQuality(80, for: .png8) }
            ),
            (.effortOutOfRange, "webp effort 10 is out of range; expected 0–9", { _ = try WebPEffort.parse(10) }),
            (.effortNotWebP, "webp-effort applies to format webp (lossless) only, not jpg", { try WebPEffort.check(for: .jpeg, quality: nil) }),
            (
                .effortLossy, "webp-effort applies to lossless webp only; with a quality (80) the tiles are lossy",
                { try WebPEffort.check(for: .webp, quality: 80) }
            ),
            (.autoLossyNotAuto, "auto-lossy applies to format auto only, not webp", { try AutoLossy.check(.webp, for: .webp) }),
        ]
        for (reason, line, check) in cases {
            do {
                try check()
                Issue.record("accepted: \(line)")
            } catch let error as TileFormat.OptionError {
                #expect(error.reason == reason)
                #expect(error.location == nil)
                #expect("\(error)" == line)
            } catch {
                Issue.record("not an OptionError: \(error)")
            }
        }
    }

    /// A file call's failure reaches the caller whole (path, call, errno) and prints as it did.
    @Test func fileErrorsAreKeptWhole() throws {
        let path = NSTemporaryDirectory() + "tegula-absent-\(UUID().uuidString)/t.mbtiles"
        do {
            _ = try Tileset.openReader(at: path)
            Issue.record("opened \(path)")
        } catch let TilesetError.io(file) {
            #expect(file.path == path && file.errno == ENOENT && file.operation == "open")
            #expect("\(TilesetError.io(file))" == "\(path): open failed: \(String(cString: strerror(ENOENT))) (errno \(ENOENT))")
        }
        let error = TilesetError.io(FileError(path: "/t/out", operation: "mkdir", errno: EACCES))
        #expect("\(error)" == "/t/out: mkdir failed: Permission denied (errno 13)")
    }
}
