import TegulaSupport

/// Everything that can go wrong in the pyramid stage, as one line that says what, where and what
/// would be right.
public typealias PyramidError = LocatedError<PyramidErrorReason>

/// The kinds of PyramidError, for callers and tests that branch on them.
public enum PyramidErrorReason: String, Sendable, Hashable {
    /// The zooms asked for are not a valid range, or the scan has no tile at them.
    case badZooms
    /// The zooms asked for would make more tile positions than one run may (``TileJob/maximumTilePositions``).
    case tooManyTiles
    /// The scan maps to nothing on the tile grid.
    case emptyFootprint
    /// A tile cannot be encoded.
    case encodeFailed
    /// A stream of tiles to build parents from is out of tile-id order, or holds a tile of the
    /// wrong size.
    case badTileStream
    /// The scan was deleted, replaced or rewritten while it was being tiled.
    case inputChanged
    /// `--resume` of an unfinished tileset begun from another scan, or with other settings.
    case resumeOfOtherWork
    /// A tile matrix set the output or the settings cannot hold (MBTiles or PMTiles, which are
    /// Web Mercator's alone; another tile size, a pixel ratio, TMS rows).
    case gridNotHeld
}
