import Foundation
import HTTPTypes
import TegulaEditor
import TegulaHTTP
import TegulaServer
import Testing

/// Routes declared once (house style 22): a ``RouteTable`` answers the lookup, and the 404's
/// listing and the 405's `Allow` and advice come from it, for a table of its own and for the
/// editor's, `tegula serve`'s and the image server's.
struct RouteTableTests {
    enum Page: Equatable { case home, file(String), item(String), tile(TilePath), save }

    static let table = RouteTable<Page>([
        HTTPRoute([]) { _ in .home },
        HTTPRoute(["files", .rest()]) { m in .file(m.path) },
        HTTPRoute(["items", "{id}.json"]) { m in .item(m["id"]) },
        HTTPRoute(["tiles", .tile(listed: "{z}/{x}/{y}.png")]) { m throws(ServerError) in .tile(try m.tile()) },
        HTTPRoute(["tiles", .rest()], listed: false) { _ throws(ServerError) in throw .malformedTarget(reason: "tiles are /tiles/{z}/{x}/{y}.png") },
        HTTPRoute(["api", "save"], [.get, .put, .post]) { _ in .save },
    ])

    static func answer(_ target: String) -> Result<Page, ServerError> { answer(.get, target) }

    static func answer(_ method: HTTPRequest.Method, _ target: String) -> Result<Page, ServerError> {
        Result { () throws(ServerError) in try table.answer(ServerRequest(method: method, target: target)) }
    }

    @Test func theFirstMatchingPatternAnswersWithItsParameters() throws {
        #expect(try Self.answer("/").get() == .home)
        #expect(try Self.answer("/files").get() == .file("files"))
        #expect(try Self.answer("/files/a/b.js").get() == .file("files/a/b.js"))
        #expect(try Self.answer("/items/my%20map.json").get() == .item("my map"))
        #expect(try Self.answer("/tiles/2/1/3@2x.png").get() == .tile(TilePath(z: 2, x: 1, y: 3, retina: true, fileExtension: "png")))
        #expect(try Self.answer(.head, "/tiles/0/0/0.png").get() == .tile(TilePath(z: 0, x: 0, y: 0, fileExtension: "png")))
        #expect(try Self.answer(.post, "/api/save").get() == .save)
    }

    @Test func refusalsComeInOrderWithTheirStatus() {
        #expect(Self.answer("/x/%zz").error?.status == .badRequest)  // the target parser first
        #expect(Self.answer(.post, "/nope").error?.status == .notFound)  // then the path
        #expect(Self.answer(.delete, "/tiles/99/0/0.png").error?.status == .methodNotAllowed)  // then the method
        #expect(Self.answer("/tiles/3/8/0.png").error?.message == "x and y must be below 2^z = 8")  // then the handler
        #expect(Self.answer("/tiles/3/8").error?.message == "tiles are /tiles/{z}/{x}/{y}.png")  // an unlisted refusal
        #expect(Self.answer("/items/a.txt").error?.status == .notFound)  // a suffix that does not match
    }

    @Test func the404ListsTheTablesListedRoutes() {
        let listing = "/, /files/…, /items/{id}.json, /tiles/{z}/{x}/{y}.png, GET /api/save, PUT /api/save, POST /api/save"
        #expect(Self.table.listing == listing)
        #expect(Self.answer("/nope").error?.message == "no such route: /nope; routes: " + listing)
    }

    @Test func the405AllowsWhatTheRouteTakes() {
        #expect(Self.table.allow(for: "/api/save?x=1") == "GET, PUT, POST")
        #expect(Self.table.allow(for: "/files/x") == "GET, HEAD")
        #expect(Self.table.allow(for: "/nope") == nil)
        #expect(Self.answer(.delete, "/api/save").error?.message == "DELETE is not allowed on /api/save: use GET or PUT or POST")
        #expect(Self.answer(.put, "/").error?.message == "PUT is not allowed on /: use GET")
        #expect(Self.table.methods == [.get, .head, .put, .post])
    }

    /// The editor's 404 lists its table, and its 405 carries the route's `Allow`.
    @Test func theEditorsRefusalsComeFromItsTable() async throws {
        let (editor, _) = try EditorAPITests.service()
        let missing = await editor.respond(ServerRequest(target: "/nope"), isCancelled: { false })
        #expect(missing.status == .notFound)
        #expect(
            String(decoding: missing.body, as: UTF8.self) == #"{"error":"no such route: /nope; routes: /, /editor.js, /scan-tiles.js, /editing.js, "#
                + #"/leaflet/…, /iiif/{id}/…, /overlay/{version}.json, /overlay/{version}/{z}/{x}/{y}.png, /basemap/…, GET /api/session, "#
                + #"PUT /api/session, POST /api/fit, GET /api/predict, GET /api/convert, /reference.json, /reference/{z}/{x}/{y}.png, "#
                + #"GET /api/suggest, GET /api/snap"}"#)
        let refused = await editor.respond(ServerRequest(method: .delete, target: "/api/session"), isCancelled: { false })
        #expect(refused.status == .methodNotAllowed && refused.headers[.allow] == "GET, PUT")
        #expect(String(decoding: refused.body, as: UTF8.self) == #"{"error":"DELETE is not allowed on /api/session: use GET or PUT"}"#)
    }

    /// `tegula serve` takes GET and HEAD on every target: its table's methods.
    @Test func theTileServersMethodsAreItsTables() {
        #expect(Route.methods == [.get, .head])
        let serve = TileService(catalogue: try! Catalogue([]), leafletDirectory: nil)
        let r = serve.respond(ServerRequest(method: .post, target: "/nope"))
        #expect(r.status == .methodNotAllowed && r.headers[.allow] == "GET, HEAD")
        #expect(String(decoding: r.body, as: UTF8.self) == "method POST not allowed; use GET or HEAD\n")
    }
}

extension Result {
    var error: Failure? {
        if case .failure(let e) = self { return e }
        return nil
    }
}
