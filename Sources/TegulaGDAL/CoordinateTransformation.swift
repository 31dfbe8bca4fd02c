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
            throw GDALError.last("OCTNewCoordinateTransformation", path: nil,
                                 fallback: "no transformation from \(source.label) to \(target.label)")
        }
        handle = h
        self.source = source
        self.target = target
    }

    deinit { OCTDestroyCoordinateTransformation(handle) }

    /// Transform points in place; returns which succeeded (a failed point becomes infinite).
    @discardableResult
    public func transform(x: inout [Double], y: inout [Double]) -> [Bool] {
        precondition(x.count == y.count)
        let n = x.count
        var ok = [Int32](repeating: 0, count: n)
        x.withUnsafeMutableBufferPointer { xp in
            y.withUnsafeMutableBufferPointer { yp in
                _ = OCTTransformEx(handle, Int32(n), xp.baseAddress, yp.baseAddress, nil, &ok)
            }
        }
        CPLErrorReset()
        var result = [Bool](repeating: true, count: n)
        for i in 0..<n where ok[i] == 0 || !x[i].isFinite || !y[i].isFinite {
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
