import Foundation
import TegulaSupport
import Testing

@testable import TegulaIIIF

/// The info.json model and the request grammar against the Image API's own examples and the
/// tile names `iiif_static.py` writes (reference-iiif.md §14).
struct IIIFModelTests {
    /// Image API 2.1 §5.6's example: level 2 in a profile URI, tiles without a height.
    static let spec21 = """
        {
          "@context" : "http://iiif.io/api/image/2/context.json",
          "@id" : "http://www.example.org/image-service/abcd1234/1E34750D-38DB-4825-A38A-B60A345E591C",
          "protocol" : "http://iiif.io/api/image",
          "width" : 6000,
          "height" : 4000,
          "sizes" : [
            {"width" : 150, "height" : 100},
            {"width" : 600, "height" : 400},
            {"width" : 3000, "height": 2000}
          ],
          "tiles": [
            {"width" : 512, "scaleFactors" : [1,2,4,8,16]}
          ],
          "profile" : [ "http://iiif.io/api/image/2/level2.json" ]
        }
        """

    /// Modelled on Image API 3.0 §5.9's complete response: an extension context first, limits,
    /// two tile grids, extras (one feature named by a URI of the server's own).
    static let spec30 = """
        {
          "@context": ["http://example.org/extension/context1.json", "http://iiif.io/api/image/3/context.json"],
          "id": "https://example.org/image-service/abcd1234/1E34750D-38DB-4825-A38A-B60A345E591C",
          "type": "ImageService3",
          "protocol": "http://iiif.io/api/image",
          "profile": "level1",
          "width": 6000,
          "height": 4000,
          "maxHeight": 2000,
          "maxWidth": 3000,
          "maxArea": 4000000,
          "sizes": [{"width": 150, "height": 100}, {"width": 600, "height": 400}, {"width": 3000, "height": 2000}],
          "tiles": [{"width": 512, "scaleFactors": [1, 2, 4]}, {"width": 1024, "height": 2048, "scaleFactors": [8, 16]}],
          "rights": "http://rightsstatements.org/vocab/InC-EDU/1.0/",
          "preferredFormats": ["png", "gif"],
          "extraFormats": ["png", "gif", "pdf"],
          "extraQualities": ["color", "gray"],
          "extraFeatures": ["canonicalLinkHeader", "rotationArbitrary", "profileLinkHeader", "http://example.com/feature/"]
        }
        """

    /// What `iiif_static.py -t 256 -a 2.1` writes for a 1165 × 3185 scan (its profile object
    /// lists formats and qualities; level 0 implies nothing else).
    static let static21 = """
        {"@context": "http://iiif.io/api/image/2/context.json", "@id": "http://127.0.0.1:8000/iiif/scan",
         "height": 3185, "profile": ["http://iiif.io/api/image/2/level0.json", {"formats": ["jpg"], "qualities": ["default"]}],
         "protocol": "http://iiif.io/api/image", "sizes": [{"height": 199, "width": 73}, {"height": 100, "width": 36}],
         "tiles": [{"height": 256, "scaleFactors": [1, 2, 4, 8], "width": 256}], "width": 1165}
        """

    static func info(_ json: String) throws(IIIFError) -> IIIFImageInfo { try IIIFImageInfo.decode(Array(json.utf8), from: "https://x/info.json") }

    @Test func theSpec21ExampleDecodesAsLevelTwoWithSquareTilesAndPNG() throws {
        let i = try Self.info(Self.spec21)
        #expect(i.version == .v2 && i.level == .level2)
        #expect(i.id == "http://www.example.org/image-service/abcd1234/1E34750D-38DB-4825-A38A-B60A345E591C")
        #expect(i.width == 6000 && i.height == 4000)
        #expect(i.tiles == [IIIFTileSet(width: 512, height: 512, scaleFactors: [1, 2, 4, 8, 16])])
        #expect(i.sizes.map(\.width) == [150, 600, 3000] && i.sizes.map(\.height) == [100, 400, 2000])
        #expect(i.formats == [.jpg, .png], "level 2 implies png")
        #expect(i.maxWidth == nil && i.maxArea == nil)
        #expect(i.features.isSuperset(of: [.regionByPct, .sizeByConfinedWh]))
    }

    @Test func theSpec30CompleteResponseDecodesLimitsGridsAndExtras() throws {
        let i = try Self.info(Self.spec30)
        #expect(i.version == .v3 && i.level == .level1)
        #expect(i.maxWidth == 3000 && i.maxHeight == 2000 && i.maxArea == 4_000_000)
        #expect(i.tiles == [IIIFTileSet(width: 512, scaleFactors: [1, 2, 4]), IIIFTileSet(width: 1024, height: 2048, scaleFactors: [8, 16])])
        #expect(i.formats == [.jpg, .png, .gif, .pdf])
        #expect(i.preferredFormats == [.png, .gif])
        #expect(i.qualities == [.default, .color, .gray])
        #expect(i.features.contains(.rotationArbitrary) && i.features.contains(.regionByPx) && !i.features.contains(.regionByPct))
    }

    @Test func iiifStaticsLevelZeroDescriptionDecodesWithItsProfileObject() throws {
        let i = try Self.info(Self.static21)
        #expect(i.version == .v2 && i.level == .level0 && i.formats == [.jpg] && i.features.isEmpty)
        #expect(i.tiles == [IIIFTileSet(width: 256, scaleFactors: [1, 2, 4, 8])])
    }

    @Test func aDescriptionEncodesAsImageAPI30AndDecodesBackEqual() throws {
        let two = try Self.info(Self.spec21)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(two.json())) as? [String: Any])
        #expect(json["@context"] as? String == "http://iiif.io/api/image/3/context.json")
        #expect(json["id"] as? String == two.id && json["@id"] == nil)
        #expect(json["type"] as? String == "ImageService3" && json["profile"] as? String == "level2")
        #expect(json["extraFormats"] == nil, "png is level 2's own")
        var back = try IIIFImageInfo.decode(two.json(), from: "round trip")
        back.version = .v2
        #expect(back == two)
        let three = try Self.info(Self.spec30)
        #expect(try IIIFImageInfo.decode(three.json(), from: "round trip") == three)
        let extras = try #require(try JSONSerialization.jsonObject(with: Data(three.json())) as? [String: Any])
        #expect(extras["extraFormats"] as? [String] == ["png", "gif", "pdf"])
        #expect(extras["extraFeatures"] as? [String] == ["canonicalLinkHeader", "profileLinkHeader", "rotationArbitrary"])
        #expect(extras["maxHeight"] as? Int == 2000)
    }

    /// Each broken description is refused in one line that names the key and what would be right.
    @Test(arguments: [
        (#"{"@context": "http://iiif.io/api/image/3/context.json", "id": "https://x/a", "profile": "level0", "height": 5}"#, "width", "missing"),
        (
            #"{"@context": "http://iiif.io/api/image/3/context.json", "id": "https://x/a", "profile": "level9", "width": 5, "height": 5}"#, "profile",
            "level0, level1 or level2"
        ),
        (
            #"{"@context": "http://iiif.io/api/image/3/context.json", "id": "https://x/a", "profile": "level0", "width": 5, "height": 5, "tiles": [{"width": 0, "scaleFactors": [1]}]}"#,
            "tiles[0]", "1 to 65536"
        ),
        (
            #"{"@context": "http://iiif.io/api/image/3/context.json", "id": "https://x/a", "profile": "level0", "width": 5, "height": 5, "tiles": [{"width": 256, "scaleFactors": [1, 0]}]}"#,
            "tiles[0]", "whole numbers from 1"
        ),
        (
            #"{"@context": "http://iiif.io/api/image/3/context.json", "id": "https://x/a", "profile": "level1", "width": 5, "height": 5, "extraFormats": ["bmp"]}"#,
            "extraFormats", "unknown format 'bmp'"
        ),
        (
            #"{"@context": "http://library.stanford.edu/iiif/image-api/1.1/context.json", "@id": "https://x/a", "profile": "x", "width": 5, "height": 5}"#,
            "@context", "image/3/context.json"
        ),
        (
            #"{"@context": "http://iiif.io/api/image/2/context.json", "@id": "https://x/a", "profile": ["http://iiif.io/api/image/2/level0.json"], "width": -5, "height": 5}"#,
            "width", "positive"
        ),
        (
            #"{"@context": "http://iiif.io/api/image/2/context.json", "@id": "https://x/a", "profile": ["http://iiif.io/api/image/2/level0.json"], "width": "5", "height": 5}"#,
            "width", "whole number"
        ),
        (
            #"{"@context": "http://iiif.io/api/image/3/context.json", "id": "file:///etc/passwd", "profile": "level0", "width": 5, "height": 5}"#,
            "id", "http://"
        ),
        ("<html>Service Unavailable</html>", "info.json", "not JSON"),
    ])
    func aBrokenDescriptionIsRefusedInOneLineNamingTheKey(json: String, key: String, hint: String) {
        do {
            _ = try Self.info(json)
            Issue.record("accepted: \(json)")
        } catch {
            let line = "\(error)"
            #expect(line.hasPrefix("https://x/info.json \(key)") || (key == "info.json" && line.hasPrefix("https://x/info.json: ")), "\(line)")
            #expect(line.contains(hint) && !line.contains("\n"), "\(line)")
            #expect(error.reason == .badInfo)
        }
    }

    /// reference-iiif.md §14: three tiles `iiif_static.py` wrote for a 1165 × 3185 scan, 256-px tiles.
    @Test func levelZeroTilesAreNamedAsIIIFStaticNamesThem() throws {
        let info = try Self.info(Self.static21), grid = info.tiles[0]
        let one = grid.tiles(scaleFactor: 1, imageWidth: 1165, imageHeight: 3185)
        #expect(one.count == 5 * 13)
        let names = Set(one.map { $0.request(in: info, format: .jpg).path(for: .v2) })
        #expect(names.contains("1024,2304,141,256/141,/0/default.jpg"), "right edge")
        #expect(names.contains("0,3072,256,113/256,/0/default.jpg"), "bottom edge")
        let two = grid.tiles(scaleFactor: 2, imageWidth: 1165, imageHeight: 3185)
        #expect(two.contains { $0.request(in: info, format: .jpg).path(for: .v2) == "0,512,512,512/256,/0/default.jpg" })
        #expect(two.count == 3 * 7)
        // The corner tile at s = 2: 1024..1165 × 3072..3185 → 141 × 113 px, 71 × 57 at half size (rounded up).
        #expect(
            two.last
                == IIIFTile(
                    column: 2, row: 6, scaleFactor: 2, x: 1024, y: 3072, width: 141, height: 113,
                    size: IIIFSize(width: 71, height: 57)))
        // 3.0 writes both sides of the size.
        var three = info
        three.version = .v3
        #expect(one[4 + 9 * 5].request(in: three, format: .png).path(for: .v3) == "1024,2304,141,256/141,256/0/default.png")
    }

    /// Every grid covers the image exactly once: areas sum to W·H, tiles stay inside, sizes are ceil(w/s).
    @Test(arguments: [(1165, 3185, 256, 256), (1, 1, 256, 256), (512, 512, 256, 256), (1000, 700, 300, 128), (40000, 30001, 1024, 1024)])
    func everyGridCoversTheImageOnceAtEveryScaleFactor(w: Int, h: Int, tw: Int, th: Int) {
        let grid = IIIFTileSet(width: tw, height: th, scaleFactors: [1, 2, 4, 8, 16, 64])
        for s in grid.scaleFactors {
            let tiles = grid.tiles(scaleFactor: s, imageWidth: w, imageHeight: h)
            #expect(tiles.reduce(0) { $0 + $1.width * $1.height } == w * h)
            #expect(tiles.allSatisfy { $0.x + $0.width <= w && $0.y + $0.height <= h && $0.width > 0 && $0.height > 0 })
            #expect(tiles.allSatisfy { $0.size.width == Int((Double($0.width) / Double(s)).rounded(.up)) && $0.size.height <= th })
            #expect(Set(tiles.map { [$0.x, $0.y] }).count == tiles.count)
        }
    }

    @Test func aTileCoveringTheWholeImageAsksForTheFullRegion() throws {
        let info = try Self.info(Self.static21)
        let t = info.tiles[0].tiles(scaleFactor: 8, imageWidth: 1165, imageHeight: 3185)
        #expect(t.count == 1 * 2)
        let small = IIIFImageInfo(version: .v2, id: "https://x/a", width: 200, height: 100, level: .level0)
        let whole = IIIFTileSet(width: 256, scaleFactors: [1]).tiles(scaleFactor: 1, imageWidth: 200, imageHeight: 100)
        #expect(whole.map { $0.request(in: small, format: .jpg).path(for: .v2) } == ["full/200,/0/default.jpg"])
    }

    /// Each form of the grammar parses and is written back the same, in the version it belongs to.
    @Test(arguments: [
        ("full/max/0/default.jpg", IIIFAPIVersion.v3), ("square/^max/!90/gray.png", .v3), ("125,15,120,140/90,/0/default.jpg", .v3),
        ("pct:41.6,7.5,40,70/,150/22.5/color.webp", .v3), ("full/!225,100/0/bitonal.tif", .v3), ("full/^pct:150/0/default.jpg", .v3),
        ("full/^360,360/0/default.jpg", .v3), ("0,0,10,20/10,20/0/default.jpg", .v3),
        ("full/full/0/default.jpg", .v2), ("0,512,512,512/256,/0/default.jpg", .v2), ("full/pct:50/180/default.jpg", .v2),
    ])
    func aRequestPathRoundTrips(path: String, version: IIIFAPIVersion) throws {
        let r = try IIIFImageRequest(parsing: path, version: version)
        #expect(r.path(for: version) == path)
    }

    @Test func theRequestGrammarKnowsTheFormsOfEachVersion() throws {
        let full = try IIIFImageRequest(parsing: "full/full/0/default.jpg", version: .v2)
        #expect(full.size == IIIFSizeRequest(.max) && full.path(for: .v3) == "full/max/0/default.jpg")
        #expect(try IIIFImageRequest(parsing: "full/max/0/default.jpg", version: .v2).path(for: .v2) == "full/full/0/default.jpg")
        let r = try IIIFImageRequest(parsing: "pct:41.6,7.5,40,70/!225,100/!22.5/gray.png", version: .v3)
        #expect(r.region == .percent(x: 41.6, y: 7.5, width: 40, height: 70))
        #expect(r.size == IIIFSizeRequest(.confined(width: 225, height: 100)))
        #expect(r.rotation == IIIFRotation(degrees: 22.5, mirrored: true) && r.quality == .gray && r.format == .png)
        let (id, tile) = try IIIFImageRequest.split("http://127.0.0.1:8000/iiif/a%2Fb/0,512,512,512/256,/0/default.jpg", version: .v2)
        #expect(id == "http://127.0.0.1:8000/iiif/a%2Fb" && tile.region == .pixels(x: 0, y: 512, width: 512, height: 512))
    }

    /// Each malformed request is refused in one line naming the segment.
    @Test(arguments: [
        ("full/full/0/default.jpg", IIIFAPIVersion.v3, "full"), ("full/^max/0/default.jpg", .v2, "^max"),
        ("-1,0,10,10/max/0/default.jpg", .v3, "-1,0,10,10"), ("0,0,0,10/max/0/default.jpg", .v3, "0,0,0,10"),
        ("+5,0,10,10/max/0/default.jpg", .v3, "+5,0,10,10"), ("full/1e3,/0/default.jpg", .v3, "1e3,"),
        ("full/!100,/0/default.jpg", .v3, "!100,"), ("full/,/0/default.jpg", .v3, ","), ("full/pct:/0/default.jpg", .v3, "pct:"),
        ("full/pct:150/0/default.jpg", .v3, "pct:150"), ("full/max/361/default.jpg", .v3, "361"), ("full/max/0/default", .v3, "default"),
        ("full/max/0/default.bmp", .v3, "bmp"), ("full/max/0/best.jpg", .v3, "best"), ("full/max/default.jpg", .v3, "full/max/default.jpg"),
        ("pct:1,2,3/max/0/default.jpg", .v3, "pct:1,2,3"),
    ])
    func aMalformedRequestIsRefusedInOneLine(path: String, version: IIIFAPIVersion, segment: String) {
        do {
            _ = try IIIFImageRequest(parsing: path, version: version)
            Issue.record("accepted \(path)")
        } catch {
            #expect(error.reason == .badRequest && error.location == segment, "\(error)")
            #expect(!"\(error)".contains("\n"))
        }
    }

    /// Regions and sizes resolve as Image API 3.0 §4.1–4.2 compute them, within the server's limits.
    @Test func regionsAndSizesResolveToPixelsWithinTheLimits() throws {
        let i = try Self.info(Self.spec30)  // 6000 × 4000, maxWidth 3000, maxHeight 2000, maxArea 4,000,000
        func px(_ r: IIIFRegion) -> [Int]? { r.pixels(inImage: 6000, 4000).map { [$0.x, $0.y, $0.width, $0.height] } }
        #expect(px(.square) == [1000, 0, 4000, 4000])
        #expect(px(.pixels(x: 5000, y: 3000, width: 2000, height: 2000)) == [5000, 3000, 1000, 1000])
        #expect(px(.pixels(x: 6000, y: 0, width: 10, height: 10)) == nil)
        #expect(px(.percent(x: 10, y: 10, width: 50, height: 50)) == [600, 400, 3000, 2000])
        #expect(IIIFSizeRequest(.width(600)).pixels(ofRegion: 6000, 4000, in: i) == IIIFSize(width: 600, height: 400))
        #expect(IIIFSizeRequest(.height(400)).pixels(ofRegion: 6000, 4000, in: i) == IIIFSize(width: 600, height: 400))
        #expect(IIIFSizeRequest(.confined(width: 3000, height: 3000)).pixels(ofRegion: 6000, 4000, in: i) == nil, "3000 × 2000 is over maxArea")
        #expect(IIIFSizeRequest(.confined(width: 300, height: 300)).pixels(ofRegion: 6000, 4000, in: i) == IIIFSize(width: 300, height: 200))
        #expect(IIIFSizeRequest(.percent(10)).pixels(ofRegion: 6000, 4000, in: i) == IIIFSize(width: 600, height: 400))
        // max: scaled by min(3000/6000, 2000/4000, √(4e6/24e6) = 0.40825) → 2449 × 1632.
        #expect(IIIFSizeRequest(.max).pixels(ofRegion: 6000, 4000, in: i) == IIIFSize(width: 2449, height: 1632))
        // No upscaling without ^ in 3.0; with it, still within maxWidth.
        #expect(IIIFSizeRequest(.width(200)).pixels(ofRegion: 100, 100, in: i) == nil)
        #expect(IIIFSizeRequest(.width(200), upscaling: true).pixels(ofRegion: 100, 100, in: i) == IIIFSize(width: 200, height: 200))
        #expect(IIIFSizeRequest(.width(4000), upscaling: true).pixels(ofRegion: 1000, 1000, in: i) == nil)
    }
}

/// What a windowed read of an IIIF image asks for: the scale factor GDAL's overview rule would
/// pick, and only the tiles the window touches.
struct IIIFWindowPlanTests {
    @Test func theCoarsestScaleFactorThatKeepsFullDetailIsChosen() {
        let g = IIIFTileSet(width: 256, scaleFactors: [1, 2, 4, 8])
        #expect(g.scaleFactor(forDownsampling: 0.5) == 1)
        #expect(g.scaleFactor(forDownsampling: 1) == 1)
        #expect(g.scaleFactor(forDownsampling: 3.9) == 2)
        #expect(g.scaleFactor(forDownsampling: 4) == 4)
        #expect(g.scaleFactor(forDownsampling: 1000) == 8)
    }

    /// The tiles covering a window are exactly the grid's tiles that intersect it (checked against
    /// a brute-force filter of every tile), over windows at edges, corners and beyond the image.
    @Test func aWindowTouchesExactlyTheTilesThatIntersectIt() {
        let g = IIIFTileSet(width: 256, height: 200, scaleFactors: [1, 2, 4])
        let (w, h) = (1165, 3185)
        let windows = [
            (0, 0, 1, 1), (255, 199, 2, 2), (1000, 3000, 500, 500), (-50, -50, 100, 100), (0, 0, 1165, 3185),
            (600, 1200, 700, 10), (1164, 3184, 1, 1), (2000, 0, 10, 10),
        ]
        for s in g.scaleFactors {
            let all = g.tiles(scaleFactor: s, imageWidth: w, imageHeight: h)
            for (x, y, ww, wh) in windows {
                let expected = all.filter { $0.x < x + ww && x < $0.x + $0.width && $0.y < y + wh && y < $0.y + $0.height }
                #expect(
                    g.tiles(covering: x, y, ww, wh, scaleFactor: s, imageWidth: w, imageHeight: h) == expected, "s \(s) window \(x),\(y),\(ww),\(wh)")
            }
        }
    }
}
