import Foundation
import HTTPTypes
import TegulaEditor
import TegulaGeometry
import TegulaGeoreference
import TegulaPipeline
import TegulaServer
import TegulaTestSupport
import Testing

/// The tie editor's HTTP API on a live loopback server over a three-sheet series made by
/// scripts/make-series: the ties listed from the pipeline, seam figures against each sheet's own
/// fit and against the run's joint fit, the save read back by the pipeline loader with every
/// other line of the file kept, refusals that write nothing, and the sheets' IIIF services.
@Suite(.serialized)
struct TieEditorAPITests {
    /// A 3 × 1 series whose r1c1–r1c2 ties are given the other way round (B first) and whose file
    /// has comments; the service ties r1c1 and r1c2.
    static func service() throws -> (TieEditorService, String) {
        let dir = try TemporaryFolder.make("ties-api").path
        let file = try MadeSeries.make(in: dir, cols: 3, rows: 1, cell: 128)
        var text = try String(contentsOfFile: file, encoding: .utf8)
        text = text.replacingOccurrences(of: "  - [r1c1, [150, 22], r1c2, [22, 22]]", with: "  - [r1c2, [22, 22], r1c1, [150, 22]]  # turned round")
        text = "# made for TieEditorAPITests\n" + text.replacingOccurrences(of: "ties:\n", with: "# the ties\nties:\n") + "\n# trailing comment\n"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return (try TieEditorService(pair: TiePair(pipeline: file, mapA: "r1c1", mapB: "r1c2"), renderThreads: 1), file)
    }

    struct Answer: Sendable {
        var status: Int
        var body: Data
        /// Names lower-cased.
        var headers: [String: String]
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    }

    static func live(
        _ service: TieEditorService,
        _ body: @escaping @Sendable (_ send: @escaping @Sendable (HTTPRequest.Method, String, Data?) async throws -> Answer) async throws -> Void
    ) async throws {
        try await LiveServer.run(service) { server in
            try await body { method, uri, data in
                let r = try await server.fetch(
                    uri, method: method.rawValue, headers: ["Content-Type": "application/json"], body: data.map { [UInt8]($0) })
                return Answer(status: r.status, body: Data(r.body), headers: r.headers)
            }
        }
    }

    /// Haversine on the mean Earth sphere (R = 6371008.8 m), written here as the oracle.
    static func greatCircle(_ p: GroundPoint, _ q: GroundPoint) -> Double {
        let r = Double.pi / 180
        let h = pow(sin((q.y - p.y) * r / 2), 2) + cos(p.y * r) * cos(q.y * r) * pow(sin((q.x - p.x) * r / 2), 2)
        return 2 * 6371008.8 * asin(h.squareRoot())
    }

    @Test func theTiesOfThePairAreListedAndTheirSeamsAreTheSheetsOwnFitsAndTheRunsJointFit() async throws {
        let (service, file) = try Self.service()
        let pipeline = try Pipeline.load(path: file)
        // The oracle: each sheet's own fit by the library from its GCP file, and the run's joint fit.
        let own = try ["r1c1", "r1c2"].map { name -> Georeference in
            let set = try GCPReader.read(path: (file as NSString).deletingLastPathComponent + "/gcps/\(name).points")
            return try Georeferencer.fit(set, imageWidth: 172, imageHeight: 172, options: FitOptions(transform: .polynomial1))
        }
        try await Self.live(service) { send in
            let got = try await send(.get, "/api/ties", nil)
            let session = try TieSession.decode(got.body)
            #expect(got.status == 200 && session.mapA == "r1c1" && session.mapB == "r1c2")
            // Only r1c1–r1c2's two ties, the one given the other way round turned to A first.
            #expect(
                session.ties == [
                    EditorTie(id: "t1", a: PixelPoint(x: 150, y: 22), b: PixelPoint(x: 22, y: 22)),
                    EditorTie(id: "t2", a: PixelPoint(x: 150, y: 150), b: PixelPoint(x: 22, y: 150)),
                ], "\(session.ties)")
            let seams = try await send(.post, "/api/seams", got.body)
            #expect(seams.status == 200)
            let figures = try JSONDecoder().decode(SeamFigures.self, from: seams.body)
            #expect(figures.tieWeight == 100 && figures.ties.map(\.id) == ["t1", "t2"])
            for (t, f) in zip(session.ties, figures.ties) {
                let a = try own[0].pixelsToGround([t.a], crs: .wgs84)[0], b = try own[1].pixelsToGround([t.b], crs: .wgs84)[0]
                let want = Self.greatCircle(a, b)
                #expect(abs(f.seamM - want) <= 1e-7 * want, "\(t.id): \(f.seamM) m, own fits \(want) m")
                // On A's scan: B's pixel carried to A, against A's pixel.
                let onA = try #require(try own[0].groundToPixels(try own[1].pixelsToGround([t.b]), crs: nil)[0])
                #expect(abs(try #require(f.seamPx) - hypot(onA.x - t.a.x, onA.y - t.a.y)) < 1e-6)
            }
            // The run's figures of the same ties (its joint fit spans all three sheets, so only
            // the before figures are the same; the after ones are both far below them).
            let run = pipeline.series.ties.filter {
                Set([pipeline.spec.ties[$0.index].mapA, pipeline.spec.ties[$0.index].mapB]) == ["r1c1", "r1c2"]
            }
            #expect(run.count == 2)
            for (r, f) in zip(run, figures.ties) {
                #expect(abs(r.seamBeforeMetres - f.seamM) <= 1e-9 * f.seamM)
                #expect(try #require(f.seamAfterM) < f.seamM / 10 && r.seamAfterMetres < r.seamBeforeMetres / 10)
            }
            // The twin: where B's fit puts the place A's fit puts a pixel.
            let p = try await send(.get, "/api/predict?from=a&x=150&y=22", nil).json["pixel"] as? [Double]
            let g = try own[0].pixelsToGround([PixelPoint(x: 150, y: 22)])
            let q = try #require(try own[1].groundToPixels(g)[0])
            #expect(p.map { abs($0[0] - q.x) < 1e-6 && abs($0[1] - q.y) < 1e-6 } == true, "\(p ?? [])")
        }
    }

    @Test func saveRewritesOnlyThePairsTiesAndThePipelineLoaderReadsThem() async throws {
        let (service, file) = try Self.service()
        let before = try String(contentsOfFile: file, encoding: .utf8)
        let session = TieSession(
            mapA: "r1c1", mapB: "r1c2",
            ties: [
                EditorTie(id: "t2", a: PixelPoint(x: 150, y: 150), b: PixelPoint(x: 22, y: 150)),
                EditorTie(id: "t5", a: PixelPoint(x: 150.25, y: 88), b: PixelPoint(x: 16.5, y: 87.75)),
            ])
        let body = try JSONEncoder().encode(session)
        try await Self.live(service) { send in
            let saved = try await send(.put, "/api/ties", body)
            #expect(saved.status == 200 && saved.json["saved"] as? String == file, "\(String(decoding: saved.body, as: UTF8.self))")
            #expect((saved.json["ties"] as? [Any])?.count == 2)
            // After a save the server answers the file as read back: the saved places, with the ids
            // a fresh open gives them (t1, t2), not the page's (t2, t5).
            let again = try TieSession.decode(try await send(.get, "/api/ties", nil).body)
            let places = { (s: TieSession) in s.ties.map { [$0.a.x, $0.a.y, $0.b.x, $0.b.y] } }
            #expect(places(again) == places(session) && again.ties.map(\.id) == ["t1", "t2"] && again.removed.isEmpty, "\(again)")
        }
        // Read back by the loader: the other pair's ties first, as they were, then the page's.
        let spec = try Pipeline.load(path: file).spec
        let other = spec.ties.filter { $0.mapA == "r1c2" }
        #expect(other.count == 2 && other.allSatisfy { $0.mapB == "r1c3" })
        #expect(Array(spec.ties.suffix(2)) == session.ties.map { TieSpec(mapA: "r1c1", pixelA: $0.a, mapB: "r1c2", pixelB: $0.b) }, "\(spec.ties)")
        // Every line outside the ties block is the same, comments included.
        let after = try String(contentsOfFile: file, encoding: .utf8)
        func outside(_ t: String) -> [Substring] { t.split(separator: "\n").filter { !$0.hasPrefix("  - [") && !$0.hasPrefix("ties:") } }
        #expect(outside(after) == outside(before), "\(after)")
        #expect(after.contains("# the ties\nties:\n") && after.hasSuffix("# trailing comment\n"))
    }

    @Test func refusedSessionsWriteNothingAndNameWhatIsWrong() async throws {
        let (service, file) = try Self.service()
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        try await Self.live(service) { send in
            let cases: [(String, String, String)] = [
                (#"{"map_a":"r1c1","map_b":"r1c2","ties":[{"id":"t1","a":[173,5],"b":[1,1]}]}"#, "pixel_outside_scan", "ties[0].a (t1)"),
                (#"{"map_a":"r1c1","map_b":"r1c2","ties":[{"id":"t1","a":[1,1],"b":[1]}]}"#, "pixel_outside_scan", "ties[0].b (t1)"),
                (
                    #"{"map_a":"r1c1","map_b":"r1c2","ties":[{"id":"t1","a":[1,1],"b":[1,1]},{"id":"t1","a":[2,2],"b":[2,2]}]}"#, "bad_session",
                    "ties[1].id"
                ),
                (#"{"map_a":"r1c1","map_b":"r1c3","ties":[]}"#, "bad_session", "map_a"),
                (#"{"map_a":"r1c1","ties":[]}"#, "bad_session", "map_b"),
                ("not json", "bad_session", "body"),
            ]
            for (body, code, field) in cases {
                for method in [HTTPRequest.Method.put, .post] {
                    let r = try await send(method, method == .put ? "/api/ties" : "/api/seams", Data(body.utf8))
                    #expect(
                        r.status == 422 && r.json["code"] as? String == code && r.json["field"] as? String == field,
                        "\(body): \(r.status) \(String(decoding: r.body, as: UTF8.self))")
                }
            }
            let missing = try await send(.get, "/api/nothing", nil)
            #expect(missing.status == 404 && (missing.json["error"] as? String)?.contains("/api/ties") == true)
            let wrong = try await send(.delete, "/api/ties", nil)
            #expect(wrong.status == 405 && wrong.headers["allow"] == "GET, PUT")
            #expect(try await send(.get, "/api/predict?from=c&x=1&y=1", nil).status == 400)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before, "a refused save left the pipeline as it was")
    }

    @Test func eachSheetIsServedAsItsOwnIIIFImageAndThePageNamesBoth() async throws {
        let (service, _) = try Self.service()
        try await Self.live(service) { send in
            for name in ["r1c1", "r1c2"] {
                let info = try await send(.get, "/iiif/\(name)/info.json", nil)
                #expect(info.status == 200 && (info.json["id"] as? String)?.hasSuffix("/iiif/\(name)") == true && info.json["width"] as? Int == 172)
            }
            let page = String(decoding: try await send(.get, "/", nil).body, as: UTF8.self)
            #expect(page.contains(#""iiif":"/iiif/r1c1""#) && page.contains(#""iiif":"/iiif/r1c2""#) && page.contains(#""tie_weight":100"#))
            for script in ["/ties.js", "/scan-tiles.js"] {
                let r = try await send(.get, script, nil)
                #expect(r.status == 200 && r.headers["content-type"] == "text/javascript; charset=utf-8" && r.body.count > 1000)
            }
        }
    }

    @Test func theTiesBlockIsRewrittenInPlaceOrAppendedAndOddNamesAreQuoted() throws {
        let ties = [
            TieSpec(mapA: "1900", pixelA: PixelPoint(x: 1, y: 2.5), mapB: "sheet: two", pixelB: PixelPoint(x: 3, y: 4)),
            TieSpec(mapA: "true", pixelA: PixelPoint(x: 0, y: 0), mapB: "r1c2", pixelB: PixelPoint(x: 1e-3, y: 7)),
        ]
        let none = "version: 1\nmaps: [] # none\n"
        let appended = try PipelineTiesFile.replacing(ties: ties, in: none, file: "p.yml")
        #expect(
            appended.hasPrefix(none) && appended.contains("\"sheet: two\"") && appended.contains("\"1900\"") && appended.contains("\"true\""),
            "\(appended)")
        let inPlace = try PipelineTiesFile.replacing(ties: [], in: "a: 1\nties:\n- [x, [1, 1], y, [2, 2]]\n\n# b next\nb: 2\n", file: "p.yml")
        #expect(inPlace == "a: 1\nties: []\n\n# b next\nb: 2\n", "\(inPlace)")
        #expect(throws: EditorError.self) { try PipelineTiesFile.replacing(ties: ties, in: "{version: 1, ties: []}\n", file: "p.yml") }
    }
}
