import Foundation

/// The inputs a fuzz target is replayed with in the ordinary suite (``FuzzReplay``): its committed
/// corpus (`Fuzz/Corpus/TARGET/`: the seeds of scripts/fuzz-seeds and what `scripts/fuzz merge`
/// kept of the campaigns) and every input that ever crashed it (`Fuzz/Crashes/TARGET/`, copied
/// there from a campaign of scripts/fuzz).
public enum FuzzInputs {
    static let root = PackageRoot.url.appendingPathComponent("Fuzz")

    /// `Crashes/NAME` and `Corpus/NAME` paths (relative to `Fuzz/`) of the target's inputs, sorted.
    /// A target without crashes has no `Crashes/TARGET/`; a missing or empty `Corpus/TARGET/`
    /// throws, so that a replay cannot pass by running no case at all.
    public static func names(_ target: String) throws -> [String] {
        let corpus = root.path + "/Corpus/\(target)"
        let seeds = (try? FileManager.default.contentsOfDirectory(atPath: corpus)) ?? []
        guard !seeds.isEmpty else { throw MissingCorpus(folder: corpus) }
        let crashes = (try? FileManager.default.contentsOfDirectory(atPath: root.path + "/Crashes/\(target)")) ?? []
        return crashes.sorted().map { "Crashes/\(target)/\($0)" } + seeds.sorted().map { "Corpus/\(target)/\($0)" }
    }

    /// A fuzz target's seed folder that is missing or empty.
    public struct MissingCorpus: Error, CustomStringConvertible {
        /// The folder that should hold the seeds.
        public var folder: String
        /// One line: which folder, and how to fill it.
        public var description: String {
            "no fuzz inputs in \(folder) (missing or empty): scripts/fuzz-seeds writes the seeds, scripts/fuzz merge adds a campaign's corpus"
        }
    }

    /// The bytes of one input named by `names`.
    public static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appendingPathComponent(name)))
    }
}
