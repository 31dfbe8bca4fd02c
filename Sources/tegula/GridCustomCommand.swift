import ArgumentParser
import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaSupport

extension GridCommand {
    /// `tegula grid --tms-from EPSG:N --extent …` (or `tegula grid custom …`): a tile matrix set of
    /// one's own as a TMS 2.0 JSON document, the matrices morecantile's `TileMatrixSet.custom` makes.
    struct CustomSub: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "custom", abstract: "A tile matrix set over an extent in any CRS, as TMS 2.0 JSON.",
            discussion: """
                The default subcommand of `tegula grid`, so `tegula grid --tms-from EPSG:27700 --extent \
                0,0,700000,1300000` works. At zoom z the set has 2^z × 2^z tiles (times --matrix-scale) and \
                the cell size that fits the extent's longer side, from its top-left corner (or bottom-left), \
                as morecantile's TileMatrixSet.custom computes them.
                """)
        @Option(name: .customLong("tms-from"), help: "The CRS, e.g. EPSG:27700.")
        var crs: String
        @Option(parsing: .unconditional, help: "The grid's extent in that CRS, x/y order: MINX,MINY,MAXX,MAXY.")
        var extent: String
        @Option(help: "Zooms MIN-MAX (or one zoom).")
        var zoom: String = "0-24"
        @Option(help: "Tile width and height in pixels.")
        var tileSize: Int = 256
        @Option(help: "Tiles across and down at zoom 0, as COLUMNS,ROWS (2,1 for a whole-world geographic grid).")
        var matrixScale: String = "1,1"
        @Option(help: "Where rows are counted from: topLeft or bottomLeft.")
        var corner: String = "topLeft"
        @Option(help: "The set's id.")
        var id: String = "Custom"
        @Option(help: "The set's title.")
        var title: String?
        @Option(name: .shortAndLong, help: "Write the JSON to this file (default: standard output).")
        var output: String?

        func run() throws {
            try reportingErrors {
                let tms = try make()
                let json = try JSONStyle.readable.encode(tms) + Data("\n".utf8)
                if let output {
                    try AtomicFile.write([UInt8](json), to: output)
                } else {
                    FileHandle.standardOutput.write(json)
                }
            }
        }

        /// The set these options describe.
        func make() throws -> TileMatrixSet {
            let reference = try SpatialReference(crs)
            guard let uri = reference.ogcURI else { throw CLIFailure.crsWithoutCode(crs) }
            let facts = TileMatrixSet.CustomCRS(uri: uri, metersPerUnit: reference.metersPerUnit, axes: reference.axisAbbreviations)
            let box = try Self.numbers(extent, count: 4, option: "--extent", form: "MINX,MINY,MAXX,MAXY")
            guard box[0] < box[2], box[1] < box[3] else { throw CLIFailure.extentEmpty(extent) }
            let scale = try Self.numbers(matrixScale, count: 2, option: "--matrix-scale", form: "COLUMNS,ROWS")
            guard let columns = Int(exactly: scale[0]), let rows = Int(exactly: scale[1]), columns > 0, rows > 0 else {
                throw CLIFailure.badListOption("--matrix-scale", matrixScale, form: "two whole numbers above 0")
            }
            guard let zooms = ZoomRange(parsing: zoom) else { throw CLIFailure.badListOption("--zoom", zoom, form: "MIN-MAX or one zoom, 0–30") }
            guard let origin = TileMatrix.Corner(rawValue: corner) else {
                throw CLIFailure.badListOption("--corner", corner, form: "topLeft or bottomLeft")
            }
            guard (1...4096).contains(tileSize) else { throw CLIFailure.badListOption("--tile-size", "\(tileSize)", form: "1 to 4096 pixels") }
            return try TileMatrixSet.custom(
                extent: GridBounds(left: box[0], bottom: box[1], right: box[2], top: box[3]), crs: facts,
                zooms: zooms.min...zooms.max, tileWidth: tileSize, tileHeight: tileSize, matrixScale: (columns, rows),
                corner: origin, id: id, title: title)
        }

        /// `count` finite numbers separated by commas, or a failure naming the option.
        static func numbers(_ text: String, count: Int, option: String, form: String) throws -> [Double] {
            let values = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard values.count == count, values.allSatisfy({ $0?.isFinite == true }) else {
                throw CLIFailure.badListOption(option, text, form: form)
            }
            return values.map { $0! }
        }
    }
}

/// CustomSub's refusals, one constructor per message.
extension LocatedError where Reason == CLIFailureReason {
    /// `option` `text` is not of `form`.
    static func badListOption(_ option: String, _ text: String, form: String) -> CLIFailure {
        CLIFailure(.badValue, at: "\(option) '\(text)'", "expected \(form)")
    }

    /// `--extent` `text` has its minimum at or above its maximum.
    static func extentEmpty(_ text: String) -> CLIFailure {
        CLIFailure(.badValue, at: "--extent '\(text)'", "MINX must be below MAXX and MINY below MAXY")
    }

    /// `crs` has no authority code, which a tile matrix set's `crs` URI needs.
    static func crsWithoutCode(_ crs: String) -> CLIFailure {
        CLIFailure(.badValue, at: "--tms-from '\(crs)'", "PROJ finds no authority code for this CRS: give one such as EPSG:27700")
    }
}
