import Foundation
import HTTPTypes
import TegulaEditor
import TegulaGeometry
import TegulaHTTP
import TegulaServer
import TegulaTileset
import Testing

/// The editor and `tegula serve` answer the same tile path the same way (issue 41, item 3): both
/// parse `{z}/{x}/{y}[@2x].{ext}` by the HTTP core's ``TilePath``, so each bad path is refused with
/// the same status and message by the editor's `/overlay/{version}/…` and by a `tegula serve`
/// tileset of the same format and scale. The tileset is named as the editor names an overlay in
/// its refusals (`overlay of fit VERSION`), so even the 404s of another extension or scale read the
/// same.
@Suite(.serialized)
struct TilePathAgreementTests {
    /// The bad tile paths `scripts/record-answers` asks both servers for (its `BAD_TILES`): numbers
    /// out of the grid, bad numbers, names and extensions, percent-encoding, dot segments, `@2x`;
    /// but `0/0/%30.png` and `0/0/0%2Epng`, which are tile 0/0/0 (plain escapes are fine).
    static let badPaths = [
        "0/1/0.png", "1/0/2.png", "3/8/0.png",
        "31/0/0.png", "99/0/0.png", "123/0/0.png",
        "01/0/0.png", "0/00/0.png", "0/0/-1.png", "0/0/+0.png", "0/0/0x1.png", "a/b/c.png",
        "0/0/99999999999.png", "0/0/0", "0/0/0.", "0/0/0.gif", "0/0/0.PNG", "0/0/0.png.png",
        "0%2F0/0.png", "0/0/0.png%", "0/0/0.png%zz",
        "../0/0/0.png", "0/../0/0.png", "./0/0/0.png", "0/0/0.png/", "0//0/0.png", "0/0/%2e%2e",
        "0/0/0@2x.png", "0/0/0@3x.png",
    ]

    /// A PNG tileset at scale 1 holding no tile: `tegula serve`'s side of the comparison.
    struct EmptyPNGTileset: TileReader {
        var metadata: TilesetMetadata { TilesetMetadata(name: "empty", format: .png, zooms: ZoomRange(min: 0, max: 22)!) }
        func tile(_ t: Tile) throws -> [UInt8]? { nil }
    }

    /// Status and message of a refusal (`400 zoom 99 is beyond 30`): the editor's JSON `error`, the
    /// tile server's plain text.
    static func refusal(_ r: ServerResponse) -> String {
        let body = Data(r.body)
        if r.headers[.contentType] == "application/json" {
            let error = (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["error"] as? String
            return "\(r.status.code) " + (error ?? "<no error in \(String(decoding: body, as: UTF8.self))>")
        }
        return "\(r.status.code) " + String(decoding: body, as: UTF8.self).trimmingCharacters(in: .newlines)
    }

    @Test func theEditorsOverlayAndTheTileServerRefuseTheSameBadTilePathsAlike() async throws {
        let (editor, _) = try EditorAPITests.service()
        let fitted = await editor.respond(
            ServerRequest(method: .post, target: "/api/fit", body: [UInt8](editor.current.json())),
            isCancelled: { false })
        let version = try #require(
            (try JSONSerialization.jsonObject(with: Data(fitted.body)) as? [String: Any])?["version"]
                as? String)
        let id = "overlay of fit \(version)"
        let serve = TileService(catalogue: try Catalogue([CatalogueEntry(id: id, path: "empty", reader: EmptyPNGTileset())]), leafletDirectory: nil)
        let served = "/" + id.replacingOccurrences(of: " ", with: "%20") + "/"
        for path in Self.badPaths {
            let fromEditor = Self.refusal(await editor.respond(ServerRequest(target: "/overlay/\(version)/" + path), isCancelled: { false }))
            let fromServe = Self.refusal(serve.respond(ServerRequest(target: served + path)))
            #expect(fromEditor == fromServe, "\(path): the editor answers \(fromEditor), tegula serve \(fromServe)")
            #expect(fromServe.hasPrefix("400 ") || fromServe.hasPrefix("404 "), "\(path) is not refused: \(fromServe)")
        }
        // Out of the grid is a 400 in both, with serve's message (the editor's was a 404 of its own).
        let outside = Self.refusal(await editor.respond(ServerRequest(target: "/overlay/\(version)/3/8/0.png"), isCancelled: { false }))
        #expect(outside == "400 x and y must be below 2^z = 8")
    }
}
