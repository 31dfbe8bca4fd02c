import Foundation
import TegulaGeometry

/// A worked example of custom indexing: tiles named by Bing-style quadkeys, as in
/// `https://ecn.t{s}.tiles.virtualearth.net/tiles/a{q}.jpeg`.
///
/// It overrides `url(forTilePath:)`, the hook MapKit documents for custom indexing: the quadkey
/// comes from the XYZ tile (so a flipped overlay still gets the right key), and `{s}` is chosen
/// by the quadkey's last digit, as Bing does, instead of the `(x + y) mod n` rule of Leaflet.
public final class QuadkeyTileOverlay: TileOverlay, @unchecked Sendable {
    /// Subdomains `{s}` picks from by the quadkey's last digit.
    public let subdomains: [String]

    /// An overlay on a template holding `{q}` or `{quadkey}`; it may also use `{s}` (with
    /// `subdomains`), `{z}`, `{scale}` and the rest of the extended set.
    public init(urlTemplate: String, subdomains: [String] = ["0", "1", "2", "3"]) throws(TileOverlayError) {
        let template = try TileURLTemplate(urlTemplate, placeholders: .extended(subdomains: subdomains))
        guard template.usedPlaceholders.contains(where: { $0 == .q || $0 == .quadkey }) else {
            throw .missingPlaceholder(template: urlTemplate, needed: ["q", "quadkey"])
        }
        self.subdomains = subdomains
        super.init(template: template)
    }

    /// The quadkey of the tile a path names.
    public func quadkey(for path: TileOverlayPath) -> String { tile(for: path).quadkey }

    /// The template filled with the path's quadkey, Bing's subdomain, and the other placeholders.
    override public func url(forTilePath path: TileOverlayPath) -> URL {
        guard let template else { return Self.noTemplateURL }
        let key = quadkey(for: path)
        var out = ""
        for part in template.parts {
            switch part {
            case let .literal(s): out += s
            case .placeholder(.q), .placeholder(.quadkey): out += key
            case .placeholder(.subdomain):
                let digit = key.last.flatMap { Int(String($0)) } ?? 0
                out += subdomains.isEmpty ? "" : subdomains[digit % subdomains.count]
            case let .placeholder(p): out += template.value(of: p, for: path, origin: origin)
            }
        }
        return URL(string: out) ?? Self.noTemplateURL
    }
}
