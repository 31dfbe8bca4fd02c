import CGDAL

/// A PROJ coordinate operation from one CRS to another (OCTNewCoordinateTransformation),
/// points in traditional GIS axis order (x = longitude/easting).
///
/// Not shared between threads: make one per worker.
public final class CoordinateTransformation {
    let handle: OGRCoordinateTransformationH
    public let source: SpatialReference
    public let target: SpatialReference

    public init(from source: SpatialReference, to target: SpatialReference) throws {
        GDALRuntime.initialize()
        CPLErrorReset()
        guard let h = OCTNewCoordinateTransformation(source.handle, target.handle) else {
            throw GDALError.last(
                "OCTNewCoordinateTransformation", path: nil,
                fallback: "no transformation from \(source.label) to \(target.label)")
        }
        handle = h
        self.source = source
        self.target = target
    }

    /// The operation from `source` to `target` for the caller's thread, equal to the one made from
    /// the two CRSs' `SpatialReference`s: a copy (OCTClone) of the one the process made first for
    /// the pair, so that PROJ searches its database for the pair once (`TransformationPrototypes`).
    public convenience init(from source: CRS, to target: CRS) throws {
        let h = try TransformationPrototypes.shared.copy(from: source, to: target)
        self.init(handle: h, source: source.makeReference(), target: target.makeReference())
    }

    /// Owns `handle` (a copy made for this thread).
    init(handle: OGRCoordinateTransformationH, source: SpatialReference, target: SpatialReference) {
        self.handle = handle
        self.source = source
        self.target = target
    }

    deinit { OCTDestroyCoordinateTransformation(handle) }

    /// The largest coordinate handed to PROJ, in any unit: 1e10 is 250 Earth circumferences in
    /// metres and twice the Sun's, so no place on a body PROJ models lies beyond it. GDAL 3.6's
    /// shortcut from Web Mercator to WGS 84 brings a longitude into range one turn at a time,
    /// taking time in proportion to x (one point at x = 1e16 m: 0.43 s, 3e16 m: 1.2 s; 1e10 m:
    /// about 250 turns, nothing), so a wild extrapolation (an editor mask vertex at 10^12 scan
    /// pixels, `Fuzz/Crashes/editor-session/four-points-fit-takes-seconds`) took seconds.
    public static let coordinateLimit = 1e10

    /// Transform points in place; returns which succeeded (a failed point becomes infinite). A
    /// point beyond ±``coordinateLimit`` fails without reaching PROJ.
    @discardableResult
    public func transform(x: inout [Double], y: inout [Double]) -> [Bool] {
        precondition(x.count == y.count)
        let n = x.count
        var ok = [Int32](repeating: 0, count: n)
        // One pass marks the points past the limit in the answer itself (no second array, no
        // second walk: this runs for every row of every warp grid).
        var result = [Bool](repeating: true, count: n)
        for i in 0..<n where !(abs(x[i]) <= Self.coordinateLimit && abs(y[i]) <= Self.coordinateLimit) {
            result[i] = false
            x[i] = 0; y[i] = 0  // a harmless stand-in, failed below
        }
        x.withUnsafeMutableBufferPointer { xp in
            y.withUnsafeMutableBufferPointer { yp in
                _ = OCTTransformEx(handle, Int32(n), xp.baseAddress, yp.baseAddress, nil, &ok)
            }
        }
        CPLErrorReset()
        for i in 0..<n where !result[i] || ok[i] == 0 || !x[i].isFinite || !y[i].isFinite {
            result[i] = false
            x[i] = .infinity
            y[i] = .infinity
        }
        return result
    }

    /// Transform one point; nil when PROJ cannot.
    public func transform(_ x: Double, _ y: Double) -> (x: Double, y: Double)? {
        var xs = [x], ys = [y]
        let ok = transform(x: &xs, y: &ys)
        return ok[0] ? (xs[0], ys[0]) : nil
    }
}
