import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference
import TegulaTestSupport
import Testing

/// GCP sets and files made by the tests, and a runner for GDAL's command-line tools.
enum GeoreferenceFixtures {
    /// Four GCPs as (x, y, lon, lat).
    static let rows: [(Double, Double, Double, Double)] = [
        (100, 200, 4.5, 52.25), (900.5, 150.25, 6.75, 52.5), (850, 700, 6.5, 50.75), (120, 650.5, 4.25, 51),
    ]

    /// Expects `set` to hold the four GCPs of ``rows`` in order (and `enabled`, when given).
    static func checkRows(_ set: GCPSet, enabled: [Bool]? = nil) {
        #expect(set.gcps.count == rows.count)
        for (g, r) in zip(set.gcps, rows) {
            #expect(g.pixel == PixelPoint(x: r.0, y: r.1), "\(set.source): pixel of \(g.id)")
            #expect(g.ground == GroundPoint(x: r.2, y: r.3), "\(set.source): ground of \(g.id)")
        }
        if let enabled { #expect(set.gcps.map(\.enabled) == enabled) }
    }

    static let width = 1200, height = 900

    /// A made-up old map: lon/lat a smooth, mildly non-linear function of the pixel.
    static func ground(_ x: Double, _ y: Double) -> GroundPoint {
        GroundPoint(
            x: -10 + 0.02 * x + 3e-6 * x * y + 0.3 * sin(y / 200),
            y: 55 - 0.018 * y + 2e-6 * x * x - 0.2 * cos(x / 300))
    }

    /// `n` GCPs spread over the image on a jittered grid (deterministic), EPSG:4326.
    static func synthetic(_ n: Int, width: Int = width, height: Int = height) -> GCPSet {
        let cols = Int(Double(n).squareRoot().rounded(.up))
        let rows = (n + cols - 1) / cols
        var gcps: [GCP] = []
        for i in 0..<n {
            let c = i % cols, r = i / cols
            let jx = Double((i * 37) % 11) / 11 - 0.5, jy = Double((i * 53) % 13) / 13 - 0.5
            let x = (Double(c) + 0.5 + 0.3 * jx) / Double(cols) * Double(width)
            let y = (Double(r) + 0.5 + 0.3 * jy) / Double(rows) * Double(height)
            gcps.append(GCP(id: "P\(i + 1)", pixel: PixelPoint(x: x, y: y), ground: ground(x, y)))
        }
        return GCPSet(gcps: gcps, crs: .wgs84, source: "synthetic")
    }

    /// `n` GCPs at Halton points (bases 2 and 3): well spread, no three in a line, EPSG:4326.
    static func scattered(_ n: Int) -> GCPSet {
        func halton(_ i: Int, _ b: Int) -> Double {
            var f = 1.0, r = 0.0, k = i
            while k > 0 { f /= Double(b); r += f * Double(k % b); k /= b }
            return r
        }
        let gcps = (1...n).map { i in
            let x = (0.05 + 0.9 * halton(i, 2)) * Double(width), y = (0.05 + 0.9 * halton(i, 3)) * Double(height)
            return GCP(id: "H\(i)", pixel: PixelPoint(x: x, y: y), ground: ground(x, y))
        }
        return GCPSet(gcps: gcps, crs: .wgs84, source: "halton")
    }

    /// A 9 × 9 grid reaching 25% beyond every edge of the image (outside the GCP hull).
    static func widePixels(width: Int = width, height: Int = height) -> [PixelPoint] {
        var out: [PixelPoint] = []
        for j in 0...8 {
            for i in 0...8 {
                out.append(
                    PixelPoint(
                        x: Double(width) * (-0.25 + 1.5 * Double(i) / 8),
                        y: Double(height) * (-0.25 + 1.5 * Double(j) / 8)))
            }
        }
        return out
    }

    /// `gdaltransform -gcp … (-order N | -tps) [-i]` on `points`; nil rows where GDAL failed.
    static func gdaltransform(
        _ set: GCPSet, method: [String], points: [(Double, Double)],
        inverse: Bool = false
    ) throws -> [(Double, Double)?] {
        var args: [String] = []
        for g in set.enabled {
            args += ["-gcp", "\(g.pixel.x)", "\(g.pixel.y)", "\(g.ground.x)", "\(g.ground.y)"]
        }
        args += method + (inverse ? ["-i"] : [])
        let input = points.map { "\($0.0) \($0.1)" }.joined(separator: "\n") + "\n"
        let r = try ProgramRun.run("gdaltransform", args, stdin: input)
        guard r.status == 0 else { throw GeoreferenceError(.fitFailed, "gdaltransform failed: \(r.stderr)") }
        return r.stdout.split(separator: "\n").map { line in
            let f = line.split(separator: " ").compactMap { Double($0) }
            return f.count >= 2 ? (f[0], f[1]) : nil
        }
    }

    static func write(_ text: String, _ name: String, in dir: URL) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static let packageRoot = PackageRoot.url
}
