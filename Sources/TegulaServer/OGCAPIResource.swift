import TegulaHTTP

/// What a path under `/ogcapi` asks for: OGC API – Tiles – Part 1: Core 1.0 (OGC 20-057), its
/// landing page, conformance, tile matrix sets, and each tileset as a collection with map
/// tiles. Under a prefix of its own because `/` is the viewer's page, and so that no tileset id
/// (`collections`, `conformance`) is taken from the tilesets.
public enum OGCAPIResource: Equatable, Sendable {
    /// `/ogcapi`.
    case landingPage
    /// `/ogcapi/conformance`.
    case conformance
    /// `/ogcapi/tileMatrixSets`.
    case tileMatrixSets
    /// `/ogcapi/tileMatrixSets/{tileMatrixSetId}`.
    case tileMatrixSet(String)
    /// `/ogcapi/collections`.
    case collections
    /// `/ogcapi/collections/{collectionId}`.
    case collection(String)
    /// `/ogcapi/collections/{collectionId}/map/tiles`: the tilesets list.
    case tilesets(collection: String)
    /// `/ogcapi/collections/{collectionId}/map/tiles/{tileMatrixSetId}`: the tileset's metadata.
    case tileset(collection: String, tileMatrixSet: String)
    /// `/ogcapi/collections/{collectionId}/map/tiles/{tileMatrixSetId}/{tileMatrix}/{tileRow}/{tileCol}`.
    case tile(collection: String, tileMatrixSet: String, tileMatrix: String, row: Int, column: Int)

    /// The first segment of every path.
    public static let prefix = "ogcapi"

    /// The routes, each its own pattern; a row or column that is not a plain decimal is malformed (400).
    static let routes: [HTTPRoute<OGCAPIResource>] = [
        HTTPRoute([.literal(prefix)]) { _ in .landingPage },
        HTTPRoute([.literal(prefix), "conformance"]) { _ in .conformance },
        HTTPRoute([.literal(prefix), "tileMatrixSets"]) { _ in .tileMatrixSets },
        HTTPRoute([.literal(prefix), "tileMatrixSets", "{set}"]) { m in .tileMatrixSet(m["set"]) },
        HTTPRoute([.literal(prefix), "collections"]) { _ in .collections },
        HTTPRoute([.literal(prefix), "collections", "{id}"]) { m in .collection(m["id"]) },
        HTTPRoute([.literal(prefix), "collections", "{id}", "map", "tiles"]) { m in .tilesets(collection: m["id"]) },
        HTTPRoute([.literal(prefix), "collections", "{id}", "map", "tiles", "{set}"]) { m in
            .tileset(collection: m["id"], tileMatrixSet: m["set"])
        },
        HTTPRoute([.literal(prefix), "collections", "{id}", "map", "tiles", "{set}", "{matrix}", "{row}", "{col}"]) {
            m throws(ServerError) in
            guard let row = RequestTarget.number(m["row"], maxDigits: 10), let col = RequestTarget.number(m["col"], maxDigits: 10) else {
                throw .malformedTarget(reason: "tileRow and tileCol must be plain decimal numbers")
            }
            return .tile(collection: m["id"], tileMatrixSet: m["set"], tileMatrix: m["matrix"], row: row, column: col)
        },
    ]
}
