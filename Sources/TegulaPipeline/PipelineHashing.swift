import Foundation

/// Helpers shared by the stage hashes.
enum PipelineHashing {
    /// Canonical JSON (sorted keys) of a section, for hashing.
    static func json<T: Encodable>(_ value: T) -> String {
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? enc.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "unencodable"
    }
}
