import Foundation
import TegulaGeometry

/// Every tileset of a catalogue as WMTS and OGC API – Tiles serve it: each in its grid
/// (``ServedGrid``), and the tile matrix sets those grids use, once each. Two tilesets whose
/// different sets carry one id (two custom `tms.json`) keep apart: the second is served as
/// `{id}-{tileset}`.
struct ServedLayers {
    /// One tileset and its grid, whose set has the id it is served under.
    struct Layer {
        let entry: CatalogueEntry
        let grid: ServedGrid
        /// The set's identifier in capabilities and paths.
        var setID: String { grid.tileMatrixSet.id }
    }

    /// In catalogue order.
    let layers: [Layer]
    /// The sets the layers use, each once, in order of first use.
    let sets: [TileMatrixSet]

    /// The layers of `catalogue`.
    init(_ catalogue: Catalogue) {
        var layers: [Layer] = [], sets: [TileMatrixSet] = []
        for e in catalogue.entries {
            var grid = ServedGrid(e)
            if let same = sets.first(where: { $0.id == grid.tileMatrixSet.id }), same != grid.tileMatrixSet {
                grid = grid.renamed(grid.tileMatrixSet.id + "-" + e.id)
            }
            if !sets.contains(grid.tileMatrixSet) { sets.append(grid.tileMatrixSet) }
            layers.append(Layer(entry: e, grid: grid))
        }
        self.layers = layers
        self.sets = sets
    }

    /// The layer of tileset `id`.
    subscript(id: String) -> Layer? { layers.first { $0.entry.id == id } }

    /// The set served as `id`.
    func set(_ id: String) -> TileMatrixSet? { sets.first { $0.id == id } }
}

extension TileMatrixSet {
    /// The set's CRS as a URN (`urn:ogc:def:crs:EPSG::3857`), as WMTS capabilities name it
    /// (07-057r7 §6.2.1, OGC 07-092r3): `http://www.opengis.net/def/crs/{authority}/{version}/{code}`
    /// rewritten, version `0` left empty; any other form as it is.
    public var crsURN: String { Self.urn(crs, kind: "crs") }

    /// The well-known scale set as a URN (`urn:ogc:def:wkss:OGC:1.0:GoogleMapsCompatible`).
    public var wellKnownScaleSetURN: String? { wellKnownScaleSet.map { Self.urn($0, kind: "wkss") } }

    /// `http://www.opengis.net/def/{kind}/A/V/C` as `urn:ogc:def:{kind}:A:V:C` (V `0` empty).
    static func urn(_ uri: String, kind: String) -> String {
        let prefix = "http://www.opengis.net/def/\(kind)/"
        guard uri.hasPrefix(prefix) else { return uri }
        let parts = uri.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return uri }
        return "urn:ogc:def:\(kind):\(parts[0]):\(parts[1] == "0" ? "" : parts[1]):\(parts[2])"
    }
}
