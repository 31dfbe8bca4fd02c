import Foundation

/// The one parser for a tile matrix set named by a person: `--tms NAME|FILE.json` on the command
/// line (`tile`, `warp`, `serve`, …) and `tile.tms:` in a pipeline file. Call it; don't write another.
extension TileMatrixSet {
    /// The set an argument names: a built-in set's id, exactly as morecantile spells it
    /// (`WebMercatorQuad`, `WorldCRS84Quad`, `UTM31WGS84Quad`; case-sensitive, as
    /// `morecantile.tms.get`), or else the path of a TMS 2.0 JSON file (`bng.json`, as
    /// `tegula grid --tms-from` writes one). A built-in id wins over a file of the same name.
    ///
    /// Throws one ``Failure`` line: `unknownName` (neither a built-in id nor a file; it lists the
    /// built-in ids and suggests the one that differs only by case), `unreadableFile`, or the
    /// document's own `malformed` / `zoomIdentifiers`, prefixed with the path.
    ///
    /// A relative path is read from the current directory: a pipeline resolves it against its own
    /// file first. On the command line, `@Option(transform: TileMatrixSet.init(argument:))`.
    public init(argument: String) throws {
        if Self.builtInDocuments[argument] != nil {
            self = try Self.named(argument)
        } else if FileManager.default.fileExists(atPath: argument) {
            self = try Self.read(file: argument)
        } else {
            throw Self.unknownArgument(argument)
        }
    }

    /// A set read from a TMS 2.0 JSON file, failures prefixed with its path.
    static func read(file path: String) throws -> TileMatrixSet {
        let bytes: Data
        do {
            bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw Failure(reason: .unreadableFile, description: "\(path): cannot be read (\(error.localizedDescription))")
        }
        do {
            return try TileMatrixSet(json: bytes)
        } catch let failure as Failure {
            throw Failure(reason: failure.reason, description: "\(path): \(failure.description)")
        }
    }

    /// `argument` names neither a built-in set nor a file: the ids there are, and the one that
    /// differs only by case if there is one.
    static func unknownArgument(_ argument: String) -> Failure {
        Failure(
            reason: .unknownName,
            description: "'\(argument)' is neither a built-in tile matrix set\(caseHint(argument)) nor a file: expected one of "
                + builtInNames.joined(separator: ", ") + ", or the path of a TMS 2.0 JSON file")
    }
}
