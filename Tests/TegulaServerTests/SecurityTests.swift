import Foundation
import TegulaGeometry
import Testing

@testable import TegulaServer

/// No request reads outside the tilesets, whatever the path.
struct SecurityTests {
    let f = ServerFixtures.shared

    static let attempts = [
        "/../../../../etc/passwd", "/blue/../schagen.json", "/blue/0/0/../../../secret.txt", "/%2e%2e/%2e%2e/etc/passwd",
        "/blue/%2e%2e/%2e%2e/secret.txt", "/blue/0/0/..%2f..%2f..%2fsecret.txt", "/blue/0/0%2f0/0.png",
        "/blue%2f0%2f0%2f0.png", "//etc/passwd", "/blue//0/0.png", "/blue/0/0/0.png%00", "/blue/0/0/0%00.png",
        "/blue/0/0/%00", "/blue/0/0/0.png\u{0}", "/%2fetc%2fpasswd", "/blue/0/0/%5c..%5csecret.txt", "/blue/./0/0/0.png",
        "/blue/0/0/%2e%2e%2fsecret.txt", "/leaflet/../secret.txt", "/leaflet/%2e%2e/secret.txt", "/blue/0/0/0.png%",
        "/blue/0/0/0.png%zz", "/blue/%ff%fe/0/0.png", "etc/passwd", "*", "http://evil/blue/0/0/0.png",
        "/leaflet/images/../../../../../etc/passwd", "/secret.txt", "/secret.json", "/..%2f..%2fsecret.json",
        // Double-encoded: decoded once, `%2e` is a plain name, never `.` (nothing decodes twice).
        "/%252e%252e/%252e%252e/etc/passwd", "/blue/0/0/%252e%252e%252fsecret.txt", "/blue%252f..%252fsecret.txt",
        "/%25252e%25252e/secret.txt", "/leaflet/%252e%252e/%252e%252e/secret.txt",
        // Backslashes, raw and encoded, as Windows-minded servers split on them.
        "/blue\\..\\..\\secret.txt", "/blue/0/0/..\\..\\..\\secret.txt", "/..\\secret.txt", "/%5c..%5csecret.txt",
        "/blue/0/0/%5C%2E%2E%5Csecret.txt", "/leaflet\\..\\secret.txt",
        // NUL in every position, raw and encoded.
        "/%00/../secret.txt", "/blue%00/0/0/0.png", "/secret.txt%00.png", "/\u{0}", "/blue/\u{0}/0/0.png",
        // Overlong UTF-8 and other encodings of '.' and '/' that lenient decoders accept.
        "/%c0%ae%c0%ae/secret.txt", "/%e0%80%ae%e0%80%ae/secret.txt", "/blue/0/0/%c0%af..%c0%afsecret.txt",
        "/%u002e%u002e/secret.txt", "/blue/0/0/%%32%65%%32%65/secret.txt",
    ]

    @Test(arguments: attempts) func traversalNeverReadsOutside(target: String) {
        let r = f.service().get(target)
        #expect([400, 404].contains(r.status), "\(target) → \(r.status)")
        #expect(!String(decoding: r.body, as: UTF8.self).contains("root:x"))
    }

    @Test func veryLongPathIs414() {
        let r = f.service().get("/blue/" + String(repeating: "a/", count: 2000) + "0.png")
        #expect(r.status == 414)
        #expect(f.service().get("/" + String(repeating: "9", count: 3000)).status == 414)
    }

    @Test func symlinkInsideTileFolderPointingOutsideIsNotRead() {
        let r = f.service().get("/blue/2/3/3.png")  // a symlink to ../secret.txt, planted by the fixtures
        #expect(r.status == 404)
        #expect(!String(decoding: r.body, as: UTF8.self).contains("root:x"))
    }

    @Test func tileJSONIgnoresHostileHostHeader() {
        let r = f.service().get("/blue.json", ["Host": "evil.example\"/><script>"])
        let json = String(decoding: r.body, as: UTF8.self)
        #expect(r.status == 200 && !json.contains("evil") && json.contains("\"/blue/{z}/{x}/{y}.png\""))
    }

    @Test func routeParserNeverAliases() {
        #expect(Route(target: "/blue/2/1/3.png") == .tile(.init(id: "blue", z: 2, x: 1, row: 3, origin: .topLeft, retina: false, ext: "png")))
        #expect(Route(target: "/blue/2/01/3.png") != Route(target: "/blue/2/1/3.png"))
        #expect(Route(target: "/b%6Cue/2/1/3.png") == Route(target: "/blue/2/1/3.png"))  // plain escapes are fine
        #expect(Route(target: "/my%20map.json") == .tileJSON(id: "my map"))
    }
}
