import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference
import TegulaSupport
import TegulaTestSupport
import Testing

/// Allmaps' `straight` transform (issue 45 item 5): one scale and a shift, fitted as Allmaps'
/// `Straight.ts` fits it (the Helmert fit's scale, the centroids' shift), inverted exactly, and
/// read from annotations that name it.
struct StraightTransformTests {
    /// GCPs in EPSG:3857 from a similarity rotated by 7° (so Allmaps' scale, the Helmert one,
    /// differs from the least-squares scale of the straight model) with a little noise.
    static var rotated: GCPSet {
        var s = GeoreferenceFixtures.scattered(9)
        let a = 7.0 * .pi / 180, k = 1500.0
        for i in s.gcps.indices {
            let p = s.gcps[i].pixel
            let noise = Double((i * 37) % 11) - 5
            s.gcps[i].ground = GroundPoint(
                x: 400_000 + k * (cos(a) * p.x + sin(a) * p.y) + 90 * noise,
                y: 6_500_000 + k * (sin(a) * p.x - cos(a) * p.y) - 70 * noise)
        }
        s.crs = .webMercator
        return s
    }

    static func fit(_ set: GCPSet, _ kind: TransformKind? = .straight) throws -> Georeference {
        try Georeferencer.fit(
            set, imageWidth: GeoreferenceFixtures.width, imageHeight: GeoreferenceFixtures.height,
            options: FitOptions(transform: kind))
    }

    /// numpy, independently: the Helmert model on (x, −y) solved by `numpy.linalg.lstsq`, its
    /// scale |(a, b)|, the shift from the centroids, as Allmaps defines straight; then the
    /// forward map at every probe, and for contrast the least-squares scale of the straight
    /// model itself.
    static let numpyOracle = """
        import json, sys
        import numpy as np
        data = json.load(sys.stdin)
        src = np.array(data["pixels"], float) * [1, -1]
        dst = np.array(data["grounds"], float)
        n = len(src)
        A = np.zeros((2 * n, 4)); b = np.zeros(2 * n)
        A[:n] = np.column_stack([np.ones(n), np.zeros(n), src[:, 0], -src[:, 1]]); b[:n] = dst[:, 0]
        A[n:] = np.column_stack([np.zeros(n), np.ones(n), src[:, 1], src[:, 0]]); b[n:] = dst[:, 1]
        w = np.linalg.lstsq(A, b, rcond=None)[0]
        s = float(np.hypot(w[2], w[3]))
        t = dst.mean(0) - s * src.mean(0)
        probes = np.array(data["probes"], float) * [1, -1]
        out = t + s * probes
        B = np.zeros((2 * n, 3)); B[:n, 0] = src[:, 0]; B[:n, 1] = 1; B[n:, 0] = src[:, 1]; B[n:, 2] = 1
        ls = np.linalg.lstsq(B, np.concatenate([dst[:, 0], dst[:, 1]]), rcond=None)[0][0]
        print(json.dumps({"scale": s, "leastSquaresScale": float(ls), "forward": out.tolist()}))
        """

    @Test func straightFitsAsAllmapsDefinesItAgreeingWithNumpy() throws {
        let set = Self.rotated
        let g = try Self.fit(set)
        #expect(g.kind == .straight && g.fitCRS.isSame(as: .webMercator))
        let probes = GeoreferenceFixtures.widePixels()
        let input: [String: [[Double]]] = [
            "pixels": set.gcps.map { [$0.pixel.x, $0.pixel.y] },
            "grounds": set.gcps.map { [$0.ground.x, $0.ground.y] },
            "probes": probes.map { [$0.x, $0.y] },
        ]
        let out = try ProgramRun.output(
            PackageRoot.path(".venv/bin/python3"), ["-c", Self.numpyOracle],
            stdin: String(decoding: try JSONEncoder().encode(input), as: UTF8.self))
        struct Oracle: Decodable { let scale: Double; let leastSquaresScale: Double; let forward: [[Double]] }
        let oracle = try JSONDecoder().decode(Oracle.self, from: Data(out.utf8))
        var worst = WorstError()
        for (p, q) in zip(probes, oracle.forward) {
            let f = g.transform.forward(p)
            worst.add(hypot(f.x - q[0], f.y - q[1]) / hypot(q[0], q[1]))
        }
        #expect(worst.value < 1e-12, "straight vs numpy: \(worst.value) relative")
        // The scale is the Helmert fit's, not the straight model's own least-squares one: the
        // two differ by the rotation's cosine, so this data tells them apart.
        let jacobian = g.transform.jacobian(at: PixelPoint(x: 0, y: 0))
        #expect(abs(jacobian.xx - oracle.scale) < 1e-9 * oracle.scale && jacobian.xy == 0 && jacobian.yx == 0 && jacobian.yy == -jacobian.xx)
        #expect(abs(oracle.scale - oracle.leastSquaresScale) > 1e-3 * oracle.scale, "\(oracle.scale) vs \(oracle.leastSquaresScale)")
    }

    @Test func straightInvertsExactlyAndRecoversAScaleAndShift() throws {
        let g = try Self.fit(Self.rotated)
        for p in GeoreferenceFixtures.widePixels() {
            let back = try #require(g.transform.inverse(g.transform.forward(p)))
            #expect(hypot(back.x - p.x, back.y - p.y) < 1e-9, "\(p) → \(back)")
        }
        // GCPs from a straight map give that map back everywhere.
        var set = Self.rotated
        for i in set.gcps.indices {
            let p = set.gcps[i].pixel
            set.gcps[i].ground = GroundPoint(x: 300_000 + 1234.5 * p.x, y: 6_000_000 - 1234.5 * p.y)
        }
        let exact = try Self.fit(set)
        for p in GeoreferenceFixtures.widePixels() {
            let f = exact.transform.forward(p)
            #expect(abs(f.x - (300_000 + 1234.5 * p.x)) < 1e-6 && abs(f.y - (6_000_000 - 1234.5 * p.y)) < 1e-6, "\(p): \(f)")
        }
    }

    /// Two GCPs determine it; one does not; it is fitted when named, never chosen.
    @Test func straightNeedsTwoGCPsAndIsNeverChosenUnasked() throws {
        var two = Self.rotated
        two.gcps = Array(two.gcps.prefix(2))
        #expect(try Self.fit(two).kind == .straight)
        two.gcps = Array(two.gcps.prefix(1))
        let e = #expect(throws: GeoreferenceError.self) { try Self.fit(two) }
        #expect(e?.reason == .tooFewGCPs && e?.message.contains("straight needs at least 2 enabled GCPs") == true, "\(String(describing: e))")
        #expect(try Self.fit(Self.rotated, nil).kind != .straight)
        #expect(TransformKind(name: "straight") == .straight && TransformKind(name: "Straight") == .straight)
    }

    /// An Allmaps annotation or GeoreferencedMap whose `transformation` is `straight` (as an
    /// object or a bare name) is read as straight and fitted so.
    @Test(arguments: ["{\"type\":\"straight\"}", "\"straight\""])
    func anAnnotationNamingStraightIsReadAndFittedAsStraight(transformation: String) throws {
        let dir = try TemporaryFolder.make("straight")
        defer { try? FileManager.default.removeItem(at: dir) }
        let annotation = GeoreferencedMapTests.annotation(GeoreferencedMapTests.rows, transformation: transformation)
        let map = GeoreferencedMapTests.map(GeoreferencedMapTests.rows, transformation: transformation)
        for (text, name) in [(annotation, "annotation.json"), (map, "map.json")] {
            let set = try GCPReader.read(path: GeoreferenceFixtures.write(text, name, in: dir))
            #expect(set.transformHint == .straight, "\(name)")
            let g = try Georeferencer.fit(set, imageWidth: 1000, imageHeight: 800, options: FitOptions())
            #expect(g.kind == .straight && g.report.chosenBy.contains("straight"), "\(name): \(g.kind)")
        }
    }
}
