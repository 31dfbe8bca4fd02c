/// The zooms a command is asked for (`--zoom`): `auto`, chosen from the scan's native
/// resolution, or given zooms, `MIN-MAX` or one zoom (a ``ZoomRange``). Parsed once at the edge.
public enum ZoomSpec: Sendable, Hashable, CustomStringConvertible {
    /// Chosen from the scan.
    case auto
    /// These zooms.
    case zooms(ZoomRange)

    /// Why a text is not a zoom spec, and what would be: a reason to branch on and one line (the
    /// caller names the text and the option). Self-contained, as a type of a library product.
    public struct Failure: Error, CustomStringConvertible, Sendable, Equatable {
        /// The kinds of Failure.
        public enum Reason: String, Sendable, Hashable {
            /// `MIN-MAX` with MIN above MAX.
            case minAboveMax
            /// Neither `auto`, `MIN-MAX` nor one zoom from 0 to ``WebMercator/maxZoom``.
            case malformed
        }

        /// Which kind of failure.
        public var reason: Reason
        /// What was wrong and what would be right.
        public var description: String

        /// MIN is above MAX.
        public static var minAboveMax: Failure { Failure(reason: .minAboveMax, description: "MIN is above MAX") }

        /// Not a zoom spec at all.
        public static var malformed: Failure {
            Failure(reason: .malformed, description: "expected MIN-MAX (e.g. 2-8), one zoom, or auto; zooms 0–\(WebMercator.maxZoom)")
        }
    }

    /// Parse `auto`, `MIN-MAX` or one zoom; a ``Failure`` says what was wrong otherwise.
    public static func parse(_ text: String) throws -> ZoomSpec {
        if text == "auto" { return .auto }
        if let r = ZoomRange(parsing: text) { return .zooms(r) }
        let parts = text.split(separator: "-").compactMap { Int($0) }
        if parts.count == 2, parts[0] > parts[1], parts.allSatisfy(ZoomRange.isZoom) {
            throw Failure.minAboveMax
        }
        throw Failure.malformed
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
