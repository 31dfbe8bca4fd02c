/// What can stop the server from starting; each message says what, where and what would be right.
public enum ServerError: Error, CustomStringConvertible, Equatable {
    /// A PATH argument is neither a tileset nor a folder holding tilesets.
    case noTileset(path: String, reason: String)
    /// Two tilesets would get the same id.
    case duplicateID(id: String, first: String, second: String)
    /// Nothing to serve.
    case emptyCatalogue
    /// A bad option value.
    case badOption(name: String, value: String, expected: String)

    /// One line: what, where, what would be right.
    public var description: String {
        switch self {
        case let .noTileset(path, reason):
            return "\(path): not a tileset (\(reason)); give a tile folder with tiles.json, a *.mbtiles, a *.pmtiles, "
                + "or a folder holding them"
        case let .duplicateID(id, first, second):
            return "two tilesets have the id '\(id)' (\(first) and \(second)); rename one so ids (file names "
                + "without extension) are unique"
        case .emptyCatalogue:
            return "no tilesets found; give at least one tile folder, *.mbtiles or *.pmtiles"
        case let .badOption(name, value, expected):
            return "\(name) '\(value)' is invalid; expected \(expected)"
        }
    }
}
