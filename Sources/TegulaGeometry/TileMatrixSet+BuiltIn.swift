import Foundation

/// The sets Tegula knows by name: the OGC documents morecantile ships (`TileMatrixSets/`, compiled
/// in), and WebMercatorQuad computed from ``WebMercator``'s constants.
extension TileMatrixSet {
    /// The names of the built-in sets, in alphabetical order.
    public static var builtInNames: [String] { builtInDocuments.keys.sorted() }

    /// The built-in set whose id is `name`, case-sensitive as morecantile's `tms.get`.
    /// `WebMercatorQuad` is ``webMercatorQuad``, whose numbers are Tegula's Web Mercator grid's; the
    /// others are decoded from their documents. For a person's `NAME|FILE.json`, ``init(argument:)``.
    public static func named(_ name: String) throws -> TileMatrixSet {
        guard builtInDocuments[name] != nil else {
            throw Failure(
                reason: .unknownName,
                description: "no built-in tile matrix set '\(name)'\(caseHint(name)): expected one of " + builtInNames.joined(separator: ", "))
        }
        if name == "WebMercatorQuad" { return webMercatorQuad }
        return try document(named: name)
    }

    /// ` (ids are case-sensitive: WebMercatorQuad?)` when `name` differs from a built-in id only by
    /// case; empty otherwise.
    static func caseHint(_ name: String) -> String {
        builtInNames.first { $0.lowercased() == name.lowercased() }.map { " (ids are case-sensitive: \($0)?)" } ?? ""
    }

    /// A built-in set decoded from its document exactly as shipped (for WebMercatorQuad, the
    /// OGC's rounded numbers, which ``named(_:)`` replaces by exact ones).
    public static func document(named name: String) throws -> TileMatrixSet {
        guard let bytes = builtInDocuments[name] else {
            throw Failure(reason: .unknownName, description: "no built-in tile matrix set document '\(name)'")
        }
        return try TileMatrixSet(json: Data(bytes))
    }

    /// The documents by set id.
    static let builtInDocuments: [String: [UInt8]] = [
        "CDB1GlobalGrid": PackageResources.CDB1GlobalGrid_json,
        "CanadianNAD83_LCC": PackageResources.CanadianNAD83_LCC_json,
        "EuropeanETRS89_LAEAQuad": PackageResources.EuropeanETRS89_LAEAQuad_json,
        "GNOSISGlobalGrid": PackageResources.GNOSISGlobalGrid_json,
        "LINZAntarticaMapTilegrid": PackageResources.LINZAntarticaMapTilegrid_json,
        "NZTM2000Quad": PackageResources.NZTM2000Quad_json,
        "UPSAntarcticWGS84Quad": PackageResources.UPSAntarcticWGS84Quad_json,
        "UPSArcticWGS84Quad": PackageResources.UPSArcticWGS84Quad_json,
        "UTM31WGS84Quad": PackageResources.UTM31WGS84Quad_json,
        "WGS1984Quad": PackageResources.WGS1984Quad_json,
        "WebMercatorQuad": PackageResources.WebMercatorQuad_json,
        "WorldCRS84Quad": PackageResources.WorldCRS84Quad_json,
        "WorldMercatorWGS84Quad": PackageResources.WorldMercatorWGS84Quad_json,
    ]

    /// Web Mercator's grid as a tile matrix set, zooms 0 to ``WebMercator/maxZoom``: origin
    /// (−halfCircumference, +halfCircumference), cellSize ``WebMercator/resolution(zoom:tileSize:)``,
    /// 2^z tiles of 256 px a side, so its tile bounds are ``Tile/projectedBounds``' to the bit.
    public static let webMercatorQuad: TileMatrixSet = {
        let h = WebMercator.halfCircumference
        let levels = (0...WebMercator.maxZoom).map { z in
            let cell = WebMercator.resolution(zoom: z)
            return TileMatrix(
                id: "\(z)", scaleDenominator: cell / 0.00028, cellSize: cell, cornerOfOrigin: .topLeft,
                pointOfOrigin: [-h, h], tileWidth: 256, tileHeight: 256, matrixWidth: 1 << z, matrixHeight: 1 << z)
        }
        return try! TileMatrixSet(
            id: "WebMercatorQuad", title: "Google Maps Compatible for the World",
            uri: "http://www.opengis.net/def/tilematrixset/OGC/1.0/WebMercatorQuad",
            crs: "http://www.opengis.net/def/crs/EPSG/0/3857", orderedAxes: ["X", "Y"],
            wellKnownScaleSet: "http://www.opengis.net/def/wkss/OGC/1.0/GoogleMapsCompatible",
            tileMatrices: levels)
    }()
}
