import Foundation
import TegulaHTTP
import TegulaTileset

/// The viewer: an HTML page with the catalogue embedded, its script, and Leaflet read once at
/// start-up from Debian's libjs-leaflet (never a CDN). Assets are a fixed table by name. The page,
/// its style and script are files in `Pages/`, embedded in the binary by SwiftPM (`embedInCode`).
public struct ViewerAssets: Sendable {
    /// Where Debian's `libjs-leaflet` installs Leaflet.
    public static let debianLeaflet = "/usr/share/javascript/leaflet"

    /// One asset's bytes and type.
    public struct Asset: Sendable {
        public var contentType: String
        public var bytes: [UInt8]
    }

    /// The page at `/`.
    public let page: [UInt8]
    /// Assets by URL name: `viewer.js`, `leaflet/leaflet.js`, `leaflet/images/marker-icon.png`, …
    public let files: [String: Asset]
    /// The CRS of each tileset in another tile matrix set than WebMercatorQuad, by id, made once.
    let grids: [String: ViewerGrid]

    /// Builds the page for a catalogue and loads Leaflet from `leafletDirectory` (missing files
    /// are simply not served; nil: no Leaflet, only the page and its script).
    public init(catalogue: Catalogue, leafletDirectory: String?) {
        var files = leafletDirectory.map(Self.leaflet(in:)) ?? [:]
        files["viewer.js"] = Asset(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.viewer_js)
        files["viewer-crs.js"] = Asset(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.viewer_crs_js)
        self.files = files
        grids = ViewerGrid.all(catalogue)
        page = Array(Self.html(catalogue, grids: grids).utf8)
    }

    /// Leaflet's scripts, styles and images in `directory` (and its `images/`), by URL name
    /// (`leaflet/leaflet.js`, `leaflet/images/marker-icon.png`, …); missing files are left out.
    public static func leaflet(in directory: String) -> [String: Asset] {
        var files: [String: Asset] = [:]
        let types = ["js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8", "png": "image/png"]
        for sub in ["", "images/"] {
            let dir = directory + "/" + sub
            for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] {
                let ext = (name as NSString).pathExtension
                guard let type = types[ext], !name.hasSuffix(".map"),
                    let data = FileManager.default.contents(atPath: dir + name)
                else { continue }
                files["leaflet/" + sub + name] = Asset(contentType: type, bytes: [UInt8](data))
            }
        }
        return files
    }

    /// The page for `catalogue` now: the one built at start-up, or rebuilt when tiles made on
    /// request may have changed version (their tile URLs carry it).
    public func page(_ catalogue: Catalogue) -> [UInt8] {
        catalogue.entries.contains { $0.dynamic != nil } ? Array(Self.html(catalogue, grids: grids).utf8) : page
    }

    /// The viewer page (`Pages/viewer.html`) with its style (`Pages/viewer.css`) and slot for the
    /// catalogue.
    static let template = PageTemplate(PackageResources.viewer_html)
    static let style = String(decoding: PackageResources.viewer_css, as: UTF8.self)

    /// The page for catalogue `c`: the catalogue as JSON (``ViewerTileset``) in the page's
    /// `<script id="catalogue" type="application/json">` element.
    static func html(_ c: Catalogue, grids: [String: ViewerGrid] = [:]) -> String {
        template.filled(["style": style, "catalogue": ViewerTileset.scriptSafeJSON(c, grids: grids)])
    }
}
