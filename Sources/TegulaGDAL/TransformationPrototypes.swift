import CGDAL
import Foundation

/// One coordinate operation per pair of CRSs for the whole process, never used itself: each
/// thread that needs the pair gets a copy (OCTClone, the same PROJ pipeline, its own handle).
///
/// Making an operation (OCTNewCoordinateTransformation) asks PROJ's database for the candidate
/// operations between the two CRSs. Between datums (WGS 84 and OSGB 1936 for EPSG:27700) that
/// search takes 15–20 ms of CPU, and a pyramid made one for each direction in each worker's
/// evaluator: 14 operations and about 0.1 s of CPU for a cut whose warp took 0.7 s. A copy skips
/// the search. GDAL's own cache does not help there: it takes back an operation only when one is
/// destroyed, and the workers keep theirs until the cut ends.
final class TransformationPrototypes: @unchecked Sendable {
    /// The process's store.
    static let shared = TransformationPrototypes()

    private let lock = NSLock()
    private var prototypes: [Pair: CoordinateTransformation] = [:]

    /// The source and target CRS (equal when their WKT is, see ``CRS``).
    private struct Pair: Hashable {
        let source: CRS
        let target: CRS
    }

    /// A new handle for the operation from `source` to `target`, owned by the caller; the pair's
    /// prototype is made on the first call.
    func copy(from source: CRS, to target: CRS) throws -> OGRCoordinateTransformationH {
        lock.lock()
        defer { lock.unlock() }
        let pair = Pair(source: source, target: target)
        let prototype: CoordinateTransformation
        if let known = prototypes[pair] {
            prototype = known
        } else {
            prototype = try CoordinateTransformation(from: source.makeReference(), to: target.makeReference())
            prototypes[pair] = prototype
        }
        CPLErrorReset()
        guard let h = OCTClone(prototype.handle) else {
            throw GDALError.last("OCTClone", path: nil, fallback: "no copy of the transformation from \(source.label) to \(target.label)")
        }
        return h
    }
}
