import Foundation
import TegulaSupport

/// Helpers shared by the stage hashes.
enum PipelineHashing {
    /// Canonical JSON (sorted keys) of a section, for hashing.
    static func json<T: Encodable>(_ value: T) -> String {
        (try? JSONStyle.compact.string(value)) ?? "unencodable"
    }
}
