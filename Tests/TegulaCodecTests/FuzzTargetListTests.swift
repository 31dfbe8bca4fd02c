import Foundation
import TegulaTestSupport
import Testing

/// Every fuzz target in `Fuzz/Targets` is replayed by the suite on at least the number of committed
/// inputs stated here: a Swift target (`TARGET.swift`, built by scripts/fuzz with its body) by a
/// `FuzzReplayTests` test whose arguments are `FuzzInputs.names("TARGET")` and which runs the same
/// body; a C target (`TARGET.c`, on Sources/CKernels) by `scripts/test-sanitizers c-kernels`, which
/// replays every `Fuzz/Targets/*.c` on its corpus and crashes under ASan and UBSan and which
/// scripts/test runs. A target with no replay, or with fewer committed inputs than stated, fails.
struct FuzzTargetListTests {
    /// The fewest committed inputs (`Fuzz/Corpus/TARGET/`) each target must have: the counts of
    /// 2026-11-29. `scripts/fuzz merge` only adds inputs; raise a number after a merge, and never
    /// lower one to pass. A new target needs its line.
    static let minimumInputs: [String: Int] = [
        "allmaps": 45, "editor-session": 193, "gcp-csv": 246, "gcp-points": 283, "gcp-vrt": 92, "gzip": 12,
        "maps-from": 136, "mbtiles": 76, "pipeline": 508, "pmtiles": 188, "pmtiles-directory": 439, "png": 10,
        "route": 308, "tilejson": 75, "url-template": 105,
        // The C kernels' targets (issue 40): the seeds of scripts/fuzz-seeds and what the first, 3-minute
        // campaigns added (scripts/fuzz merge, 2026-11-29).
        "tiff-lzw": 150, "tiff-deflate": 91, "png-filter": 42, "warp-row": 209,
    ]

    /// The targets: each file of `Fuzz/Targets` named `TARGET.swift` or `TARGET.c` (headers and
    /// other files are not targets), with its language.
    static func targets() throws -> [Target] {
        try FileManager.default.contentsOfDirectory(atPath: PackageRoot.path("Fuzz/Targets")).compactMap { file in
            let url = URL(fileURLWithPath: file)
            switch url.pathExtension {
            case "swift": return Target(name: url.deletingPathExtension().lastPathComponent, isC: false)
            case "c": return Target(name: url.deletingPathExtension().lastPathComponent, isC: true)
            default: return nil
            }
        }.sorted { $0.name < $1.name }
    }

    /// A fuzz target's name and whether it is a C one.
    struct Target: CustomTestStringConvertible, Sendable {
        let name: String
        let isC: Bool
        var testDescription: String { name + (isC ? ".c" : ".swift") }
    }

    static func text(_ relative: String) throws -> String {
        try String(contentsOfFile: PackageRoot.path(relative), encoding: .utf8)
    }

    @Test func everyTargetHasAStatedMinimumAndEveryMinimumATarget() throws {
        let names = Set(try Self.targets().map(\.name))
        #expect(names.count >= 19, "Fuzz/Targets lists \(names.count) targets")
        #expect(names.subtracting(Self.minimumInputs.keys).sorted() == [], "targets with no stated minimum")
        #expect(Set(Self.minimumInputs.keys).subtracting(names).sorted() == [], "minimums of targets that are gone")
    }

    @Test(arguments: try FuzzTargetListTests.targets())
    func targetIsReplayedOnItsStatedInputs(_ target: Target) throws {
        let corpus = (try? FileManager.default.contentsOfDirectory(atPath: PackageRoot.path("Fuzz/Corpus/\(target.name)"))) ?? []
        let minimum = try #require(Self.minimumInputs[target.name], "no stated minimum for \(target.name)")
        #expect(corpus.count >= minimum, "Fuzz/Corpus/\(target.name) holds \(corpus.count) inputs, fewer than the \(minimum) stated")
        if target.isC {
            // scripts/test-sanitizers c-kernels builds each Fuzz/Targets/*.c with the replay main and
            // runs it on Fuzz/Corpus/TARGET and Fuzz/Crashes/TARGET; scripts/test runs that mode.
            let sanitizers = try Self.text("scripts/test-sanitizers")
            #expect(sanitizers.contains("for c in Fuzz/Targets/*.c; do"), "scripts/test-sanitizers no longer lists the C targets")
            #expect(sanitizers.contains(#""Fuzz/Corpus/$t" "Fuzz/Crashes/$t""#), "scripts/test-sanitizers no longer replays a C target's inputs")
            #expect(try Self.text("scripts/test").contains("scripts/test-sanitizers c-kernels"), "scripts/test does not run the C replays")
        } else {
            // The replay test of the target, and the body its libFuzzer entry runs.
            let entry = try Self.text("Fuzz/Targets/\(target.name).swift")
            let body = try #require(entry.firstMatch(of: /([A-Za-z]+Fuzz)\.run/)?.1, "Fuzz/Targets/\(target.name).swift runs no body")
            let replays = try FileManager.default.contentsOfDirectory(atPath: PackageRoot.path("Tests"))
                .map { "Tests/\($0)/FuzzReplayTests.swift" }
                .filter { FileManager.default.fileExists(atPath: PackageRoot.path($0)) }
                .filter { (try? Self.text($0).contains("arguments: try FuzzInputs.names(\"\(target.name)\")")) == true }
            #expect(replays.count == 1, "replay tests of \(target.name): \(replays)")
            for replay in replays {
                #expect(try Self.text(replay).contains("\(body).run"), "\(replay) does not run \(body), the body of \(target.name)")
            }
        }
    }
}
