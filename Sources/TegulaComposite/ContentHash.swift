import Crypto
import Foundation

/// The hash a stage records in the manifest to know whether its inputs changed, and the digest
/// of a composite part's packs: SHA-256
/// (swift-crypto) over NUL-terminated fields and whole files, as 64 lower-case hex digits.
/// The framing below is part of every stored manifest: change it and every stage reruns.
package struct ContentHash {
    private var sha = SHA256()

    /// An empty hash.
    package init() {}

    /// Add bytes as they are.
    package mutating func update<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        sha.update(data: Array(bytes))
    }

    /// Add a string as UTF-8, followed by a NUL so that fields cannot run together.
    package mutating func update(_ s: String) { update(Array(s.utf8) + [0]) }

    /// Add a file's bytes (read in 1 MB chunks) then the field "eof"; a missing file adds the
    /// field "missing:PATH" instead.
    package mutating func update(file path: String) {
        guard let fh = FileHandle(forReadingAtPath: path) else { update("missing:\(path)"); return }
        defer { try? fh.close() }
        while let chunk = try? fh.read(upToCount: 1 << 20), !chunk.isEmpty { sha.update(data: chunk) }
        update("eof")
    }

    /// The digest as 64 hex digits.
    package func finalize() -> String {
        sha.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// SHA-256 of a whole byte string, hex.
    package static func hex<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        var h = ContentHash()
        h.update(bytes)
        return h.finalize()
    }
}
