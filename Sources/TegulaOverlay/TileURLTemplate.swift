import Foundation
import TegulaGeometry

/// A parsed tile URL template: literal text and `{placeholders}`, checked once at creation so an
/// unknown placeholder is an error at init rather than a strange request to a server.
///
/// MapKit's set (`.mapKit`) is `{x}` `{y}` `{z}` `{scale}`; `{scale}` prints the path's
/// `contentScaleFactor` as `1` or `2`, with no decimals (MapKit leaves this undocumented; a
/// fractional factor prints its shortest form, e.g. `1.5`). The `.extended` set adds the
/// placeholders of Leaflet, OpenLayers, MapLibre and QGIS listed in ``Placeholder``.
public struct TileURLTemplate: Hashable, Sendable, CustomStringConvertible {
    /// One `{name}` a template may hold.
    public enum Placeholder: String, Hashable, Sendable, CaseIterable {
        /// Column (MapKit).
        case x
        /// Row in the overlay's numbering (MapKit).
        case y
        /// Zoom (MapKit).
        case z
        /// Content scale factor as `1` or `2` (MapKit).
        case scale
        /// The row flipped: `2^z − 1 − y` (Leaflet, OpenLayers `{-y}`).
        case flippedY = "-y"
        /// A subdomain chosen as `subdomains[(x + y) mod n]` (Leaflet `{s}`).
        case subdomain = "s"
        /// The Bing quadkey (QGIS `{q}`).
        case q
        /// The Bing quadkey (MapLibre `{quadkey}`).
        case quadkey
        /// `@2x` when the scale factor is above 1, else empty (Leaflet `{r}`).
        case retina = "r"
        /// Same as `{r}` (MapLibre `{ratio}`).
        case ratio
        /// The tile's EPSG:3857 box as `left,bottom,right,top` (MapLibre, for WMS).
        case bbox = "bbox-epsg-3857"

        /// The placeholders MapKit's `MKTileOverlay` fills.
        public static let mapKit: [Placeholder] = [.x, .y, .z, .scale]
    }

    /// Which placeholders a template may use.
    public enum PlaceholderSet: Hashable, Sendable {
        /// `{x}` `{y}` `{z}` `{scale}` only, as MapKit.
        case mapKit
        /// Every `Placeholder`; `{s}` picks from `subdomains`.
        case extended(subdomains: [String])

        var allowed: [Placeholder] {
            switch self {
            case .mapKit: return Placeholder.mapKit
            case .extended: return Placeholder.allCases
            }
        }
    }

    enum Part: Hashable, Sendable {
        case literal(String)
        case placeholder(Placeholder)
    }

    /// The template as written.
    public let string: String
    /// The placeholder set it was checked against.
    public let placeholders: PlaceholderSet
    let parts: [Part]

    /// Parses and checks a template; throws `.unknownPlaceholder`, `.unclosedPlaceholder` or
    /// `.missingSubdomains`.
    public init(_ string: String, placeholders: PlaceholderSet = .mapKit) throws(TileOverlayError) {
        self.string = string
        self.placeholders = placeholders
        let allowed = placeholders.allowed
        var parts: [Part] = []
        var literal = ""
        var chars = Array(string)
        var i = 0
        while i < chars.count {
            guard chars[i] == "{" else { literal.append(chars[i]); i += 1; continue }
            // A "{" before the next "}" means this one was never closed ("{z/{x}").
            guard let close = chars[(i + 1)...].firstIndex(where: { $0 == "}" || $0 == "{" }),
                chars[close] == "}"
            else {
                throw .unclosedPlaceholder(template: string, offset: i)
            }
            let name = String(chars[(i + 1)..<close])
            guard let p = Placeholder(rawValue: name), allowed.contains(p) else {
                throw .unknownPlaceholder(
                    name: name, template: string, offset: i,
                    allowed: allowed.map(\.rawValue))
            }
            if p == .subdomain, case let .extended(subdomains) = placeholders, subdomains.isEmpty {
                throw .missingSubdomains(template: string)
            }
            if !literal.isEmpty { parts.append(.literal(literal)); literal = "" }
            parts.append(.placeholder(p))
            i = close + 1
        }
        chars.removeAll()
        if !literal.isEmpty { parts.append(.literal(literal)) }
        self.parts = parts
    }

    /// The placeholders this template uses, in order of appearance.
    public var usedPlaceholders: [Placeholder] {
        parts.compactMap { if case let .placeholder(p) = $0 { return p } else { return nil } }
    }

    /// The template filled for a path whose `y` is in the numbering of a grid with `origin`
    /// (`.bottomLeft` for a flipped overlay); `{q}` and `{bbox-epsg-3857}` convert it back.
    public func fill(_ path: TileOverlayPath, origin: TileOrigin = .topLeft) -> String {
        var out = ""
        for part in parts {
            switch part {
            case let .literal(s): out += s
            case let .placeholder(p): out += value(of: p, for: path, origin: origin)
            }
        }
        return out
    }

    func value(of p: Placeholder, for path: TileOverlayPath, origin: TileOrigin) -> String {
        let tile = Tile(x: path.x, y: origin.xyzRow(forRow: path.y, zoom: path.z), z: path.z)
        switch p {
        case .x: return String(path.x)
        case .y: return String(path.y)
        case .z: return String(path.z)
        case .scale: return Self.format(scale: path.contentScaleFactor)
        case .flippedY: return String(TileOrigin.bottomLeft.row(forXYZRow: path.y, zoom: path.z))
        case .subdomain:
            guard case let .extended(subdomains) = placeholders, !subdomains.isEmpty else { return "" }
            return subdomains[abs(path.x + path.y) % subdomains.count]
        case .q, .quadkey: return tile.quadkey
        case .retina, .ratio: return path.contentScaleFactor > 1 ? "@\(Self.format(scale: path.contentScaleFactor))x" : ""
        case .bbox:
            let b = tile.projectedBounds
            return [b.left, b.bottom, b.right, b.top].map { String($0) }.joined(separator: ",")
        }
    }

    /// A scale factor as `{scale}` prints it: whole numbers without decimals (`2`, not `2.0`).
    public static func format(scale: Double) -> String {
        if scale.rounded() == scale, abs(scale) < 1e15 { return String(Int(scale)) }
        return String(scale)
    }

    public var description: String { string }
}
