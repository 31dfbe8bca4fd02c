import Foundation
import TegulaGeometry
import TegulaTileset

/// The JSON answers of `tegula serve`'s OGC API – Tiles (OGC 20-057, with the tileset metadata
/// and tile matrix sets of OGC 17-083r4, TMS 2.0): what each resource holds and the links the
/// requirements ask for (landing page: conformance, data, tiling schemes; a tileset: `self`,
/// its `tiling-scheme`, a templated `item` link with the tiles' media type, its `geodata`).
struct OGCAPITiles {
    /// The layers and their sets.
    let served: ServedLayers
    /// The base of every URL written (`http://host:port`, or `--public-url`), without the prefix.
    let baseURL: String

    /// A link (OGC API – Common `link.yaml`).
    struct Link: Encodable, Equatable {
        var href: String
        var rel: String
        var type: String?
        var title: String?
        var templated: Bool?
    }

    /// The link relations of OGC API (`http://www.opengis.net/def/rel/ogc/1.0/…`).
    enum Relation {
        static let ogc = "http://www.opengis.net/def/rel/ogc/1.0/"
        static let conformance = ogc + "conformance", data = ogc + "data", tilingSchemes = ogc + "tiling-schemes"
        static let tilingScheme = ogc + "tiling-scheme", tilesetsMap = ogc + "tilesets-map", geodata = ogc + "geodata"
    }

    static let json = "application/json"
    /// CRS84, the CRS of every geographic extent written.
    static let crs84 = "http://www.opengis.net/def/crs/OGC/1.3/CRS84"

    /// `{base}/ogcapi{path}`.
    func url(_ path: String) -> String { baseURL + "/" + OGCAPIResource.prefix + path }

    /// A path segment naming a tileset or set, percent-encoded (a `/` too).
    static func pathSegment(_ s: String) -> String {
        s.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? s
    }

    // MARK: Landing page and conformance

    struct LandingPage: Encodable {
        var title: String
        var description: String
        var links: [Link]
    }

    var landingPage: LandingPage {
        LandingPage(
            title: "tegula serve", description: "Scanned maps as map tiles: \(served.layers.count) tileset(s) in OGC API – Tiles.",
            links: [
                Link(href: url(""), rel: "self", type: Self.json, title: "This document"),
                Link(href: url("/conformance"), rel: Relation.conformance, type: Self.json, title: "Conformance classes"),
                Link(href: url("/collections"), rel: Relation.data, type: Self.json, title: "The tilesets as collections"),
                Link(href: url("/tileMatrixSets"), rel: Relation.tilingSchemes, type: Self.json, title: "The tile matrix sets used"),
                Link(
                    href: baseURL + "/wmts/1.0.0/WMTSCapabilities.xml", rel: "alternate", type: "application/xml",
                    title: "The same tiles by WMTS 1.0.0"),
            ])
    }

    struct Conformance: Encodable { var conformsTo: [String] }

    /// The classes served: Tiles core, tileset metadata, tilesets lists on collections, and the
    /// encodings of the tiles there are.
    var conformance: Conformance {
        let spec = "http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/"
        let formats = Set(served.layers.flatMap { $0.entry.metadata.format.tileFormats })
        var classes = ["core", "tileset", "tilesets-list", "geodata-tilesets"]
        if formats.contains(.png) || formats.contains(.png8) { classes.append("png") }
        if formats.contains(.jpeg) { classes.append("jpeg") }
        return Conformance(conformsTo: classes.map { spec + $0 })
    }

    // MARK: Tile matrix sets

    struct SetItem: Encodable {
        var id: String
        var title: String?
        var uri: String?
        var crs: String
        var links: [Link]
    }

    struct SetList: Encodable { var tileMatrixSets: [SetItem] }

    var tileMatrixSets: SetList {
        SetList(
            tileMatrixSets: served.sets.map { s in
                SetItem(id: s.id, title: s.title, uri: s.uri, crs: s.crs, links: [setLink(s.id, rel: "self")])
            })
    }

    func setLink(_ id: String, rel: String) -> Link {
        Link(href: url("/tileMatrixSets/" + Self.pathSegment(id)), rel: rel, type: Self.json, title: "Tile matrix set \(id)")
    }

    // MARK: Collections

    struct Collection: Encodable {
        var id: String
        var title: String
        var description: String?
        var dataType = "map"
        var links: [Link]
    }

    struct Collections: Encodable {
        var links: [Link]
        var collections: [Collection]
    }

    var collections: Collections {
        Collections(links: [Link(href: url("/collections"), rel: "self", type: Self.json)], collections: served.layers.map(collection))
    }

    /// A tileset as a collection. Without `extent`: the bundled schema's `extent-uad` takes its
    /// `spatial` member for an additional dimension, so no spatial extent validates; the
    /// tileset's metadata gives the box (`boundingBox`).
    func collection(_ l: ServedLayers.Layer) -> Collection {
        let m = l.entry.metadata, path = "/collections/" + Self.pathSegment(l.entry.id)
        return Collection(
            id: l.entry.id, title: m.name.isEmpty ? l.entry.id : m.name, description: m.description,
            links: [
                Link(href: url(path), rel: "self", type: Self.json),
                Link(href: url(path + "/map/tiles"), rel: Relation.tilesetsMap, type: Self.json, title: "Map tilesets"),
            ])
    }

    // MARK: Tilesets

    struct Limits: Encodable {
        var tileMatrix: String
        var minTileRow: Int
        var maxTileRow: Int
        var minTileCol: Int
        var maxTileCol: Int
    }

    struct BoundingBox: Encodable {
        var lowerLeft: [Double]
        var upperRight: [Double]
        var crs: String
    }

    /// A tileset's metadata (TMS 2.0 `tileSet.json`); in a list, without limits and bounds.
    struct Tileset: Encodable {
        var title: String
        var dataType = "map"
        var crs: String
        var tileMatrixSetURI: String?
        var mediaTypes: [String]?
        var boundingBox: BoundingBox?
        var tileMatrixSetLimits: [Limits]?
        var links: [Link]
    }

    struct TilesetList: Encodable {
        var links: [Link]
        var tilesets: [Tileset]
    }

    func tilesets(_ l: ServedLayers.Layer) -> TilesetList {
        let path = "/collections/" + Self.pathSegment(l.entry.id) + "/map/tiles"
        return TilesetList(links: [Link(href: url(path), rel: "self", type: Self.json)], tilesets: [tileset(l, full: false)])
    }

    /// The tileset's metadata: the full document, or (`full` false) the list's item.
    func tileset(_ l: ServedLayers.Layer, full: Bool = true) -> Tileset {
        let m = l.entry.metadata, b = m.bounds, set = l.grid.tileMatrixSet
        let collection = "/collections/" + Self.pathSegment(l.entry.id)
        let path = collection + "/map/tiles/" + Self.pathSegment(l.setID)
        var links = [
            Link(href: url(path), rel: "self", type: Self.json, title: "Tileset metadata"),
            setLink(l.setID, rel: Relation.tilingScheme),
        ]
        if full {
            links += [
                Link(
                    href: url(path + "/{tileMatrix}/{tileRow}/{tileCol}"), rel: "item", type: m.format.contentType, title: "Tiles",
                    templated: true),
                Link(href: url(collection), rel: Relation.geodata, type: Self.json, title: "The collection"),
            ]
        }
        return Tileset(
            title: m.name.isEmpty ? l.entry.id : m.name, crs: set.crs, tileMatrixSetURI: set.uri,
            mediaTypes: full ? [m.format.contentType] : nil,
            boundingBox: full ? BoundingBox(lowerLeft: [b.west, b.south], upperRight: [b.east, b.north], crs: Self.crs84) : nil,
            tileMatrixSetLimits: full
                ? l.grid.limits.map {
                    Limits(
                        tileMatrix: "\($0.zoom)", minTileRow: $0.rows.lowerBound, maxTileRow: $0.rows.upperBound,
                        minTileCol: $0.columns.lowerBound, maxTileCol: $0.columns.upperBound)
                } : nil,
            links: links)
    }

    /// An error as OGC API – Common answers it (RFC 7807's members, `exception.yaml`).
    struct Problem: Encodable {
        var type = "about:blank"
        var title: String
        var status: Int
        var detail: String
    }
}
