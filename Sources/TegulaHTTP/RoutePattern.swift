/// The path part of a route (``HTTPRoute``): segments matched against a target's decoded segments
/// (``RequestTarget/segments``), and the form a 404 lists the route by. Written as an array of
/// segments, each a string literal (`["overlay", "{version}.json"]`) or a ``RouteSegment``
/// (`["leaflet", .rest()]`); `[]` is `/`. Matching is by shape alone (segment counts, literals,
/// suffixes): numbers and names are the route's handler to check, after its methods.
public struct RoutePattern: Sendable, Equatable, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// The segments, in order; a ``RouteSegment/rest(listed:)`` only last.
    public let segments: [RouteSegment]
    /// How many target segments a pattern without a rest matches (a tile counts 3); the fewest
    /// one with a rest does.
    public let fixedCount: Int
    @usableFromInline let hasRest: Bool
    /// Where each segment of the pattern starts among a matching target's segments (a tile
    /// takes three).
    let positions: [Int]
    /// Where the pattern's tile starts among a matching target's segments; nil without one.
    let tilePosition: Int?

    /// A pattern of `segments`.
    public init(_ segments: [RouteSegment]) {
        precondition(segments.dropLast().allSatisfy { if case .rest = $0 { false } else { true } }, "a rest segment comes last")
        self.segments = segments
        fixedCount = segments.reduce(0) { n, s in
            switch s {
            case .tile: n + 3
            case .rest: n
            case .literal, .parameter: n + 1
            }
        }
        hasRest = segments.last.map { if case .rest = $0 { true } else { false } } ?? false
        let positions = segments.indices.map { i in segments[..<i].reduce(0) { n, s in if case .tile = s { n + 3 } else { n + 1 } } }
        self.positions = positions
        tilePosition = segments.firstIndex { if case .tile = $0 { true } else { false } }.map { positions[$0] }
    }

    public init(arrayLiteral segments: RouteSegment...) { self.init(segments) }

    /// True when a target of `count` segments may match: exactly ``fixedCount`` of them, or at
    /// least as many before a rest.
    @inlinable
    public func admits(segmentCount count: Int) -> Bool { hasRest ? count >= fixedCount : count == fixedCount }

    /// True when the decoded segments `s` have this pattern's shape.
    @inlinable
    public func matches(_ s: [String]) -> Bool {
        guard admits(segmentCount: s.count) else { return false }
        var i = 0
        for segment in segments {
            switch segment {
            case .literal(let l):
                guard s[i] == l else { return false }
                i += 1
            case .parameter(_, let suffix):
                guard suffix.isEmpty || s[i].hasSuffix(suffix) else { return false }
                i += 1
            case .tile: i += 3
            case .rest: return true
            }
        }
        return true
    }

    /// The path as a 404 lists it: `/overlay/{version}.json`, `/leaflet/…`, `/`.
    public var description: String { "/" + segments.map(\.listed).joined(separator: "/") }
}

/// One segment of a ``RoutePattern``.
public enum RouteSegment: Sendable, Equatable, ExpressibleByStringLiteral {
    /// Exactly this segment.
    case literal(String)
    /// Any segment ending in `suffix` (any segment when it is empty); the part before the suffix is
    /// the parameter `name` (``RouteMatch/subscript(_:)``).
    case parameter(String, suffix: String)
    /// The three segments of a tile, `{z}/{x}/{y}[@2x].{ext}`, parsed by ``TilePath``
    /// (``RouteMatch/tile()``) once the route is chosen; `listed` is how a 404 names them.
    case tile(listed: String = "{z}/{x}/{y}[@2x].{ext}")
    /// The rest of the path: any number of segments, none included; `listed` is how a 404 names it.
    case rest(listed: String = "…")

    /// `{name}` or `{name}suffix` is a parameter, anything else a literal.
    public init(stringLiteral s: String) {
        if s.hasPrefix("{"), let close = s.firstIndex(of: "}") {
            self = .parameter(String(s[s.index(after: s.startIndex)..<close]), suffix: String(s[s.index(after: close)...]))
        } else {
            self = .literal(s)
        }
    }

    /// The segment as a 404 lists it.
    public var listed: String {
        switch self {
        case .literal(let l): l
        case let .parameter(name, suffix): "{\(name)}\(suffix)"
        case .tile(let listed), .rest(let listed): listed
        }
    }
}
