import CLibCrypto
import Foundation

/// The hash a stage records in the manifest to know whether its inputs changed, and the digest
/// of a composite part's packs: SHA-256 (OpenSSL's libcrypto, which libgdal already loads) over
/// NUL-terminated fields and whole files, as 64 lower-case hex digits.
/// The framing below is part of every stored manifest: change it and every stage reruns.
package struct ContentHash {
    private var state = State()

    /// An empty hash.
    package init() {}

    /// Add bytes as they are.
    package mutating func update<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        if !isKnownUniquelyReferenced(&state) { state = state.copy() }
        let done: Void? = bytes.withContiguousStorageIfAvailable { state.update($0) }
        if done == nil { Array(bytes).withUnsafeBufferPointer { state.update($0) } }
    }

    /// Add a string as UTF-8, followed by a NUL so that fields cannot run together.
    package mutating func update(_ s: String) { update(Array(s.utf8) + [0]) }

    /// Add a file's bytes (read in 1 MB chunks) then the field "eof"; a missing file adds the
    /// field "missing:PATH" instead.
    package mutating func update(file path: String) {
        guard let fh = FileHandle(forReadingAtPath: path) else { update("missing:\(path)"); return }
        defer { try? fh.close() }
        while let chunk = try? fh.read(upToCount: 1 << 20), !chunk.isEmpty { update(chunk) }
        update("eof")
    }

    /// The 32 bytes of the digest (the hash itself is left as it was).
    package func digest() -> [UInt8] { state.copy().finish() }

    /// The digest as 64 hex digits.
    package func finalize() -> String { Self.hex(digest: digest()) }

    /// SHA-256 of a whole byte string, hex.
    package static func hex<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        Self.hex(digest: digest(bytes))
    }

    /// SHA-256 of a whole byte string, its 32 bytes.
    package static func digest<C: Collection>(_ bytes: C) -> [UInt8] where C.Element == UInt8 {
        var h = ContentHash()
        h.update(bytes)
        return h.digest()
    }

    private static func hex(digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(digest.count * 2)
        for b in digest { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// One libcrypto digest context; copied before a change when shared, so `ContentHash` has
    /// value semantics.
    private final class State {
        let context: OpaquePointer

        init() {
            guard let c = EVP_MD_CTX_new(), EVP_DigestInit_ex(c, EVP_sha256(), nil) == 1 else {
                fatalError("libcrypto: SHA-256 could not be set up (out of memory?)")
            }
            context = c
        }

        private init(copying other: State) {
            guard let c = EVP_MD_CTX_new(), EVP_MD_CTX_copy_ex(c, other.context) == 1 else {
                fatalError("libcrypto: a SHA-256 state could not be copied (out of memory?)")
            }
            context = c
        }

        deinit { EVP_MD_CTX_free(context) }

        func copy() -> State { State(copying: self) }

        func update(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard bytes.count > 0 else { return }
            guard EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) == 1 else {
                fatalError("libcrypto: EVP_DigestUpdate failed")
            }
        }

        /// Ends this state (use a copy to keep hashing).
        func finish() -> [UInt8] {
            var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length: UInt32 = 0
            guard EVP_DigestFinal_ex(context, &out, &length) == 1, length == 32 else {
                fatalError("libcrypto: EVP_DigestFinal_ex failed")
            }
            return Array(out.prefix(32))
        }
    }
}
