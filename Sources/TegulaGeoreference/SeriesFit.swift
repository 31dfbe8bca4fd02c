import Foundation
import TegulaGDAL
import TegulaGeometry

/// One sheet of a series as the joint fit takes it: its name (for messages), GCPs, scan size and
/// fit options.
public struct SeriesSheet: Sendable {
    public var name: String
    public var gcps: GCPSet
    public var width: Int
    public var height: Int
    public var options: FitOptions

    /// A sheet from its parts.
    public init(name: String, gcps: GCPSet, width: Int, height: Int, options: FitOptions) {
        self.name = name
        self.gcps = gcps
        self.width = width
        self.height = height
        self.options = options
    }
}

/// A tied sheet after the joint fit: its transform, the tie pins that make an ordinary fit of its
/// GCPs plus the pins give the joint solution, and the fit before and after.
public struct SheetFit: Sendable {
    /// The transform (given, or chosen on the sheet's own GCPs), kept for the refit.
    public var kind: TransformKind
    /// Pins to add to the sheet's GCPs, one per distinct tie pixel, in the GCPs' CRS; ids `tie-N`
    /// (N the tie's 1-based index, `tie-N+M` where ties share a pixel).
    public var pins: [GCP]
    /// The sheet fitted on its own GCPs.
    public var before: Georeference
    /// The sheet fitted on its GCPs plus ``pins``: the joint solution, and what the warp uses.
    public var after: Georeference
    /// For a sheet without GCPs of its own: how it was placed (nil for a sheet with GCPs).
    public var placement: TiePlacement? = nil
    /// The standard error of its place, great-circle metres: how far its worst corner moves, RMS,
    /// when the group's GCPs and ties are drawn again with errors the size of their misfits
    /// (``SeriesFit/placeDraws`` draws through the joint fit); nil when the GCPs or the ties are
    /// too few to measure their own error (``JointSystem/errorModel(_:normal:jobs:)``).
    public var placeStandardErrorMetres: Double? = nil
}

/// Sheets fitted together: each connected group of sheets (joined by ties) is one least-squares
/// problem over every sheet's transform, its GCPs and the ties (``JointSystem``), weighted by
/// `tieWeight` (each image of a tie point weighs as much as that many GCPs). Sheets in no tie are
/// not touched: their fit is the independent one.
///
/// The solution reaches the rest of the pipeline as pins: for a sheet whose transform is linear
/// in its parameters (helmert, polynomial 1–3) with parameters θ at the joint optimum and tie
/// pixel q, the pin `T(q) + w·Σ_t (G_t − T(q))` (G_t the ties' ground points at q) makes the
/// sheet's ordinary unweighted least-squares fit on GCPs plus pins satisfy the same normal
/// equations as the joint problem, so it is θ again (up to rounding). Projective, tps and straight
/// sheets take polynomial1 as their stand-in in the joint problem and are pinned at G_t.
///
/// A sheet without GCPs of its own (an empty GCP set) is placed by its ties alone, with the
/// transform ``TiePlacement/kind(given:)`` names; its "before" is where its ties to the sheets
/// placed before it put it (``TiePlacement/start(_:own:)``), and its ``SheetFit/placement`` says
/// how far it lies in ties from a sheet with GCPs and how well its ties agree.
public struct SeriesFit: Sendable {
    /// Each group of tied sheets, sheet indices ascending; groups ordered by their first sheet.
    public let groups: [[Int]]
    /// Per sheet: its joint fit, nil for a sheet in no tie.
    public let sheets: [SheetFit?]
    /// Per tie, in list order.
    public let ties: [TieFigures]
    /// Conjugate-gradient iterations per group.
    public let iterations: [Int]

    /// The tie weight of a pipeline that names none (`tie_weight:`): each image of a tie point
    /// weighs as 100 GCPs, so a tie holds. A tie says two sheets show the same place; at weight 1
    /// (a tie point as one GCP) the GCPs' errors pulled the sheets apart again: a made 3 × 2
    /// series with GCPs 4 px off kept a seam of 3.7 px (16.4 px fitted alone); at 100 every seam
    /// falls under half a pixel of the max zoom (`SeriesTests`).
    ///
    /// A weight, not a constraint, and not much more: found ties are off by tenths of a pixel,
    /// the tie term in ground metres shrinks as the sheets shrink, and a wrong tie pulls with its
    /// weight. On the 4 × 4 series of `AutoTiesZoomTests` (243 found ties, GCPs 4 px off) the
    /// worst sheet lies 2.6 px from its true place at 100, 2.5 at 300, 2.6 at 1000, 6.9 at 10⁴
    /// and 32 at 10⁵ (the ties squash the series to fit their errors), and one tie moved 4 px
    /// moves the sheets by up to 1.3, 2.3, 5.0 and 24 px at 100, 300, 1000 and 10⁴ (numpy, the
    /// same least squares); held exactly, those ties leave θ only the group's common shift (rank
    /// 94 of 96), every sheet drawn to one point.
    public static let defaultTieWeight = 100.0

    /// The weight of a tie to a sheet without GCPs, whatever `tie_weight` says: one GCP. Such a
    /// sheet follows its ties at any weight (no GCPs pull against them), but a heavy weight lets
    /// the ties' own errors pull the sheets with GCPs off them: the tie term in ground units
    /// shrinks as the whole group shrinks, so noisy ties outweighing a few GCPs draw the group
    /// together. A 4 × 4 series with exact GCPs on one sheet and ties off by up to 0.2 px was
    /// placed within 1.2 px at this weight and 19 px at 100 (numpy, the same least squares).
    public static let placingTieWeight = 1.0

    /// The draws behind each sheet's ``SheetFit/placeStandardErrorMetres``: 64 draws of two
    /// coordinates at four corners put its worst corner within about 10 % of the exact figure.
    public static let placeDraws = 64

    /// Fit. Throws a ``GeoreferenceError`` naming the sheet or the tie when a sheet with GCPs
    /// cannot be fitted on them (ties add none), tied sheets fit in different CRSs, a tie pixel
    /// lies outside its scan, a group has no sheet with GCPs (naming its sheets), sheets without
    /// GCPs are not placed by their ties, or a group's system does not converge. `draws` 0 leaves
    /// out the sheets' standard errors of place (a fit wanted only for its seams); they are drawn
    /// on `jobs` threads.
    public static func fit(sheets: [SeriesSheet], ties: [Tie], tieWeight: Double, draws: Int = placeDraws, jobs: Int = 1) throws -> SeriesFit {
        guard tieWeight > 0, tieWeight.isFinite else {
            throw GeoreferenceError(
                .fitFailed, at: "tie_weight", "tie weight \(tieWeight) must be a positive number (1 = a tie point weighs as one GCP)")
        }
        for (i, t) in ties.enumerated() {
            for (s, p) in [(t.sheetA, t.pixelA), (t.sheetB, t.pixelB)] {
                let sh = sheets[s]
                guard p.x.isFinite, p.y.isFinite, p.x >= 0, p.y >= 0, p.x <= Double(sh.width), p.y <= Double(sh.height) else {
                    throw GeoreferenceError(
                        .gcpOutsideImage, at: "ties[\(i)]",
                        "pixel \(p) is outside sheet '\(sh.name)' (\(sh.width) × \(sh.height) pixels: x must be 0…\(sh.width), y 0…\(sh.height))")
                }
            }
            if t.sheetA == t.sheetB {
                throw GeoreferenceError(
                    .fitFailed, at: "ties[\(i)]", "ties sheet '\(sheets[t.sheetA].name)' to itself; a tie joins two different sheets")
            }
        }
        let groups = Self.groups(count: sheets.count, ties: ties)
        var fits = [SheetFit?](repeating: nil, count: sheets.count)
        var figures = [TieFigures?](repeating: nil, count: ties.count)
        var iterations: [Int] = []
        for group in groups {
            let (sheetFits, tieFigures, n) = try fitGroup(group, sheets: sheets, ties: ties, weight: tieWeight, draws: draws, jobs: jobs)
            for (s, f) in sheetFits { fits[s] = f }
            for f in tieFigures { figures[f.index] = f }
            iterations.append(n)
        }
        return SeriesFit(groups: groups, sheets: fits, ties: figures.map { $0! }, iterations: iterations)
    }

    /// Connected components of the sheets joined by ties (sheets in no tie left out).
    static func groups(count: Int, ties: [Tie]) -> [[Int]] {
        var parent = Array(0..<count)
        func root(_ i: Int) -> Int { var i = i; while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }; return i }
        var tied = Set<Int>()
        for t in ties {
            tied.formUnion([t.sheetA, t.sheetB])
            let a = root(t.sheetA), b = root(t.sheetB)
            if a != b { parent[max(a, b)] = min(a, b) }
        }
        var byRoot: [Int: [Int]] = [:]
        for s in tied.sorted() { byRoot[root(s), default: []].append(s) }
        return byRoot.values.sorted { $0[0] < $1[0] }
    }

    static func fitGroup(_ group: [Int], sheets: [SeriesSheet], ties allTies: [Tie], weight: Double, draws: Int, jobs: Int) throws
        -> ([(Int, SheetFit)], [TieFigures], Int)
    {
        let members = Set(group)
        let local = Dictionary(uniqueKeysWithValues: group.enumerated().map { ($1, $0) })
        let ties = allTies.enumerated().filter { members.contains($0.element.sheetA) }
        let own = group.map { !sheets[$0].gcps.enabled.isEmpty }
        let (alone, fitCRS) = try fitAlone(group, own: own, sheets: sheets)
        // GCPs in the group's fitting CRS, centred on their mean.
        let contexts = try group.map { try FitContext(gcps: sheets[$0].gcps, fitCRS: fitCRS, width: sheets[$0].width, height: sheets[$0].height) }
        let all = contexts.flatMap(\.fitGrounds)
        let cx = all.map(\.x).reduce(0, +) / Double(all.count), cy = all.map(\.y).reduce(0, +) / Double(all.count)
        let systemSheets = zip(group, contexts).enumerated().map { i, pair in
            JointSystem.Sheet(
                kind: alone[i]?.kind ?? TiePlacement.kind(given: sheets[pair.0].options.transform), width: Double(sheets[pair.0].width),
                height: Double(sheets[pair.0].height), pixels: pair.1.pixels,
                grounds: pair.1.fitGrounds.map { GroundPoint(x: $0.x - cx, y: $0.y - cy) })
        }
        let weights = ties.map { own[local[$0.element.sheetA]!] && own[local[$0.element.sheetB]!] ? weight : Self.placingTieWeight }
        let system = JointSystem(
            sheets: systemSheets, ties: ties.map { (local[$0.element.sheetA]!, $0.element.pixelA, local[$0.element.sheetB]!, $0.element.pixelB) },
            weights: weights)
        let (start, unplaced) = TiePlacement.start(system, own: own)
        guard unplaced.isEmpty else { throw unplacedError(unplaced.map { group[$0] }, sheets: sheets, kinds: unplaced.map { systemSheets[$0].kind }) }
        // The normal operator made once: the solve and the draws of each sheet's place use it.
        guard let normal = JointSystem.Normal(system), let (theta, iterations) = system.solve(normal, start: start) else {
            throw GeoreferenceError(
                .fitFailed, at: "sheets " + group.map { "'\(sheets[$0].name)'" }.joined(separator: ", "),
                "the joint fit of these tied sheets does not converge; check the ties for a sheet tied to the wrong place")
        }
        func placed(_ l: Int, _ p: PixelPoint) -> GroundPoint {
            let o = system.offsets[l]
            return systemSheets[l].apply(theta[o..<system.offsets[l + 1]], at: p)
        }
        // The ties' ground points (midpoints), then each sheet's pins: one per distinct pixel.
        var pinSums: [[PixelPoint: (GroundPoint, [Int])]] = Array(repeating: [:], count: group.count)
        var grounds: [Int: GroundPoint] = [:]
        for (k, (index, t)) in ties.enumerated() {
            let la = local[t.sheetA]!, lb = local[t.sheetB]!
            let a = placed(la, t.pixelA), b = placed(lb, t.pixelB)
            let g = GroundPoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
            grounds[index] = g
            for (l, p, at) in [(la, t.pixelA, a), (lb, t.pixelB, b)] {
                let linear = systemSheets[l].isExact
                // A sheet without GCPs has no GCP term to balance: any multiple of the ties' pull
                // gives its θ back, so the pin is T(q) + Σ(G − T(q)) (G itself for a lone tie).
                let w = own[l] ? weights[k] : 1
                var (sum, ids) = pinSums[l][p] ?? (linear ? at : GroundPoint(x: 0, y: 0), [])
                // Exact: T(q) + w·Σ(G − T(q)); a stand-in's sheet: the mean of the G.
                if linear { sum.x += w * (g.x - at.x); sum.y += w * (g.y - at.y) } else { sum.x += g.x; sum.y += g.y }
                pinSums[l][p] = (sum, ids + [index])
            }
        }
        func metres(_ a: [GroundPoint], _ b: [GroundPoint]) throws -> [Double] {
            var xs = (a + b).map { $0.x + cx }, ys = (a + b).map { $0.y + cy }
            try CRSConversion(from: fitCRS, to: .wgs84).apply(x: &xs, y: &ys)
            return a.indices.map { QualityAnalysis.distance(xs[$0], ys[$0], xs[a.count + $0], ys[a.count + $0]) }
        }
        let spread = draws > 0 ? try placeSpread(system, normal, theta: theta, draws: draws, jobs: jobs, metres: metres) : nil
        var results: [(Int, SheetFit)] = []
        var before: [Georeference] = []
        var after: [Georeference] = []
        let hops = TiePlacement.hops(own: own, ties: system.ties)
        for (l, s) in group.enumerated() {
            let sh = sheets[s]
            let linear = systemSheets[l].isExact
            let entries = pinSums[l].sorted { $0.value.1[0] < $1.value.1[0] }
            let ids = entries.map { GCP.tiePinID(ties: $0.value.1) }
            let xs = entries.map { linear ? $0.value.0.x : $0.value.0.x / Double($0.value.1.count) }
            let ys = entries.map { linear ? $0.value.0.y : $0.value.0.y / Double($0.value.1.count) }
            let pins = try Self.pins(ids, entries.map(\.key), xs, ys, centre: (cx, cy), from: fitCRS, sheet: sh)
            let kind = systemSheets[l].kind
            // A sheet without GCPs before the joint fit: where its ties to the sheets placed
            // before it put it (``TiePlacement/start(_:own:)``), as pins at its own positions.
            let first =
                try alone[l]
                ?? refit(
                    sh, kind: kind,
                    adding: try Self.pins(
                        ids, entries.map(\.key), entries.map { systemSheets[l].apply(start[l]![...], at: $0.key).x },
                        entries.map { systemSheets[l].apply(start[l]![...], at: $0.key).y }, centre: (cx, cy), from: fitCRS, sheet: sh))
            let fitted = try refit(sh, kind: kind, adding: pins)
            before.append(first)
            after.append(fitted)
            let placement = own[l] ? nil : try TiePlacement.figures(l, hops: hops[l]!, system: system, theta: theta, metres: metres)
            results.append(
                (s, SheetFit(kind: kind, pins: pins, before: first, after: fitted, placement: placement, placeStandardErrorMetres: spread?[l])))
        }
        // Seams before and after, in great-circle metres: each sheet's tie pixels carried to the
        // ground in one call per fit (a CRS conversion is made per call), the joint points in one.
        var asks = [[PixelPoint]](repeating: [], count: group.count), slots: [(Int, Int)] = []
        for (_, t) in ties {
            let la = local[t.sheetA]!, lb = local[t.sheetB]!
            slots.append((asks[la].count, asks[lb].count))
            asks[la].append(t.pixelA)
            asks[lb].append(t.pixelB)
        }
        let groundBefore = try group.indices.map { asks[$0].isEmpty ? [] : try before[$0].pixelsToGround(asks[$0], crs: .wgs84) }
        let groundAfter = try group.indices.map { asks[$0].isEmpty ? [] : try after[$0].pixelsToGround(asks[$0], crs: .wgs84) }
        var gx = ties.map { grounds[$0.offset]!.x + cx }, gy = ties.map { grounds[$0.offset]!.y + cy }
        try CRSConversion(from: fitCRS, to: .wgs84).apply(x: &gx, y: &gy)
        var figures: [TieFigures] = []
        for (k, (index, t)) in ties.enumerated() {
            let la = local[t.sheetA]!, lb = local[t.sheetB]!, (ia, ib) = slots[k]
            let ba = groundBefore[la][ia], bb = groundBefore[lb][ib], aa = groundAfter[la][ia], ab = groundAfter[lb][ib]
            func d(_ p: GroundPoint, _ q: GroundPoint) -> Double { QualityAnalysis.distance(p.x, p.y, q.x, q.y) }
            let g = GroundPoint(x: gx[k], y: gy[k])
            figures.append(
                TieFigures(
                    index: index, ground: [g.x, g.y], seamBeforeMetres: d(ba, bb), seamAfterMetres: d(aa, ab),
                    residualAMetres: d(aa, g), residualBMetres: d(ab, g)))
        }
        return (results, figures, iterations)
    }

    /// Each sheet's standard error of place (``SheetFit/placeStandardErrorMetres``) from the
    /// solved system; nil when the misfits measure no error (``JointSystem/errorModel(_:normal:jobs:)``).
    static func placeSpread(
        _ system: JointSystem, _ normal: JointSystem.Normal, theta: [Double], draws count: Int, jobs: Int,
        metres: ([GroundPoint], [GroundPoint]) throws -> [Double]
    )
        throws
        -> [Double]?
    {
        guard let model = try system.errorModel(theta, normal: normal, jobs: jobs),
            let draws = try system.draws(normal, model: model, count: count, seed: 43, jobs: jobs)
        else { return nil }
        return try system.cornerSpread(theta, draws: draws, metres: metres)
    }

    /// Each sheet with GCPs fitted alone (nil for a sheet without), and the group's fitting CRS:
    /// that of its sheets with GCPs, which must agree, as must the CRS a sheet without GCPs
    /// would be fitted in. A group none of whose sheets has GCPs is an error naming them.
    static func fitAlone(_ group: [Int], own: [Bool], sheets: [SeriesSheet]) throws -> ([Georeference?], CRS) {
        guard let anchor = own.firstIndex(of: true) else {
            let names =
                group.prefix(12).map { "'\(sheets[$0].name)'" }.joined(separator: ", ") + (group.count > 12 ? ", … (\(group.count) sheets)" : "")
            throw GeoreferenceError(
                .tooFewGCPs, at: "sheets " + names,
                "none of these tied sheets has GCPs of its own, so nothing places them on the ground; give at least one of them GCPs (the others are placed through their ties)"
            )
        }
        var alone: [Georeference?] = []
        for (l, s) in group.enumerated() {
            let sh = sheets[s]
            guard own[l] else { alone.append(nil); continue }
            do { alone.append(try Georeferencer.fit(sh.gcps, imageWidth: sh.width, imageHeight: sh.height, options: sh.options)) } catch let e
                as GeoreferenceError
            {
                throw GeoreferenceError(e.reason, at: "sheet '\(sh.name)'", "cannot be fitted on its own GCPs (ties add none): \(e)")
            }
        }
        let fitCRS = alone[anchor]!.fitCRS
        for (l, s) in group.enumerated() {
            let crs = alone[l]?.fitCRS ?? sheets[s].gcps.fitCRSChoice(given: sheets[s].options.fitCRS).crs
            guard !crs.isSame(as: fitCRS) else { continue }
            throw GeoreferenceError(
                .fitFailed, at: "sheet '\(sheets[s].name)'",
                "is fitted in \(crs.label) but the sheet '\(sheets[group[anchor]].name)' it is tied to in \(fitCRS.label); tied sheets need one fit_srs"
            )
        }
        return (alone, fitCRS)
    }

    /// The error for sheets without GCPs that their ties do not place.
    static func unplacedError(_ unplaced: [Int], sheets: [SeriesSheet], kinds: [TransformKind]) -> GeoreferenceError {
        let names =
            unplaced.prefix(12).map { "'\(sheets[$0].name)'" }.joined(separator: ", ") + (unplaced.count > 12 ? ", … (\(unplaced.count) sheets)" : "")
        let need = Set(kinds).sorted { $0.minimumGCPs < $1.minimumGCPs }.map { "\($0.minimumGCPs) for \($0.rawValue)" }.joined(separator: ", ")
        return GeoreferenceError(
            .tooFewGCPs, at: "sheets " + names,
            "have no GCPs, and their ties do not place them: a sheet without GCPs needs ties at enough pixels, not all on one line (\(need)), to sheets with GCPs or placed before it; add ties to a placed neighbour, or GCPs"
        )
    }

    /// Pins with these ids at pixels `at`, ground (xs, ys) in the centred fitting frame, in the
    /// sheet's GCP CRS.
    static func pins(
        _ ids: [String], _ at: [PixelPoint], _ xs: [Double], _ ys: [Double], centre: (Double, Double), from fitCRS: CRS, sheet: SeriesSheet
    ) throws -> [GCP] {
        var xs = xs.map { $0 + centre.0 }, ys = ys.map { $0 + centre.1 }
        try CRSConversion(from: fitCRS, to: sheet.gcps.crs).apply(x: &xs, y: &ys)
        return ids.indices.map { GCP(id: ids[$0], pixel: at[$0], ground: GroundPoint(x: xs[$0], y: ys[$0])) }
    }

    /// The sheet fitted on its GCPs plus `pins` with transform `kind`.
    static func refit(_ sh: SeriesSheet, kind: TransformKind, adding pins: [GCP]) throws -> Georeference {
        var set = sh.gcps
        set.gcps += pins
        do {
            return try Georeferencer.fit(
                set, imageWidth: sh.width, imageHeight: sh.height, options: FitOptions(transform: kind, fitCRS: sh.options.fitCRS))
        } catch let e as GeoreferenceError {
            throw GeoreferenceError(e.reason, at: "sheet '\(sh.name)'", "cannot be refitted with its tie points: \(e)")
        }
    }
}
