import Foundation
import TegulaGeometry
import TegulaSupport

/// What a map's work folder records: for each stage that finished, the hash of everything it
/// read (input bytes and options) and the files it wrote. A stage whose hash is unchanged and
/// whose outputs still exist is skipped. Stored as `manifest.json` (temp + rename).
public struct Manifest: Codable, Sendable, Equatable {
    /// One finished stage. Stored with the keys it always had: `zoom` holds the warp zoom or the
    /// range's max, `minZoom` the range's min.
    public struct Record: Codable, Sendable, Equatable {
        /// SHA-256 over the stage's inputs and options (and the previous stage's hash).
        public var hash: String
        /// Files or tilesets written, absolute.
        public var outputs: [String]
        /// The warp zoom (warp stage), for the plan and the next stage.
        public var zoom: Int?
        /// The zooms written (tile and composite stages).
        public var zooms: ZoomRange?
        /// ISO 8601 time the stage finished.
        public var finished: String

        /// A record of a stage that wrote `outputs`, with its warp zoom or its zooms.
        public init(hash: String, outputs: [String], zoom: Int? = nil, zooms: ZoomRange? = nil, finished: String) {
            self.hash = hash
            self.outputs = outputs
            self.zoom = zoom
            self.zooms = zooms
            self.finished = finished
        }

        enum CodingKeys: String, CodingKey { case hash, outputs, zoom, minZoom, finished }

        /// Decodes the stored keys; `minZoom` beside `zoom` makes a range (a crossed one is refused).
        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            hash = try c.decode(String.self, forKey: .hash)
            outputs = try c.decode([String].self, forKey: .outputs)
            finished = try c.decode(String.self, forKey: .finished)
            let top = try c.decodeIfPresent(Int.self, forKey: .zoom)
            guard let min = try c.decodeIfPresent(Int.self, forKey: .minZoom), let max = top else {
                (zoom, zooms) = (top, nil)
                return
            }
            guard let range = ZoomRange(min: min, max: max) else {
                throw DecodingError.dataCorruptedError(forKey: .minZoom, in: c, debugDescription: "zooms \(min)-\(max) are no zoom range")
            }
            (zoom, zooms) = (nil, range)
        }

        /// Encodes the stored keys.
        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(hash, forKey: .hash)
            try c.encode(outputs, forKey: .outputs)
            try c.encodeIfPresent(zooms?.max ?? zoom, forKey: .zoom)
            try c.encodeIfPresent(zooms?.min, forKey: .minZoom)
            try c.encode(finished, forKey: .finished)
        }
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
