import Foundation
import Logging
import TegulaGeometry
import TegulaTestSupport
import TegulaTileset
import Testing

@testable import TegulaServer

/// A stranger's attribution reaches the viewer and TileJSON as text and plain http(s) links only
/// (issue 16); the attribution OpenStreetMap asks for survives unchanged.
struct AttributionHTMLTests {
    /// What may remain of any input: `<a href="…">` without `<`, `>` or `"` in the href, `</a>`,
    /// and text holding no `<` or `>`.
    static func holdsOnlyTextAndLinks(_ html: String) -> Bool {
        let links = html.replacingOccurrences(of: #"<a href="https?://[^"<>]*">"#, with: "", options: [.regularExpression, .caseInsensitive])
            .replacingOccurrences(of: "</a>", with: "")
        return !links.contains("<") && !links.contains(">") && !links.contains("\"")
    }

    @Test(arguments: [
        #"© <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors"#,
        #"&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors"#,
        #"<a href="http://example.org/a?b=1&amp;c=2">A &amp; B</a>, 1689"#,
        "G. van Schagen",
    ]) func ordinaryAttributionsSurviveUnchanged(html: String) {
        #expect(AttributionHTML.sanitized(html) == html)
    }

    @Test(arguments: [
        (#"<img src=x onerror=alert(1)>map"#, "map"),
        (#"<script>alert(1)</script>"#, "alert(1)"),
        (#"<b onmouseover=alert(3)>a</b>"#, "a"),
        (#"<a href="javascript:alert(1)">x</a>"#, "x"),
        (#"<a href="JaVaScRiPt:alert(1)">x</a>"#, "x"),
        (#"<a href=" javascript:alert(1)">x</a>"#, "x"),
        ("<a href=\"\t https://x\">y</a>", #"<a href="https://x">y</a>"#),
        (#"<a href="java&#115;cript:alert(1)">x</a>"#, "x"),
        (#"<a href="&#104;ttps://x">x</a>"#, "x"),
        (#"<a href="data:text/html,<script>alert(1)</script>">x</a>"#, "x"),
        (#"<a href="//evil.example/">x</a>"#, "x"),
        (#"<a>x</a>"#, "x"),
        (#"<a href="https://a.example/" onclick="alert(1)" target=_blank>A</a>"#, #"<a href="https://a.example/">A</a>"#),
        (#"<A ONCLICK='alert(1)' HREF=https://a.example/>A</A>"#, #"<a href="https://a.example/">A</a>"#),
        (#"<a href='https://x/"onmouseover=alert(1)'>y</a>"#, #"<a href="https://x/&quot;onmouseover=alert(1)">y</a>"#),
        (#"<a href="https://x/?a=1&b=2">y</a>"#, #"<a href="https://x/?a=1&amp;b=2">y</a>"#),
        (#"<a title=">" href="javascript:1">y</a>"#, "y"),
        (#"<a href="https://a">1<a href="https://b">2</a></a>"#, #"<a href="https://a">1</a><a href="https://b">2</a>"#),
        (#"<a href="https://x">open"#, #"<a href="https://x">open</a>"#),
        (#"x <a href="https://x"#, "x "),
        (#"<!-- <img src=x onerror=alert(1)> -->z"#, " --&gt;z"),
        ("1 < 2 & 3 > 2 \"q\" 'q'", "1 &lt; 2 &amp; 3 &gt; 2 &quot;q&quot; &#39;q&#39;"),
        ("</script><script>alert(2)</script><!--", "alert(2)"),
    ]) func markupIsDroppedAndLinksKeptPlain(html: String, expected: String) {
        let s = AttributionHTML.sanitized(html)
        #expect(s == expected, "\(html)")
        #expect(Self.holdsOnlyTextAndLinks(s), "\(s)")
    }

    /// Random strings of HTML's sharp characters: the output holds only text and links, and
    /// sanitising it again changes nothing.
    @Test func anyInputComesOutAsTextAndLinks() {
        let pieces = [
            "<", ">", "a", " ", "href", "=", "\"", "'", "https://x", "javascript:", "&", "#", ";", "/", "<a ", "</a>",
            "<a href=\"", "<img ", "onerror", "&amp;", "&#1", "\t", "é", "\u{0}",
        ]
        var rng = SeededRandom()
        for _ in 0..<3_000 {
            let input = (0..<Int.random(in: 0...30, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            let s = AttributionHTML.sanitized(input)
            #expect(Self.holdsOnlyTextAndLinks(s), "\(input.debugDescription) → \(s.debugDescription); \(rng.replay)")
            #expect(AttributionHTML.sanitized(s) == s, "\(input.debugDescription) → \(s.debugDescription); \(rng.replay)")
        }
    }

    /// A megabyte of unclosed tags is sanitised in linear time (each scalar scanned once).
    @Test func unclosedTagsDoNotMakeItQuadratic() {
        let input = String(repeating: "<a \"", count: 250_000)
        let start = ContinuousClock.now
        #expect(AttributionHTML.sanitized(input) == "")
        // Linear: about 0.1 s here; a scan of the rest per `<` would take hours.
        #expect(ContinuousClock.now - start < .seconds(20))
    }

    /// The viewer's catalogue and TileJSON carry the sanitised attribution.
    @Test func theViewerAndTileJSONGetTheSanitisedAttribution() throws {
        let dir = try TemporaryFolder.make("server-attribution").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let hostile =
            #"<img src=x onerror=alert(1)><a href="javascript:alert(2)">x</a> © <a href="https://www.openstreetmap.org/copyright" onclick="alert(3)">OSM</a>"#
        let clean = #"x © <a href="https://www.openstreetmap.org/copyright">OSM</a>"#
        let w = try Tileset.openWriter(at: dir + "/t")
        try w.write(Tile(x: 0, y: 0, z: 0), data: ServerFixtures.bytes("t", Tile(x: 0, y: 0, z: 0)))
        try w.finish(metadata: TilesetMetadata(name: "t", zooms: ZoomRange(min: 0, max: 0)!, attribution: hostile))
        let service = TileService(
            catalogue: try Catalogue.load(paths: [dir + "/t"]),
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        #expect(try JSONValue.parse(service.get("/t.json").body)["attribution"]?.stringValue == clean)
        let page = String(decoding: service.get("/").body, as: UTF8.self)
        let open = #"<script id="catalogue" type="application/json">"#
        let json = try #require(page.components(separatedBy: open).last?.components(separatedBy: "</script>").first)
        #expect(try JSONValue.parse(Array(json.utf8)).arrayValue?.first?["attribution"]?.stringValue == clean)
    }
}
