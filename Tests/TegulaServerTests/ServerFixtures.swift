import Foundation
import HTTPTypes
import Logging
import TegulaGeometry
import TegulaTileset

@testable import TegulaHTTP
@testable import TegulaServer

/// Three small tilesets made by the bundle writers in a temp folder, and a service over them:
/// `blue` (folder, base layer, z0–2, world), `schagen.mbtiles` (overlay, z2–4, footprint + GCPs,
/// one tile missing), `retina.pmtiles` (scale 2, z0–1).
final class ServerFixtures: @unchecked Sendable {
    let dir: String
    let catalogue: Catalogue

    static let shared = try! ServerFixtures()

    /// Distinct bytes per tile and tileset (a PNG signature first, so sniffing works).
    static func bytes(_ name: String, _ t: Tile) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("\(name) \(t.z)/\(t.x)/\(t.y)".utf8)
    }

    static let footprint: JSONValue = .object([
        "type": .string("Polygon"),
        "coordinates": .array([
            .array(
                [[-30, 60], [30, 60.5], [30, 20], [-30.5, 20], [-30, 60]].map { .array($0.map(JSONValue.double)) })
        ]),
    ])

    /// A missing in-range tile of `schagen` (XYZ).
    static let missing = Tile(x: 8, y: 5, z: 4)

    init() throws {
        dir = NSTemporaryDirectory() + "tegula-server-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let blue = try Tileset.openWriter(at: dir + "/blue")
        for t in Self.pyramid(0...2) { try blue.write(t, data: Self.bytes("blue", t)) }
        try blue.finish(metadata: TilesetMetadata(name: "Blue Marble", zooms: ZoomRange(min: 0, max: 2)!, type: "baselayer"))

        let schagen = try Tileset.openWriter(at: dir + "/schagen.mbtiles")
        let bounds = GeoBounds(west: -30.5, south: 20, east: 30, north: 60.5)
        for t in Self.pyramid(2...4) where t != Self.missing && Self.intersects(t.bounds, bounds) {
            try schagen.write(t, data: Self.bytes("schagen", t))
        }
        try schagen.finish(
            metadata: TilesetMetadata(
                name: "Schagen 1689", bounds: bounds, zooms: ZoomRange(min: 2, max: 4)!, attribution: "G. van Schagen",
                extra: [
                    TilesetMetadata.footprintKey: Self.footprint,
                    TilesetMetadata.gcpsKey: .array([
                        .object([
                            "name": .string("NW"), "lon": .double(-30),
                            "lat": .double(60), "residual_m": .double(1234.5),
                        ])
                    ]),
                ]))

        let retina = try Tileset.openWriter(at: dir + "/retina.pmtiles", scale: 2)
        for t in Self.pyramid(0...1) { try retina.write(t, data: Self.bytes("retina", t)) }
        try retina.finish(metadata: TilesetMetadata(name: "Retina", zooms: ZoomRange(min: 0, max: 1)!, tileSize: 512, scale: 2))

        try Data("root:x:0:0:secret\n".utf8).write(to: URL(fileURLWithPath: dir + "/secret.txt"))
        try FileManager.default.removeItem(atPath: dir + "/blue/2/3/3.png")
        try FileManager.default.createSymbolicLink(atPath: dir + "/blue/2/3/3.png", withDestinationPath: dir + "/secret.txt")
        catalogue = try Catalogue.load(paths: [dir + "/blue", dir + "/schagen.mbtiles", dir + "/retina.pmtiles"])
    }

    static func pyramid(_ zooms: ClosedRange<Int>) -> [Tile] {
        zooms.flatMap { z in (0..<(1 << z)).flatMap { x in (0..<(1 << z)).map { Tile(x: x, y: $0, z: z) } } }
    }

    static func intersects(_ a: GeoBounds, _ b: GeoBounds) -> Bool {
        a.west < b.east && b.west < a.east && a.south < b.north && b.south < a.north
    }

    /// The tests' server configuration: the defaults but an idle deadline of an hour. Hummingbird's
    /// live test client keeps one connection for a whole test, and in a loaded CI run a pause
    /// between two of its requests outlasted the 60 s default: the server closed the connection
    /// and the next request failed with "I/O on closed channel" (stop 35, FastPathTests). The
    /// idle deadline's own tests set theirs (HostileClientTests).
    static let configuration = ServerConfiguration(idleTimeout: .seconds(3600))

    /// A service with options; requests are logged to `logger` (default: nowhere) and counted
    /// in `metrics` when given.
    func service(
        _ config: ServerConfiguration = ServerFixtures.configuration, tiles: TileServerConfiguration = TileServerConfiguration(),
        logger: Logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }, metrics: ServerMetrics? = nil
    ) -> TileService {
        TileService(catalogue: catalogue, configuration: config, tileConfiguration: tiles, logger: logger, metrics: metrics)
    }
}

extension TileService {
    /// GET (or another method) with optional headers.
    func get(_ target: String, method: String = "GET", _ headers: [String: String] = [:]) -> ServerResponse {
        respond(ServerRequest(method, target, headers))
    }
}

extension ServerRequest {
    /// A request from plain strings, as tests write them.
    init(_ method: String, _ target: String, _ headers: [String: String] = [:]) {
        var fields = HTTPFields()
        for (k, v) in headers { fields.append(HTTPField(name: HTTPField.Name(k)!, value: v)) }
        self.init(method: HTTPRequest.Method(method)!, target: target, headers: fields)
    }
}
