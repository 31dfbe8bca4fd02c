/// The zooms a command is asked for (`--zoom`): `auto`, chosen from the scan's native
/// resolution, or given zooms, `MIN-MAX` or one zoom (a ``ZoomRange``). Parsed once at the edge.
public enum ZoomSpec: Sendable, Hashable, CustomStringConvertible {
    /// Chosen from the scan.
    case auto
    /// These zooms.
    case zooms(ZoomRange)

    /// Why a text is not a zoom spec, and what would be.
    public struct Failure: Error, CustomStringConvertible, Sendable, Equatable {
        /// What was wrong and what would be right (the caller names the text and the option).
        public var description: String
    }

    /// Parse `auto`, `MIN-MAX` or one zoom; a ``Failure`` says what was wrong otherwise.
    public static func parse(_ text: String) throws -> ZoomSpec {
        if text == "auto" { return .auto }
        if let r = ZoomRange(parsing: text) { return .zooms(r) }
        let parts = text.split(separator: "-").compactMap { Int($0) }
        if parts.count == 2, parts[0] > parts[1], parts.allSatisfy(ZoomRange.isZoom) {
            throw Failure(description: "MIN is above MAX")
        }
        throw Failure(description: "expected MIN-MAX (e.g. 2-8), one zoom, or auto; zooms 0–\(WebMercator.maxZoom)")
    }

    /// The given zooms; nil for `auto`.
    public var range: ZoomRange? {
        if case .zooms(let r) = self { return r }
        return nil
    }

    /// `auto`, `MIN-MAX`, or one zoom.
    public var description: String {
        guard let r = range else { return "auto" }
        return r.min == r.max ? "\(r.min)" : r.description
    }
}
