import Foundation

/// The inputs a fuzz target is replayed with in the ordinary suite: its seeds
/// (`Fuzz/Corpus/TARGET/`, scripts/fuzz-seeds) and every input that ever crashed it
/// (`Fuzz/Crashes/TARGET/`, copied there from a campaign of scripts/fuzz).
public enum FuzzInputs {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fuzz")

    /// `Crashes/NAME` and `Corpus/NAME` paths (relative to `Fuzz/`) of the target's inputs, sorted.
    public static func names(_ target: String) -> [String] {
        ["Crashes", "Corpus"].flatMap { kind in
            ((try? FileManager.default.contentsOfDirectory(atPath: root.path + "/\(kind)/\(target)")) ?? [])
                .sorted().map { "\(kind)/\(target)/\($0)" }
        }
    }

    /// The bytes of one input named by `names`.
    public static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appendingPathComponent(name)))
    }
}
