import Foundation
import TegulaTestSupport
import Testing

/// An Allmaps annotation or GeoreferencedMap that says its image's size is fitted, reported and
/// written by `tegula georef` and `tegula transform` with the image out of reach: its service at
/// a loopback port nobody listens on, at a `.invalid` host name (RFC 2606: never resolves), or
/// named by an id that is no URL (issue 45 item 3). Where pixels are needed (`--picture`), an
/// image that cannot be had fails at once, in one line, writing nothing.
@Suite(.timeLimit(.minutes(20)))
struct OfflineAnnotationCLITests {
    /// A TPS annotation of a 4000 × 3000 scan near Leiden whose size is only in its SVG selector,
    /// with a four-corner mask, its image service at `service`.
    static func annotation(service: String) -> String {
        let gcps = [
            (0, 0, 4.40, 52.22), (4000, 0, 4.60, 52.21), (4000, 3000, 4.61, 52.10), (0, 3000, 4.41, 52.11),
            (2000, 1500, 4.52, 52.155), (1000, 2200, 4.45, 52.13),
        ]
        let features = gcps.map {
            "{\"type\":\"Feature\",\"properties\":{\"resourceCoords\":[\($0.0),\($0.1)]},"
                + "\"geometry\":{\"type\":\"Point\",\"coordinates\":[\($0.2),\($0.3)]}}"
        }.joined(separator: ",")
        return """
            {"@context":"http://iiif.io/api/extension/georef/1/context.json","id":"https://annotations.example.org/maps/offline",
             "type":"Annotation","motivation":"georeferencing",
             "target":{"type":"SpecificResource","source":{"@id":"\(service)","type":"ImageService2"},
              "selector":{"type":"SvgSelector","value":"<svg width=\\"4000\\" height=\\"3000\\"><polygon points=\\"100,120 3900,80 3950,2900 60,2950\\" /></svg>"}},
             "body":{"type":"FeatureCollection","transformation":{"type":"thinPlateSpline"},"features":[\(features)]}}
            """
    }

    /// A GeoreferencedMap (version 2) of the same scan whose resource id is a relative path, not a URL.
    static let georeferencedMap = """
        {"type":"GeoreferencedMap","id":"https://annotations.example.org/maps/m1",
         "resource":{"id":"scans/sheet-12.jpg","type":"ImageService3","width":4000,"height":3000},
         "gcps":[{"resource":[0,0],"geo":[4.40,52.22]},{"resource":[4000,0],"geo":[4.60,52.21]},{"resource":[4000,3000],"geo":[4.61,52.10]},
                 {"resource":[0,3000],"geo":[4.41,52.11]},{"resource":[2000,1500],"geo":[4.52,52.155]},{"resource":[1000,2200],"geo":[4.45,52.13]},
                 {"resource":[3000,700],"geo":[4.555,52.19]},{"resource":[500,800],"geo":[4.43,52.185]},{"resource":[3200,2500],"geo":[4.58,52.125]}],
         "resourceMask":[[100,120],[3900,80],[3950,2900],[60,2950]],"transformation":{"type":"polynomial","options":{"order":2}}}
        """

    /// Services out of reach: a loopback port nobody listens on, and a name that never resolves.
    static func unreachable() throws -> [String] {
        ["http://127.0.0.1:\(try LocalHTTPServer.freePort())/iiif/scan", "https://maps.invalid/iiif/scan"]
    }

    @Test func georefAndTransformOfAnAnnotationNeedNoNetwork() throws {
        let dir = try TemporaryFolder.make("cli-offline")
        defer { try? FileManager.default.removeItem(at: dir) }
        let map = dir.appendingPathComponent("map.json").path
        try Data(Self.georeferencedMap.utf8).write(to: URL(fileURLWithPath: map))
        var files = [map]
        for (i, service) in try Self.unreachable().enumerated() {
            let ann = dir.appendingPathComponent("annotation-\(i).json").path
            try Data(Self.annotation(service: service).utf8).write(to: URL(fileURLWithPath: ann))
            files.append(ann)
        }
        for file in files {
            let out = dir.appendingPathComponent("out.json").path, report = dir.appendingPathComponent("report.json").path
            let footprint = dir.appendingPathComponent("footprint.geojson").path
            let start = Date()
            let r = try TegulaBinary.run([
                "georef", file, "-o", out, "--report", report, "--footprint", footprint,
                "--iiif-cache", dir.appendingPathComponent("cache").path,
            ])
            let seconds = Date().timeIntervalSince(start)
            #expect(r.status == 0 && seconds < 10, "\(file): \(seconds) s: \(r.stderr)")
            for written in [out, report, footprint] { #expect(FileManager.default.fileExists(atPath: written), "\(file): \(written)") }
            let annotation = try String(contentsOfFile: out, encoding: .utf8)
            #expect(annotation.contains("\"width\" : 4000") && annotation.contains("\"height\" : 3000"), "\(annotation.prefix(400))")
            let back = try TegulaBinary.run(["transform", "--gcps", file], stdin: "2000 1500\n")
            #expect(back.status == 0 && back.stdout.hasPrefix("4.5"), "\(file): \(back.stdout) \(back.stderr)")
            for written in [out, report, footprint] { try FileManager.default.removeItem(atPath: written) }
        }
        // Pixels of an image named by no URL cannot be had: one line asking for the scan itself.
        let picture = try TegulaBinary.run([
            "georef", map, "-o", dir.appendingPathComponent("out.json").path,
            "--picture", dir.appendingPathComponent("fit.svg").path,
        ])
        #expect(
            picture.status != 0 && picture.stderr.split(separator: "\n").count == 1
                && picture.stderr.contains("'scans/sheet-12.jpg'") && picture.stderr.contains("SCAN --gcps \(map)"), "\(picture.stderr)")
    }

    @Test func anImageThatCannotBeHadFailsAtOnceInOneLineWhenItsPixelsAreNeeded() throws {
        let dir = try TemporaryFolder.make("cli-offline")
        defer { try? FileManager.default.removeItem(at: dir) }
        for (service, why) in zip(try Self.unreachable(), ["connection refused", "the host name did not resolve"]) {
            let ann = dir.appendingPathComponent("annotation.json").path
            try Data(Self.annotation(service: service).utf8).write(to: URL(fileURLWithPath: ann))
            let before = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            let start = Date()
            let r = try TegulaBinary.run([
                "georef", ann, "-o", dir.appendingPathComponent("out.json").path,
                "--picture", dir.appendingPathComponent("fit.svg").path,
                "--iiif-cache", dir.appendingPathComponent("cache").path,
            ])
            let seconds = Date().timeIntervalSince(start)
            #expect(r.status != 0 && seconds < 10, "\(service): \(seconds) s")
            #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(service) && r.stderr.contains(why), "\(r.stderr)")
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0 != "cache" }.sorted()
                    == before.filter { $0 != "cache" }.sorted())
        }
    }
}
