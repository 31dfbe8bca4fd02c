import TegulaHTTP

/// What follows `/iiif/{id}` in a request to the IIIF image server, and the routes that parse
/// it: the segment counts (1, 2 and 5 after `iiif`) differ from a tile's (3 or 4 after a tileset
/// id), so a tileset named `iiif` keeps its tiles. Apart from ``IIIFImageServer`` so that the
/// route parsers build without the server (scripts/fuzz's `route` target).
public enum IIIFImagePath: Equatable, Sendable {
    /// `/iiif/{id}`: redirected to its `info.json` (Image API 3.0 §2.2).
    case base
    /// `/iiif/{id}/info.json`.
    case info
    /// `{region}/{size}/{rotation}/{quality}.{format}`, as decoded segments.
    case image(region: String, size: String, rotation: String, file: String)

    /// The image server's routes: `iiif/{id}`, `iiif/{id}/info.json` and
    /// `iiif/{id}/{region}/{size}/{rotation}/{file}`, all GET and HEAD (`tegula serve` tries them
    /// before its own).
    public static let routes = RouteTable<(id: String, path: IIIFImagePath)>([
        HTTPRoute(["iiif", "{id}"]) { m in (m["id"], .base) },
        HTTPRoute(["iiif", "{id}", "info.json"]) { m in (m["id"], .info) },
        HTTPRoute(["iiif", "{id}", "{region}", "{size}", "{rotation}", "{file}"]) { m in
            (m["id"], .image(region: m["region"], size: m["size"], rotation: m["rotation"], file: m["file"]))
        },
    ])
}
