import HTTPTypes
import TegulaGeometry
import TegulaHTTP
import TegulaSupport
import TegulaTileset

/// WMTS 1.0.0 and OGC API – Tiles: the same tiles as the XYZ paths (the one tile answer, its
/// cache, ETags and `--missing`), addressed by tile matrix set, matrix, row and column.
extension TileService {
    /// The answer to a WMTS request; refusals are `ows:ExceptionReport`s.
    func wmts(_ r: WMTSRequest, _ request: ServerRequest) -> ServerResponse {
        let served = ServedLayers(catalogue)
        switch r {
        case .capabilities:
            let doc = WMTSCapabilities(served: served, baseURL: baseURL(request)).document
            return cached(doc, type: "application/xml; charset=utf-8", request, cacheControl: "no-cache")
        case .refused(let e):
            return e.response
        case .tile(let t):
            do { return try wmtsTile(t, served, request) } catch { return error.response }
        }
    }

    /// A GetTile: the layer, style, format, set and matrix checked in that order, the row and
    /// column against the layer's limits (`TileOutOfRange`), then the tile.
    private func wmtsTile(_ t: WMTSTile, _ served: ServedLayers, _ request: ServerRequest) throws(OWSException) -> ServerResponse {
        guard let l = served[t.layer], WMTSCapabilities.describable(l.grid.tileMatrixSet) else {
            throw .invalid("layer", "no layer '\(t.layer)'; the capabilities list the layers")
        }
        guard t.style == WMTSCapabilities.style || t.style.isEmpty else {
            throw .invalid("style", "layer '\(t.layer)' has the style '\(WMTSCapabilities.style)' only")
        }
        let format = l.entry.metadata.format
        let accepted: Bool
        switch t.format {
        case .mediaType(let type): accepted = format.tileFormats.contains { $0.contentType == type }
        case .fileExtension(let ext): accepted = format.tileFormats.contains { $0.fileExtension == ext }
        }
        guard accepted else { throw .invalid("format", "layer '\(t.layer)' has \(format.contentType) tiles") }
        guard t.tileMatrixSet == l.setID else {
            throw .invalid("tilematrixset", "layer '\(t.layer)' is served in the tile matrix set \(l.setID)")
        }
        guard let zoom = Int(t.tileMatrix), let limits = l.grid.limits(zoom: zoom), "\(zoom)" == t.tileMatrix else {
            throw .invalid("tilematrix", "layer '\(t.layer)' has the tile matrices \(l.grid.limits.map { "\($0.zoom)" }.joined(separator: ", "))")
        }
        let row = l.grid.flippedRow(t.row, zoom: zoom)
        guard limits.rows.contains(row) else { throw OWSException(.tileOutOfRange, at: "tilerow", "row \(t.row) is outside the layer's limits") }
        guard limits.columns.contains(t.column) else {
            throw OWSException(.tileOutOfRange, at: "tilecol", "column \(t.column) is outside the layer's limits")
        }
        return gridTile(l, zoom: zoom, column: t.column, row: row, request)
    }

    /// The answer to an OGC API – Tiles request; refusals are JSON problems.
    func ogcAPI(_ r: OGCAPIResource, _ request: ServerRequest) -> ServerResponse {
        let served = ServedLayers(catalogue)
        let api = OGCAPITiles(served: served, baseURL: baseURL(request))
        switch r {
        case .landingPage: return json(api.landingPage, request)
        case .conformance: return json(api.conformance, request)
        case .tileMatrixSets: return json(api.tileMatrixSets, request)
        case .tileMatrixSet(let id):
            guard let set = served.set(id) else { return problem(.notFound, "no tile matrix set '\(id)'; /ogcapi/tileMatrixSets lists them") }
            return json(set, request)
        case .collections: return json(api.collections, request)
        case .collection(let id):
            guard let l = served[id] else { return noCollection(id) }
            return json(api.collection(l), request)
        case .tilesets(let id):
            guard let l = served[id] else { return noCollection(id) }
            return json(api.tilesets(l), request)
        case let .tileset(id, set):
            guard let l = served[id] else { return noCollection(id) }
            guard set == l.setID else { return problem(.notFound, "collection '\(id)' has map tiles in \(l.setID) only") }
            return json(api.tileset(l), request)
        case let .tile(id, set, matrix, row, column):
            guard let l = served[id] else { return noCollection(id) }
            guard set == l.setID else { return problem(.notFound, "collection '\(id)' has map tiles in \(l.setID) only") }
            guard let zoom = Int(matrix), "\(zoom)" == matrix, l.grid.covers(zoom: zoom, column: column, row: row) else {
                return problem(.notFound, "tile \(matrix)/\(row)/\(column) is outside the limits of '\(id)' in \(set)")
            }
            return gridTile(l, zoom: zoom, column: column, row: row, request)
        }
    }

    /// A tile by zoom, column and row as its set counts them, answered as the XYZ path answers it.
    private func gridTile(_ l: ServedLayers.Layer, zoom: Int, column: Int, row: Int, _ request: ServerRequest) -> ServerResponse {
        let m = l.entry.metadata
        let t = Route.TileRequest(
            id: l.entry.id, z: zoom, x: column, row: row, origin: .topLeft, retina: m.scale == 2, ext: m.format.fileExtension)
        return tile(t, request, reading: true, xyz: false)!
    }

    private func json(_ value: some Encodable, _ request: ServerRequest) -> ServerResponse {
        let body = (try? JSONStyle.compact.encode(value)).map(Array.init) ?? Array("{}".utf8)
        return cached(body, type: OGCAPITiles.json, request, cacheControl: "no-cache")
    }

    private func noCollection(_ id: String) -> ServerResponse { problem(.notFound, "no collection '\(id)'; /ogcapi/collections lists them") }

    /// A JSON problem (OGC API – Common's exception) with `status`.
    private func problem(_ status: HTTPResponse.Status, _ detail: String) -> ServerResponse {
        var r = ServerResponse.json(OGCAPITiles.Problem(title: status.reasonPhrase, status: status.code, detail: detail), status: status)
        r.headers[.xContentTypeOptions] = "nosniff"
        return r
    }
}
