import Foundation
import TegulaGDAL
import TegulaTestSupport
import Testing

/// `CoordinateTransformation(from: CRS, to: CRS)` hands each caller a copy of one operation
/// per pair of CRSs (issue 44: PROJ's search between datums, once a process, not once a worker).
/// The oracle is GDAL's own `gdaltransform`, which makes the operation afresh.
struct TransformationPrototypesTests {
    /// Points over Britain, longitude and latitude, every half degree.
    static let britain: [(x: Double, y: Double)] = stride(from: -6.0, through: 2, by: 0.5).flatMap { lon in
        stride(from: 50.0, through: 58, by: 0.5).map { lat in (lon, lat) }
    }

    /// `gdaltransform` of `points` from `source` to `target`, x and y.
    static func gdaltransform(_ points: [(x: Double, y: Double)], from source: String, to target: String) throws -> [(x: Double, y: Double)] {
        let text = points.map { "\($0.x) \($0.y)" }.joined(separator: "\n") + "\n"
        let out = try ProgramRun.output("gdaltransform", ["-s_srs", source, "-t_srs", target, "-output_xy"], stdin: text)
        return out.split(separator: "\n").map { line in
            let v = line.split(separator: " ").compactMap { Double($0) }
            return (v[0], v[1])
        }
    }

    /// Four threads each take a copy of the WGS 84 → British National Grid operation (a datum
    /// change, the slow search) and of its reverse; every copy answers as gdaltransform does.
    @Test func copiesOnFourThreadsTransformAsGdaltransformDoes() throws {
        let wgs84 = CRS.wgs84, bng = try CRS("EPSG:27700")
        let grid = try Self.gdaltransform(Self.britain, from: "EPSG:4326", to: "EPSG:27700")
        let back = try Self.gdaltransform(grid, from: "EPSG:27700", to: "EPSG:4326")
        let worst = Worst()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            do {
                let there = try CoordinateTransformation(from: wgs84, to: bng)
                let home = try CoordinateTransformation(from: bng, to: wgs84)
                var x = Self.britain.map(\.x), y = Self.britain.map(\.y)
                there.transform(x: &x, y: &y)
                worst.note(metres: zip(zip(x, y), grid).map { max(abs($0.0 - $1.x), abs($0.1 - $1.y)) }.max() ?? .infinity)
                var u = grid.map(\.x), v = grid.map(\.y)
                home.transform(x: &u, y: &v)
                worst.note(degrees: zip(zip(u, v), back).map { max(abs($0.0 - $1.x), abs($0.1 - $1.y)) }.max() ?? .infinity)
            } catch {
                worst.note(metres: .infinity)
            }
        }
        #expect(grid.count == Self.britain.count)
        #expect(worst.metres < 1e-6, "worst difference from gdaltransform: \(worst.metres) m")
        #expect(worst.degrees < 1e-11, "worst difference from gdaltransform: \(worst.degrees)°")
    }

    /// The largest differences the threads saw.
    final class Worst: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var metres = 0.0
        private(set) var degrees = 0.0
        func note(metres m: Double = 0, degrees d: Double = 0) {
            lock.lock()
            defer { lock.unlock() }
            metres = max(metres, m.isNaN ? .infinity : m)
            degrees = max(degrees, d.isNaN ? .infinity : d)
        }
    }
}
