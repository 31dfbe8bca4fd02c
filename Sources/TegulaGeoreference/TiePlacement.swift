import Foundation
import TegulaGeometry

/// How a sheet without GCPs of its own was placed by the joint fit, and how far to trust it: its
/// distance in ties from a sheet with GCPs, and its fit to its neighbours. Ground metres are
/// great-circle metres, as in ``GeoreferenceReport``.
public struct TiePlacement: Sendable, Equatable {
    /// Ties between it and the nearest sheet with GCPs (1: tied to one directly).
    public var hops: Int
    /// RMSE over its ties of the distance between where it puts the tie point and where the
    /// other sheet puts it, after the joint fit.
    public var rmseMetres: Double?
    /// The same with each tie left out in turn: the sheet refitted to the other sheets' places of
    /// its other ties, against the other sheet's place of the tie left out; ties whose leaving
    /// out leaves the transform unfixed are not counted (nil when none is).
    public var leaveOneOutMetres: Double?

    /// The transform a sheet without GCPs takes in the joint fit: one that is linear in its
    /// parameters (helmert, polynomial 1–3) as given; none given, helmert (the ties of a narrow
    /// overlap lie on one line, which fixes a similarity but leaves an affine's stretch across it
    /// free); projective, tps and straight as polynomial1: with no GCPs to choose on, nor a sheet
    /// of its own to bend to, it is placed as a whole.
    public static func kind(given: TransformKind?) -> TransformKind {
        switch given {
        case .helmert?, .polynomial1?, .polynomial2?, .polynomial3?: return given!
        case nil: return .helmert
        default: return .polynomial1
        }
    }

    /// Starting parameters for the sheets without GCPs (`own` false): in rounds, each sheet whose
    /// ties to sheets already placed (with GCPs, or in an earlier round) fix its transform is
    /// fitted to where they put the tie points. Returns each placed sheet's parameters (sheets
    /// with GCPs: fitted alone) and the sheets that cannot be placed so.
    static func start(_ system: JointSystem, own: [Bool]) -> (theta: [Int: [Double]], unplaced: [Int]) {
        var theta: [Int: [Double]] = [:]
        for l in own.indices where own[l] { theta[l] = system.alone(l) }
        var ends: [[(PixelPoint, Int, PixelPoint)]] = Array(repeating: [], count: own.count)
        for (a, pa, b, pb) in system.ties {
            ends[a].append((pa, b, pb))
            ends[b].append((pb, a, pa))
        }
        var progress = true
        while progress {
            var next: [Int: [Double]] = [:]
            for l in own.indices where theta[l] == nil {
                let placed = ends[l].compactMap { p, o, q in theta[o].map { (p, system.sheets[o].apply($0[...], at: q)) } }
                if let fit = fitted(system.sheets[l], to: placed) { next[l] = fit }
            }
            theta.merge(next) { a, _ in a }
            progress = !next.isEmpty
        }
        return (theta, own.indices.filter { theta[$0] == nil })
    }

    /// The least-squares parameters of `sheet` taking each pixel to its ground point; nil when
    /// the points do not fix them.
    static func fitted(_ sheet: JointSystem.Sheet, to points: [(PixelPoint, GroundPoint)]) -> [Double]? {
        let k = sheet.parameterCount
        guard 2 * points.count >= k else { return nil }
        var a: [Double] = [], b: [Double] = []
        for (p, g) in points {
            let (rx, ry) = sheet.rows(p)
            a += rx + ry
            b += [g.x, g.y]
        }
        return LinearAlgebra.leastSquares(a, rows: 2 * points.count, cols: k, rhs: [b])?[0]
    }

    /// Each sheet's distance in ties from the nearest sheet with GCPs (0 for those), breadth
    /// first over the group's ties.
    static func hops(own: [Bool], ties: [(Int, PixelPoint, Int, PixelPoint)]) -> [Int?] {
        var neighbours: [Set<Int>] = Array(repeating: [], count: own.count)
        for (a, _, b, _) in ties {
            neighbours[a].insert(b)
            neighbours[b].insert(a)
        }
        var hops: [Int?] = own.map { $0 ? 0 : nil }
        var front = own.indices.filter { own[$0] }
        while !front.isEmpty {
            var next: [Int] = []
            for l in front {
                for m in neighbours[l].sorted() where hops[m] == nil {
                    hops[m] = hops[l]! + 1
                    next.append(m)
                }
            }
            front = next
        }
        return hops
    }

    /// The figures of sheet `l` (without GCPs) after the joint fit `theta`, positions compared
    /// on the ground by `metres` (two points of the group's centred fitting frame).
    static func figures(
        _ l: Int, hops: Int, system: JointSystem, theta: [Double], metres: ([GroundPoint], [GroundPoint]) throws -> [Double]
    ) throws -> TiePlacement {
        func at(_ s: Int, _ p: PixelPoint) -> GroundPoint { system.sheets[s].apply(theta[system.offsets[s]..<system.offsets[s + 1]], at: p) }
        var points: [(PixelPoint, GroundPoint)] = []
        for (a, pa, b, pb) in system.ties {
            if a == l { points.append((pa, at(b, pb))) }
            if b == l { points.append((pb, at(a, pa))) }
        }
        let residuals = try metres(points.map { at(l, $0.0) }, points.map(\.1))
        var predicted: [GroundPoint] = [], others: [GroundPoint] = []
        for i in points.indices {
            var rest = points
            rest.remove(at: i)
            guard let fit = fitted(system.sheets[l], to: rest) else { continue }
            predicted.append(system.sheets[l].apply(fit[...], at: points[i].0))
            others.append(points[i].1)
        }
        let loo = try metres(predicted, others)
        func rms(_ v: [Double]) -> Double? { v.isEmpty ? nil : (v.reduce(0) { $0 + $1 * $1 } / Double(v.count)).squareRoot() }
        return TiePlacement(hops: hops, rmseMetres: rms(residuals), leaveOneOutMetres: rms(loo))
    }
}
