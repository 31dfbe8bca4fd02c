import TegulaHTTP
import TegulaIIIFServer
import TegulaServer
import Testing

@testable import TegulaEditor

/// A ``RouteTable`` tries only the routes a target's segment count admits: the route it finds is
/// still the first of the whole table whose pattern matches (the rule written out here as a plain
/// scan), for rests before and after fixed routes and for targets longer than any pattern.
struct RouteDispatchTests {
    enum Hit: Equatable { case filesRest, fileOne, long, anything }

    static let table = RouteTable<Hit>([
        HTTPRoute(["files", .rest()]) { _ in .filesRest },
        HTTPRoute(["files", "{name}"]) { _ in .fileOne },
        HTTPRoute(["a", "b", "c", "d", "e", "f", "g"]) { _ in .long },
        HTTPRoute([.rest()]) { _ in .anything },
    ])

    static func hit(_ target: String) throws -> Hit? { try table.answer(try RequestTarget(target), raw: target) }

    @Test func aRestEarlierInTheTableStillWinsOverALaterFixedRoute() throws {
        #expect(try Self.hit("/files/x") == .filesRest)
        #expect(try Self.hit("/files") == .filesRest)
        #expect(try Self.hit("/files/a/b/c/d/e/f/g/h/i") == .filesRest)
        #expect(try Self.hit("/a/b/c/d/e/f/g") == .long)
        #expect(try Self.hit("/a/b/c/d/e/f/g/h") == .anything)
        #expect(try Self.hit("/") == .anything)
    }

    /// Every pattern of `tegula serve`'s, the image server's, the editor's and the tie editor's
    /// tables, written out as a target, one segment shorter and one longer: the table's route is
    /// the first route of the table whose pattern matches.
    @Test func everyServersTableFindsTheFirstMatchingRoute() {
        check(Route.table)
        check(IIIFImagePath.routes)
        check(EditorRoute.table)
        check(TieRoute.table)
    }

    func check<A>(_ table: RouteTable<A>, sourceLocation: SourceLocation = #_sourceLocation) {
        for segments in table.routes.flatMap({ Self.targets($0.pattern) }) {
            let first = table.routes.first { $0.pattern.matches(segments) }
            let found = table.route(segments)
            #expect(found?.pattern == first?.pattern && found?.listing == first?.listing, "\(segments)", sourceLocation: sourceLocation)
        }
    }

    /// A target of `pattern`'s shape (parameters as `p` and their suffix, a tile as `3/2/1.png`, a
    /// rest as two segments), and the same one segment shorter and one longer.
    static func targets(_ pattern: RoutePattern) -> [[String]] {
        let full = pattern.segments.flatMap { s -> [String] in
            switch s {
            case .literal(let l): [l]
            case .parameter(_, let suffix): ["p" + suffix]
            case .tile: ["3", "2", "1.png"]
            case .rest: ["r", "s"]
            }
        }
        return [full, Array(full.dropLast()), full + ["x"]]
    }
}
