import Foundation
import TegulaBundle
import TegulaFetch
import TegulaGeometry
import TegulaIIIFSource

/// A tileset read over HTTP from its TileJSON URL (`tegula match --reference URL`): bounds, zooms,
/// tile size and scale from the document, each tile fetched through the program's one fetcher by
/// the document's first `tiles` template (relative templates resolved against the URL; `{-y}` or
/// `"scheme": "tms"` counts rows from the bottom). A tile answered 404 or 204 is missing.
struct TileJSONTiles: TileReader {
    let metadata: TilesetMetadata
    let template: String
    let rowsFromBottom: Bool
    let fetcher: HTTPFetcher

    /// The largest TileJSON document and tile read.
    static let maxDocumentBytes = 4 << 20, maxTileBytes = 16 << 20

    /// The TileJSON at `url`, fetched and read; throws one line naming the URL when it is not one.
    static func open(_ url: String, fetcher: HTTPFetcher) throws -> TileJSONTiles {
        guard let address = URL(string: url) else { throw CLIFailure(.badOption, at: url, "not a URL") }
        let answer = try Blocking.run { try await fetcher.get(address, maxBodyBytes: maxDocumentBytes) }
        guard answer.status == 200, !answer.isTruncated else {
            throw CLIFailure(.badOption, at: url, "answered \(answer.status)\(answer.isTruncated ? " with a body over 4 MB" : ""); give the URL of a tileset's TileJSON")
        }
        guard var o = (try? JSONValue.parse(answer.body))?.objectValue,
              let first = o["tiles"]?.arrayValue?.first?.stringValue,
              let resolved = URL(string: first, relativeTo: address)?.absoluteString else {
            throw CLIFailure(.badOption, at: url, "not a TileJSON (no \"tiles\" templates); give the URL of a tileset's TileJSON")
        }
        // TileJSON names no format; tiles are decoded by their bytes.
        if o["format"] == nil { o["format"] = .string("png") }
        let metadata = try TilesetMetadata(jsonObject: o, source: url)
        // The template's braces as written, not percent-encoded by URL.
        let template = resolved.replacingOccurrences(of: "%7B", with: "{").replacingOccurrences(of: "%7D", with: "}")
        return TileJSONTiles(metadata: metadata, template: template,
                             rowsFromBottom: template.contains("{-y}") || o["scheme"]?.stringValue == "tms", fetcher: fetcher)
    }

    func tile(_ t: Tile) throws -> [UInt8]? {
        let row = rowsFromBottom ? t.tmsY : t.y
        let url = template.replacingOccurrences(of: "{z}", with: "\(t.z)").replacingOccurrences(of: "{x}", with: "\(t.x)")
            .replacingOccurrences(of: "{-y}", with: "\(row)").replacingOccurrences(of: "{y}", with: "\(row)")
        guard let address = URL(string: url) else { throw CLIFailure(.badOption, at: url, "not a URL (from the TileJSON's template \(template))") }
        let fetcher = fetcher
        let answer = try Blocking.run { try await fetcher.get(address, maxBodyBytes: Self.maxTileBytes) }
        switch answer.status {
        case 200: return answer.body
        case 204, 404: return nil
        default: throw CLIFailure(.badOption, at: url, "answered \(answer.status)")
        }
    }
}
