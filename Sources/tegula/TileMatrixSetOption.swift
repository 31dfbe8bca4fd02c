import ArgumentParser
import TegulaGeometry

/// `--tms NAME|FILE.json`: the tile matrix set a command works in, shared by `tile`, `warp` and
/// `serve`; each command's discussion says what the set is for there. Parsed once, by
/// `TileMatrixSet.init(argument:)`.
struct TileMatrixSetOption: ParsableArguments {
    @Option(
        name: .customLong("tms"),
        help: ArgumentHelp(
            "The tile matrix set (its grid and CRS) to work in: a built-in id (WebMercatorQuad, the default; WorldCRS84Quad, UTM31WGS84Quad, …) or a TMS 2.0 JSON file (tegula grid --tms-from writes one).",
            valueName: "NAME|FILE.json"),
        transform: TileMatrixSet.init(argument:))
    var tms: TileMatrixSet?
}
