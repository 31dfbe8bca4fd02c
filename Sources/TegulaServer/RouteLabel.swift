/// The route a request took, as `/metrics` labels it: one value per kind of answer, so the label
/// set stays small whatever the targets are.
enum RouteLabel: Int, CaseIterable, Sendable {
    case tile, tileJSON, sheetIndex, viewer, asset, maps, health, metrics, iiif, wmts, ogcAPI, other

    /// The label value (`tile`, `tilejson`, …; `other` for malformed and unknown targets).
    var name: String {
        switch self {
        case .tile: return "tile"
        case .tileJSON: return "tilejson"
        case .sheetIndex: return "sheetindex"
        case .viewer: return "viewer"
        case .asset: return "asset"
        case .maps: return "maps"
        case .health: return "health"
        case .metrics: return "metrics"
        case .iiif: return "iiif"
        case .wmts: return "wmts"
        case .ogcAPI: return "ogcapi"
        case .other: return "other"
        }
    }

    /// The label of a parsed route.
    init(_ route: Route) {
        switch route {
        case .tile: self = .tile
        case .tileJSON: self = .tileJSON
        case .sheetIndex: self = .sheetIndex
        case .viewer: self = .viewer
        case .asset: self = .asset
        case .maps: self = .maps
        case .health: self = .health
        case .metrics: self = .metrics
        case .iiif: self = .iiif
        case .wmts: self = .wmts
        case .ogcAPI: self = .ogcAPI
        case .malformed, .notFound: self = .other
        }
    }
}
