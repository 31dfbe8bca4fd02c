/// Everything that can go wrong in a pipeline file or run, with where: the file, line and column,
/// and the key path (e.g. `maps[0].tile.format`) when the problem is in the file.
public struct PipelineError: Error, CustomStringConvertible, Sendable {
    /// The pipeline file.
    public var file: String
    /// 1-based line and column in the file, when known.
    public var line: Int?
    public var column: Int?
    /// Dotted key path, when the problem is one key.
    public var keyPath: String?
    /// What was wrong and what would be right.
    public var message: String

    /// An error at a place in the file.
    public init(file: String, line: Int? = nil, column: Int? = nil, keyPath: String? = nil, _ message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.keyPath = keyPath
        self.message = message
    }

    /// `file:line:column: key.path: message`.
    public var description: String {
        var s = file
        if let line { s += ":\(line)" }
        if let column { s += ":\(column)" }
        s += ": "
        if let keyPath, !keyPath.isEmpty { s += "\(keyPath): " }
        return s + message
    }
}

/// A map that failed in a batch: its name, the stage, and why.
public struct MapFailure: Error, CustomStringConvertible, Sendable {
    /// The map's name ("composite" for the blending step).
    public var map: String
    /// The stage that failed, when one had started.
    public var stage: Stage?
    /// The stage's error.
    public var message: String

    public var description: String {
        "map '\(map)'" + (stage.map { ", \($0.rawValue) stage" } ?? "") + ": " + message
    }
}

/// A batch in which some maps failed; the others finished.
public struct BatchFailure: Error, CustomStringConvertible, Sendable {
    /// The maps that failed, in file order.
    public var failures: [MapFailure]
    /// The maps that finished (their outputs are intact).
    public var finished: [String]

    public var description: String {
        let names = failures.map { "'\($0.map)'" }.joined(separator: ", ")
        return "\(failures.count) of \(failures.count + finished.count) maps failed (\(names))"
            + (finished.isEmpty ? "" : "; finished and intact: \(finished.joined(separator: ", "))")
    }
}

/// A stage that cannot run: a missing recorded output, an unavailable feature.
public struct StageError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
