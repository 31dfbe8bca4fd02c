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
