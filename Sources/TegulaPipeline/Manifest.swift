import Foundation
import TegulaSupport

/// What a map's work folder records: for each stage that finished, the hash of everything it
/// read (input bytes and options) and the files it wrote. A stage whose hash is unchanged and
/// whose outputs still exist is skipped. Stored as `manifest.json` (temp + rename).
public struct Manifest: Codable, Sendable, Equatable {
    /// One finished stage.
    public struct Record: Codable, Sendable, Equatable {
        /// SHA-256 over the stage's inputs and options (and the previous stage's hash).
        public var hash: String
        /// Files or tilesets written, absolute.
        public var outputs: [String]
        /// The warp zoom (warp stage) or zoom range, for the plan and the next stage.
        public var zoom: Int?
        public var minZoom: Int?
        /// ISO 8601 time the stage finished.
        public var finished: String
    }

    public var version = 1
    public var stages: [String: Record] = [:]
    /// Digests of the input files the stages read, by path (see ``FileDigests``).
    public var files: [String: FileDigest]?

    public init() {}

    /// The record of a stage, if it finished.
    public subscript(stage: Stage) -> Record? {
        get { stages[stage.rawValue] }
        set { stages[stage.rawValue] = newValue }
    }

    /// Read `folder/manifest.json`; an empty manifest when there is none or it is unreadable.
    public static func load(folder: String) -> Manifest {
        guard let data = FileManager.default.contents(atPath: folder + "/manifest.json"),
            let m = try? JSONDecoder().decode(Manifest.self, from: data)
        else { return Manifest() }
        return m
    }

    /// Write `folder/manifest.json` atomically (``AtomicFile``; what a killed run left goes first).
    public func save(folder: String) throws {
        let path = folder + "/manifest.json"
        AtomicFile.removeAbandoned(of: path)
        try AtomicFile.write(Array(try JSONStyle.readable.encode(self)), to: path)
    }

    /// True when `stage` finished with `hash` and all its outputs are still there.
    public func isCurrent(_ stage: Stage, hash: String) -> Bool {
        guard let r = self[stage], r.hash == hash else { return false }
        return r.outputs.allSatisfy { FileManager.default.fileExists(atPath: $0) }
    }

    static func now() -> String { ISO8601DateFormatter().string(from: Date()) }
}
