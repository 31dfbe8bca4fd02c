import HTTPTypes

/// One route of a Tegula server, declared once (house style 22, as Hummingbird's `RouterBuilder`):
/// its pattern, the methods it takes, and what a request on it comes to (a service's route case,
/// made from the match). A service's ``RouteTable`` of them answers the lookup, and the 404
/// listing and the 405 `Allow` are derived from it.
public struct HTTPRoute<Answer>: Sendable {
    /// The path it answers.
    public let pattern: RoutePattern
    /// The methods it takes, in the order `Allow` names them; HEAD follows GET where a route reads
    /// (``read``) and is never named in a 405's advice.
    public let methods: [HTTPRequest.Method]
    /// False for a route that only refuses (a clearer 400 for paths under a known prefix that match
    /// none of its routes): it is matched, but not listed as something to ask for.
    public let listed: Bool
    /// The answer of a request that matched, once its method is taken; throws the refusal of what
    /// the pattern cannot check (a number out of range: 400).
    @usableFromInline let make: @Sendable (RouteMatch) throws(ServerError) -> Answer

    /// GET with HEAD following it: what pages, files and tiles take.
    public static var read: [HTTPRequest.Method] { [.get, .head] }

    /// A route on `pattern` taking `methods` (GET and HEAD unless given), answered by `make`.
    public init(
        _ pattern: RoutePattern, _ methods: [HTTPRequest.Method] = read, listed: Bool = true,
        _ make: @escaping @Sendable (RouteMatch) throws(ServerError) -> Answer
    ) {
        self.pattern = pattern
        self.methods = methods
        self.listed = listed
        self.make = make
    }

    /// The same route answering `transform` of what it answered (another service's routes mounted
    /// in a table of its own).
    public func map<Other>(_ transform: @escaping @Sendable (Answer) -> Other) -> HTTPRoute<Other> {
        let make = self.make
        return HTTPRoute<Other>(pattern, methods, listed: listed) { m throws(ServerError) in transform(try make(m)) }
    }

    /// The route as a 404 lists it: the path alone for a route that reads, else `METHOD path` for
    /// each method (`GET /api/session, PUT /api/session`).
    public var listing: [String] {
        methods == Self.read ? [pattern.description] : methods.map { "\($0.rawValue) \(pattern.description)" }
    }
}

/// A target that matched a route's pattern: its segments and query, and the pattern's parameters
/// by name.
public struct RouteMatch: Sendable {
    /// The parsed target (its segments and query).
    public let target: RequestTarget
    /// The raw target as it came (path and query, still percent-encoded).
    public let raw: String
    @usableFromInline let pattern: RoutePattern

    @inlinable
    init(target: RequestTarget, raw: String, pattern: RoutePattern) {
        self.target = target
        self.raw = raw
        self.pattern = pattern
    }

    /// The decoded path segments.
    public var segments: [String] { target.segments }

    /// The parameter `name` of the pattern: its segment without the suffix the pattern names.
    public subscript(_ name: String) -> String {
        for (i, segment) in pattern.segments.enumerated() {
            if case let .parameter(n, suffix) = segment, n == name {
                let s = target.segments[pattern.positions[i]]
                return suffix.isEmpty ? s : String(s.dropLast(suffix.count))
            }
        }
        preconditionFailure("the pattern \(pattern) has no parameter \(name)")
    }

    /// The pattern's tile, parsed by ``TilePath``'s rule; throws its 400.
    public func tile() throws(ServerError) -> TilePath {
        guard let p = pattern.tilePosition else { preconditionFailure("the pattern \(pattern) has no tile") }
        let s = target.segments
        return try TilePath(z: s[p], x: s[p + 1], file: s[p + 2])
    }

    /// The path as decoded segments joined by `/`, without the leading `/` (`leaflet/leaflet.js`).
    public var path: String { segments.joined(separator: "/") }
}
