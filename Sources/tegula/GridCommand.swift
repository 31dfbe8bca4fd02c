import ArgumentParser
import Foundation
import TegulaGeometry

/// `tegula grid`: Web Mercator tile arithmetic, answering like mercantile's CLI.
struct GridCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grid",
        abstract: "Web Mercator tile math (tiles, bounds, quadkeys, covers), and tile matrix sets in any CRS (custom).",
        discussion: """
            Every tile is printed as `Z X Y` in XYZ numbering (row 0 at the top). With no positional \
            arguments, `tile`, `bounds` and `quadkey` read one query per line from standard input and \
            answer one line per query, so they work in shell pipes.
            """,
        subcommands: [TileSub.self, BoundsSub.self, QuadkeySub.self, CoverSub.self, CustomSub.self],
        defaultSubcommand: CustomSub.self)

    struct TileSub: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tile", abstract: "The tile containing a point: prints `Z X Y`.",
            discussion: """
                Longitude exactly 180 belongs to the last column; latitudes beyond ±85.0511° clamp to \
                the first or last row. stdin form: `LON LAT ZOOM` per line.
                """)
        @Argument(parsing: .allUnrecognized, help: "Longitude, latitude (degrees) and zoom (0–30).")
        var values: [String] = []

        func run() throws {
            try answer(values, arity: 3, usage: "LON LAT ZOOM") { v in
                let lon = try number(v[0], "longitude"), lat = try number(v[1], "latitude")
                let z = try zoom(v[2])
                return TileGrid.tile(containing: Coordinate(longitude: lon, latitude: lat), zoom: z).description
            }
        }
    }

    struct BoundsSub: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "bounds", abstract: "A tile's bounds: prints `WEST SOUTH EAST NORTH`.",
            discussion: "In EPSG:3857 the order is LEFT BOTTOM RIGHT TOP. stdin form: `Z X Y` per line.")
        @Argument(help: "Zoom, column and row of the tile.")
        var values: [String] = []
        @Option(help: "EPSG:4326 (degrees, default) or EPSG:3857 (metres).")
        var srs: String = "EPSG:4326"

        func validate() throws {
            guard ["EPSG:4326", "EPSG:3857"].contains(srs.uppercased()) else {
                throw ValidationError("--srs must be EPSG:4326 or EPSG:3857, not '\(srs)'")
            }
        }

        func run() throws {
            let metres = srs.uppercased() == "EPSG:3857"
            try answer(values, arity: 3, usage: "Z X Y") { v in
                let t = try tile(v)
                return metres ? t.projectedBounds.description : t.bounds.description
            }
        }
    }

    struct QuadkeySub: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "quadkey", abstract: "Tile to quadkey (`Z X Y`) or quadkey to tile (`KEY`).",
            discussion: "Zoom 0's quadkey is the empty string. stdin form: one `Z X Y` or key per line.")
        @Argument(help: "Either Z X Y, or a quadkey of digits 0–3.")
        var values: [String] = []

        func run() throws {
            try answer(values, arity: nil, usage: "Z X Y or KEY") { v in
                switch v.count {
                case 3: return try tile(v).quadkey
                case 0: return Tile(x: 0, y: 0, z: 0).description
                case 1:
                    guard let t = Tile(quadkey: v[0]) else {
                        throw CLIFailure.notAQuadkey(v[0])
                    }
                    return t.description
                default:
                    throw CLIFailure.valueCount(v.count, expected: "Z X Y or a quadkey")
                }
            }
        }
    }

    struct CoverSub: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cover", abstract: "The tiles covering a box: one `Z X Y` per line.",
            discussion: "A box with WEST > EAST crosses the antimeridian and covers both sides.")
        @Option(parsing: .unconditional, help: "The box as WEST,SOUTH,EAST,NORTH in degrees.")
        var bbox: String
        @Option(help: "Zoom level (0–30).")
        var zoom: Int

        func run() throws {
            try reportingErrors {
                let parts = bbox.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 4 else {
                    throw CLIFailure.bboxForm(bbox)
                }
                let w = try number(parts[0], "west"), s = try number(parts[1], "south")
                let e = try number(parts[2], "east"), n = try number(parts[3], "north")
                guard s <= n else { throw CLIFailure.bboxSouthAboveNorth(south: s, north: n) }
                let z = try GridCommand.zoom(String(zoom))
                var out = ""
                for t in TileGrid.tiles(covering: GeoBounds(west: w, south: s, east: e, north: n), zoom: z) {
                    out += t.description + "\n"
                }
                FileHandle.standardOutput.write(Data(out.utf8))
            }
        }
    }

    // MARK: Shared parsing

    /// Answer the positional query, or one query per stdin line when there is none.
    static func answer(
        _ values: [String], arity: Int?, usage: String,
        _ body: ([String]) throws -> String
    ) throws {
        try reportingErrors {
            if !values.isEmpty {
                if let arity, values.count != arity {
                    throw CLIFailure.valueCount(values.count, expected: usage)
                }
                print(try body(values))
                return
            }
            var lineNumber = 0
            while let line = readLine() {
                lineNumber += 1
                let v = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }).map(String.init)
                if v.isEmpty && arity != nil { continue }
                if let arity, v.count != arity {
                    throw CLIFailure.badLine(lineNumber, line, expected: usage)
                }
                do {
                    print(try body(v))
                } catch let e as CLIFailure {
                    throw CLIFailure.onStdinLine(lineNumber, e)
                }
            }
        }
    }

    static func number(_ s: String, _ what: String) throws -> Double {
        guard let v = Double(s), v.isFinite else {
            throw CLIFailure.notANumber(s, what)
        }
        return v
    }

    static func zoom(_ s: String) throws -> Int {
        guard let z = Int(s), z >= 0, z <= WebMercator.maxZoom else {
            throw CLIFailure.badZoom(s, maxZoom: WebMercator.maxZoom)
        }
        return z
    }

    static func tile(_ v: [String]) throws -> Tile {
        let z = try zoom(v[0])
        guard let x = Int(v[1]), let y = Int(v[2]) else {
            throw CLIFailure.tileNotIntegers(v)
        }
        let t = Tile(x: x, y: y, z: z)
        guard t.isValid else {
            throw CLIFailure.tileOutsideGrid(t, zoom: z)
        }
        return t
    }
}

// Make the shared helpers callable unqualified inside the nested commands.
private func answer(
    _ values: [String], arity: Int?, usage: String,
    _ body: ([String]) throws -> String
) throws {
    try GridCommand.answer(values, arity: arity, usage: usage, body)
}
private func number(_ s: String, _ what: String) throws -> Double { try GridCommand.number(s, what) }
private func zoom(_ s: String) throws -> Int { try GridCommand.zoom(s) }
private func tile(_ v: [String]) throws -> Tile { try GridCommand.tile(v) }
