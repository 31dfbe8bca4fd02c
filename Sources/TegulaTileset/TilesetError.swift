import TegulaSupport

/// Everything that can go wrong writing or reading a tileset; each message says what, where,
/// and what would be right.
public enum TilesetError: Error, CustomStringConvertible, Equatable {
    /// OUT exists and is not a tileset; it was left untouched.
    case notATileset(path: String, found: String)
    /// A path has no tileset form we know.
    case unknownForm(path: String)
    /// A file-system call failed: the call, its path and its `errno`, kept whole.
    case io(FileError)
    /// An SQLite call failed.
    case sqlite(path: String, call: String, message: String)
    /// The file is not a valid tileset of its kind.
    case corrupt(path: String, detail: String)
    /// A metadata field is missing or has the wrong form.
    case badMetadata(path: String, key: String, expected: String)
    /// A tile outside the pyramid (z 0…30, x and y below 2^z), or of the wrong format.
    case badTile(path: String, detail: String)
    /// The writer was used after `finish`.
    case finished(path: String)
    /// Another live process is writing OUT (it holds `lockFile`, with its pid when known).
    case locked(path: String, lockFile: String, pid: Int32?)
    /// The container cannot hold the format honestly (`auto` in MBTiles or PMTiles).
    case formatNotHeld(path: String, format: String, container: String)
    /// `resume` asked of an output written whole and renamed into place (a GeoPackage).
    case nothingToResume(path: String)

    /// One line: what, where, what would be right.
    public var description: String {
        switch self {
        case let .notATileset(path, found):
            return "\(path): exists and is not a tileset (\(found)); refusing to touch it — give a new path, "
                + "an empty folder, or a folder/.mbtiles/.pmtiles/.gpkg written by tegula"
        case let .unknownForm(path):
            return "\(path): not a tileset form — expected a folder, a *.mbtiles or a *.pmtiles file"
        case let .io(error):
            return error.description
        case let .sqlite(path, call, message):
            return "\(path): SQLite \(call) failed: \(message)"
        case let .corrupt(path, detail):
            return "\(path): not a valid tileset: \(detail)"
        case let .badMetadata(path, key, expected):
            return "\(path): metadata '\(key)' is missing or malformed; expected \(expected)"
        case let .badTile(path, detail):
            return "\(path): \(detail)"
        case let .finished(path):
            return "\(path): writer already finished; open a new writer (with resume) to add tiles"
        case let .locked(path, lockFile, pid):
            return "\(path): being written by \(pid.map { "process \($0)" } ?? "another process") (it holds \(lockFile)); "
                + "wait for it to finish or stop it, then rerun (with --resume to keep its tiles)"
        case let .formatNotHeld(path, format, container):
            return "\(path): \(container) declares one tile format per tileset, so it cannot hold \(format) "
                + "(JPEG and PNG mixed); write a folder, or choose jpg, png, png8 or webp"
        case let .nothingToResume(path):
            return "\(path): a GeoPackage is written whole and appears only when finished, so there is nothing to resume; "
                + "run again without --resume, or write a folder, .mbtiles or .pmtiles to resume"
        }
    }
}

/// The name ``TilesetError`` had before the tileset was called a tileset everywhere (issue 41).
@available(*, deprecated, renamed: "TilesetError")
public typealias BundleError = TilesetError
