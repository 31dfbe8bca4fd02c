import HTTPTypes

/// A service's routes (``HTTPRoute``), in the order they are tried: the first whose pattern matches
/// a target's segments is its route. Everything a service says about its routes comes from here:
/// the lookup, the 404's listing (``listing``) and the 405's `Allow` and advice (``allow(for:)``).
///
/// The lookup tries only the routes a target's segment count admits (`bySegmentCount`), still
/// in table order: a tile of `tegula serve` is matched against its one route of four segments,
/// not after the two dozen IIIF, WMTS and OGC API ones (BENCHMARKS-archive.md, "The end of
/// issue 41").
public struct RouteTable<Answer>: Sendable {
    /// The routes, first match wins.
    public let routes: [HTTPRoute<Answer>]
    /// For each segment count up to the longest pattern's, the indices in ``routes`` of the routes
    /// that admit it (``RoutePattern/admits(segmentCount:)``), in table order; longer targets
    /// take ``byLongerCount``.
    @usableFromInline let bySegmentCount: [[Int]]
    /// The indices of the routes that end in a rest, which alone match a longer target.
    @usableFromInline let byLongerCount: [Int]

    /// A table of `routes`, tried in order.
    public init(_ routes: [HTTPRoute<Answer>]) {
        self.routes = routes
        let longest = routes.map(\.pattern.fixedCount).max() ?? 0
        bySegmentCount = (0...longest).map { n in routes.indices.filter { routes[$0].pattern.admits(segmentCount: n) } }
        byLongerCount = routes.indices.filter { routes[$0].pattern.admits(segmentCount: longest + 1) }
    }

    /// The first route whose pattern matches the decoded segments `s`.
    @inlinable
    public func route(_ s: [String]) -> HTTPRoute<Answer>? { index(s).map { routes[$0] } }

    /// The index in ``routes`` of the first route whose pattern matches the decoded segments `s`.
    @inlinable
    func index(_ s: [String]) -> Int? {
        let candidates = s.count < bySegmentCount.count ? bySegmentCount[s.count] : byLongerCount
        return candidates.first { routes[$0].pattern.matches(s) }
    }

    /// What a parsed target comes to by its path alone (methods are the caller's: `tegula serve`
    /// takes GET and HEAD everywhere); nil when no route matches.
    @inlinable
    public func answer(_ target: RequestTarget, raw: String) throws(ServerError) -> Answer? {
        guard let i = index(target.segments) else { return nil }
        return try routes[i].make(RouteMatch(target: target, raw: raw, pattern: routes[i].pattern))
    }

    /// What a request comes to, refused in this order: a malformed target (400, ``RequestTarget``),
    /// a path no route matches (404 with ``listing``), a method its route does not take (405; its
    /// `Allow` is ``allow(for:)``), what the route's handler refuses.
    public func answer(_ request: ServerRequest) throws(ServerError) -> Answer {
        let target = try RequestTarget(request.target)
        guard let r = route(target.segments) else {
            throw ServerError(.noRoute, "no such route: \(target.path); routes: \(listing)")
        }
        guard r.methods.contains(request.method) else {
            throw .methodNotAllowed(method: request.method, path: target.path, allowed: r.methods)
        }
        return try r.make(RouteMatch(target: target, raw: request.target, pattern: r.pattern))
    }

    /// Every listed route, as a 404 names them: `/, /editor.js, /leaflet/…, GET /api/session, …`.
    public var listing: String { routes.filter(\.listed).flatMap(\.listing).joined(separator: ", ") }

    /// The `Allow` value for `target`: its route's methods (`GET, PUT`); nil when no route matches.
    public func allow(for target: String) -> String? {
        guard let s = try? RequestTarget(target).segments, let r = route(s) else { return nil }
        return Self.allow(r.methods)
    }

    /// Every method some route takes, in table order: what a server whose routes all take the same
    /// methods refuses the others with, whatever the target.
    public var methods: [HTTPRequest.Method] {
        routes.flatMap(\.methods).reduce(into: []) { all, m in if !all.contains(m) { all.append(m) } }
    }

    /// Methods as `Allow` names them (RFC 9110 §10.2.1): `GET, HEAD`.
    public static func allow(_ methods: [HTTPRequest.Method]) -> String { methods.map(\.rawValue).joined(separator: ", ") }
}
