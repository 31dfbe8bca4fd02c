import Foundation
import NIOCore
import TegulaGeometry
import TegulaTileset
import Testing

@testable import TegulaHTTP
@testable import TegulaServer

/// Tiles through the pure server function: statuses, headers, bytes.
struct TileRouteTests {
    let f = ServerFixtures.shared

    @Test func xyzTileWithEveryHeader() {
        let r = f.service().get("/blue/2/1/3.png")
        #expect(r.status == 200)
        #expect(r.body == ServerFixtures.bytes("blue", Tile(x: 1, y: 3, z: 2)))
        #expect(r.header("Content-Type") == "image/png")
        #expect(r.header("Content-Length") == String(r.body.count))
        #expect(r.header("Cache-Control") == "public, max-age=3600")
        #expect(r.header("Access-Control-Allow-Origin") == "*")
        #expect(r.header("Content-Encoding") == nil)  // images are never gzipped
        let tag = try! #require(r.header("ETag"))
        #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && !tag.hasPrefix("W/"))
        #expect(f.service().get("/blue/2/1/2.png").header("ETag") != tag)
    }

    @Test func mbtilesAndPMTilesTiles() {
        let s = f.service()
        let m = s.get("/schagen/4/7/5.png")
        #expect(m.status == 200 && m.body == ServerFixtures.bytes("schagen", Tile(x: 7, y: 5, z: 4)))
        let p = s.get("/retina/1/1/0@2x.png")
        #expect(p.status == 200 && p.body == ServerFixtures.bytes("retina", Tile(x: 1, y: 0, z: 1)))
    }

    @Test func tmsRouteFlipsRows() {
        let s = f.service()
        let r = s.get("/schagen/tms/4/7/10.png")  // 15 − 5
        #expect(r.status == 200 && r.body == ServerFixtures.bytes("schagen", Tile(x: 7, y: 5, z: 4)))
        #expect(s.get("/blue/tms/0/0/0.png").body == ServerFixtures.bytes("blue", Tile(x: 0, y: 0, z: 0)))
    }

    @Test func retinaNamesMustMatchTheTilesetScale() {
        let s = f.service()
        #expect(s.get("/retina/1/1/0.png").status == 404)
        #expect(s.get("/blue/1/1/0@2x.png").status == 404)
        #expect(s.get("/retina/tms/1/1/1@2x.png").status == 200)
    }

    @Test func conditionalGetGives304() {
        let s = f.service()
        let tag = s.get("/blue/1/0/1.png").header("ETag")!
        for inm in [tag, "W/\(tag)", "\"nope\", \(tag)", "*"] {
            let r = s.get("/blue/1/0/1.png", ["If-None-Match": inm])
            #expect(r.status == 304, "\(inm)")
            #expect(r.body.isEmpty && r.header("ETag") == tag && r.header("Cache-Control") != nil)
            #expect(r.header("Content-Length") == nil)
        }
        #expect(s.get("/blue/1/0/1.png", ["if-none-match": "\"other\""]).status == 200)
    }

    @Test func headHasHeadersButNoBody() {
        let s = f.service()
        let get = s.get("/schagen/3/3/2.png"), head = s.get("/schagen/3/3/2.png", method: "HEAD")
        #expect(head.status == 200 && head.body.isEmpty)
        #expect(head.header("Content-Length") == String(get.body.count))
        #expect(head.header("ETag") == get.header("ETag") && head.header("Content-Type") == "image/png")
    }

    @Test(arguments: ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE"]) func otherMethodsGive405(method: String) {
        let r = f.service().get("/blue/0/0/0.png", method: method)
        #expect(r.status == 405 && r.header("Allow") == "GET, HEAD")
    }

    @Test func missingInRangeTileIs404Or204() {
        let t = ServerFixtures.missing
        let path = "/schagen/\(t.z)/\(t.x)/\(t.y).png"
        let r404 = f.service().get(path)
        #expect(r404.status == 404 && r404.header("Cache-Control") != nil)
        let r204 = f.service(tiles: TileServerConfiguration(missingTile: .noContent)).get(path)
        #expect(r204.status == 204 && r204.body.isEmpty && r204.header("Content-Length") == nil)
        #expect(f.service().get("/schagen/4/0/0.png").status == 404)  // in zoom range, outside bounds
    }

    @Test(arguments: [
        "/nosuch/0/0/0.png", "/blue/0/0/0.jpg", "/blue/0/0/0.webp", "/blue/3/0/0.png", "/schagen/1/0/0.png",
        "/schagen/5/0/0.png", "/blue/0/0", "/blue/x/0/0/0.png", "/etc/passwd", "/blue.png",
    ]) func notFound(target: String) {
        #expect(f.service().get(target).status == 404, "\(target)")
    }

    @Test(arguments: [
        "/blue/1/2/0.png", "/blue/1/0/2.png", "/blue/2/-1/0.png", "/blue/-1/0/0.png", "/blue/2/01/1.png",
        "/blue/02/1/1.png", "/blue/2/+1/1.png", "/blue/2/1/1e0.png", "/blue/31/0/0.png", "/blue/99/0/0.png",
        "/blue/2/99999999999999999999/0.png", "/blue/2/1/1 .png", "/blue/2/0x1/1.png", "/blue/0/0/.png", "/blue/0/0/0",
    ]) func malformedOrOutOfRangeIs400(target: String) {
        let r = f.service().get(target)
        #expect(r.status == 400, "\(target) → \(r.status)")
        #expect(r.header("Content-Type") == "text/plain; charset=utf-8")
    }

    @Test func cacheControlAndCORSAreConfigurable() {
        let s = f.service(
            ServerConfiguration(corsOrigin: "https://maps.example.org"), tiles: TileServerConfiguration(cacheControl: "public, max-age=60, immutable")
        )
        let r = s.get("/blue/0/0/0.png")
        #expect(r.header("Cache-Control") == "public, max-age=60, immutable")
        #expect(r.header("Access-Control-Allow-Origin") == "https://maps.example.org" && r.header("Vary") == "Origin")
        let off = f.service(ServerConfiguration(corsOrigin: nil)).get("/blue/0/0/0.png")
        #expect(off.header("Access-Control-Allow-Origin") == nil)
    }
    @Test func cachedTilesAnswerLikeFreshOnes() {
        let s = f.service()
        let first = s.get("/blue/2/1/3.png"), again = s.get("/blue/2/1/3.png")
        #expect(first == again && first.status == 200)
        #expect(s.tileCache.count == 1 && s.tileCache.byteCount == first.body.count)
        #expect(s.get("/blue/2/1/3.png", ["If-None-Match": first.header("ETag")!]).status == 304)
        // Missing tiles are not cached; a zero budget caches nothing.
        let t = ServerFixtures.missing
        #expect(s.get("/schagen/\(t.z)/\(t.x)/\(t.y).png").status == 404 && s.tileCache.count == 1)
        let off = f.service(tiles: TileServerConfiguration(tileCacheBytes: 0))
        #expect(off.get("/blue/2/1/3.png") == first && off.tileCache.count == 0)
    }

    /// One cache: a hot tile's answer, from either path, is the very buffer the cache holds (no
    /// second copy per path), so `tileCacheBytes` bounds the memory tiles take.
    @Test func hotTileAnswersAreTheCachedBuffer() throws {
        let s = f.service(tiles: TileServerConfiguration(tileCacheBytes: 200))
        let request = ServerRequest(target: "/blue/2/1/3.png")
        let cold = s.respond(request)
        let entry = try #require(s.tileCache.entry(.init(id: "blue", tile: Tile(x: 1, y: 3, z: 2))))
        func address(_ b: ByteBuffer) -> UInt { b.withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) } }
        let hot = try #require(s.respondFromMemory(request))
        for r in [cold, s.respond(request), hot] {
            #expect(r.bodyBuffer.readableBytes == entry.buffer.readableBytes && address(r.bodyBuffer) == address(entry.buffer))
        }
        #expect(hot.body == ServerFixtures.bytes("blue", Tile(x: 1, y: 3, z: 2)))
        // Every tile of the folder served: the cache never holds more than its budget.
        for t in ServerFixtures.pyramid(0...2) where t != Tile(x: 3, y: 3, z: 2) {
            #expect(s.get("/blue/\(t.z)/\(t.x)/\(t.y).png").status == 200)
            #expect(s.tileCache.byteCount <= 200)
        }
        #expect(s.tileCache.count == 200 / 18 && s.tileCache.byteCount == 200 / 18 * 18)  // fixture tiles are 18 bytes
    }

    @Test func responseCacheEvictsOldestPastItsBudget() {
        let cache = TileResponseCache(byteBudget: 250)
        for x in 0..<3 {
            cache.insert(
                .init(body: [UInt8](repeating: UInt8(x), count: 100), etag: "\"\(x)\""),
                for: .init(id: "a", tile: Tile(x: x, y: 0, z: 2)))
        }
        #expect(cache.count == 2 && cache.byteCount == 200)
        #expect(cache.entry(.init(id: "a", tile: Tile(x: 0, y: 0, z: 2))) == nil)
        #expect(cache.entry(.init(id: "a", tile: Tile(x: 2, y: 0, z: 2)))?.body.first == 2)
    }
}
