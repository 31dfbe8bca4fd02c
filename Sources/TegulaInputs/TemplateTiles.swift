import Foundation
import TegulaFetch
import TegulaGeometry
import TegulaIIIFSource
import TegulaSupport
import TegulaTileset

/// A tileset read over HTTP by a URL template, each tile fetched through the program's one
/// fetcher: a TileJSON's first `tiles` template with the document's bounds, zooms, tile size and
/// scale (``tileJSON(_:fetcher:)``; relative templates resolved against its URL; `{-y}` or
/// `"scheme": "tms"` counts rows from the bottom), or a bare XYZ template, which says neither
/// bounds nor zooms, with the bounds its caller gives (``template(_:bounds:zoom:fetcher:)``). A tile
/// answered 404 or 204 is missing.
struct TemplateTiles: TileReader {
    private(set) var metadata: TilesetMetadata
    let template: String
    let rowsFromBottom: Bool
    let fetcher: HTTPFetcher

    /// The largest TileJSON document and tile read.
    static let maxDocumentBytes = 4 << 20, maxTileBytes = 16 << 20

    /// The TileJSON at `url`, fetched and read; throws one line naming the URL when it is not one.
    static func tileJSON(_ url: String, fetcher: HTTPFetcher) throws -> TemplateTiles {
        guard let address = URL(string: url) else { throw InputError(.notATileset, at: url, "not a URL") }
        let answer = try Blocking.run { try await fetcher.get(address, maxBodyBytes: maxDocumentBytes) }
        guard answer.status == 200, !answer.isTruncated else {
            throw InputError(
                .notATileset, at: url,
                "answered \(answer.status)\(answer.isTruncated ? " with a body over 4 MB" : ""); give the URL of a tileset's TileJSON")
        }
        guard var o = (try? JSONValue.parse(answer.body))?.objectValue,
            let first = o["tiles"]?.arrayValue?.first?.stringValue,
            let resolved = URL(string: first, relativeTo: address)?.absoluteString
        else {
            throw InputError(.notATileset, at: url, "not a TileJSON (no \"tiles\" templates); give the URL of a tileset's TileJSON")
        }
        // TileJSON names no format; tiles are decoded by their bytes.
        if o["format"] == nil { o["format"] = .string("png") }
        let metadata = try TilesetMetadata(jsonObject: o, source: url)
        // The template's braces as written, not percent-encoded by URL.
        let template = resolved.replacingOccurrences(of: "%7B", with: "{").replacingOccurrences(of: "%7D", with: "}")
        return TemplateTiles(
            metadata: metadata, template: template,
            rowsFromBottom: template.contains("{-y}") || o["scheme"]?.stringValue == "tms", fetcher: fetcher)
    }

    /// True when `url` is an XYZ template: it holds `{z}`, `{x}` and `{y}` (or `{-y}`).
    static func isTemplate(_ url: String) -> Bool {
        url.contains("{z}") && url.contains("{x}") && (url.contains("{y}") || url.contains("{-y}"))
    }

    /// The deepest zoom a bare template is asked for.
    static let deepestZoom = 22

    /// A bare XYZ template over `bounds`, tiles of 256 pixels (what such a template serves; the
    /// tiles' own size is checked as they decode), at most at `zoom`: a template says not which
    /// zooms it serves, so its finest is the deepest from `zoom` down that holds the tile at the
    /// bounds' centre (one request a zoom); the zooms below it give the reduced copy. A template
    /// that holds that tile at no zoom is refused in one line.
    static func template(_ url: String, bounds: GeoBounds, zoom: Int, fetcher: HTTPFetcher) throws -> TemplateTiles {
        var tiles = TemplateTiles(
            metadata: TilesetMetadata(name: url, bounds: bounds, zooms: ZoomRange(min: 0, max: zoom)!), template: url,
            rowsFromBottom: url.contains("{-y}"), fetcher: fetcher)
        var z = zoom
        while try tiles.tile(TileGrid.tile(containing: bounds.center, zoom: z)) == nil {
            guard z > 0 else {
                throw InputError(
                    .notATileset, at: url,
                    "answers no tile at the centre of --reference-bounds (\(bounds)) at zooms 0–\(zoom); "
                        + "check the template and the bounds")
            }
            z -= 1
        }
        tiles.metadata.zooms = ZoomRange(min: 0, max: z)!
        return tiles
    }

    func tile(_ t: Tile) throws -> [UInt8]? {
        let row = rowsFromBottom ? t.tmsY : t.y
        let url = template.replacingOccurrences(of: "{z}", with: "\(t.z)").replacingOccurrences(of: "{x}", with: "\(t.x)")
            .replacingOccurrences(of: "{-y}", with: "\(row)").replacingOccurrences(of: "{y}", with: "\(row)")
        guard let address = URL(string: url) else { throw InputError(.notATileset, at: url, "not a URL (from the template \(template))") }
        let fetcher = fetcher
        let answer = try Blocking.run { try await fetcher.get(address, maxBodyBytes: Self.maxTileBytes) }
        switch answer.status {
        case 200: return answer.body
        case 204, 404: return nil
        default: throw InputError(.notATileset, at: url, "answered \(answer.status)")
        }
    }
}
