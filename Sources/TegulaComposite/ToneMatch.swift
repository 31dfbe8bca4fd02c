import Foundation
import TegulaGeometry
import TegulaPyramid
import TegulaSupport
import TegulaTileset
import TegulaWarp

/// Tone matching of overlapping sheets (`composite.tone: match`): a gain and an offset per
/// sheet and channel (``ToneCorrection``) that make the sheets agree where they overlap.
///
/// 1. **Statistics** (``CompositeBuilder/overlapSums(layerBounds:)``): for every two sheets whose
///    boxes overlap, both are warped over the overlap on the max zoom's pixel grid (coarsened by
///    2 until at most ``samplePixels`` pixels), and where both are opaque (alpha 255) and at
///    least ``kernelReach`` source pixels plus one sample inside both masks, each
///    channel's count, sum and sum of squares are added up in integers — exact, so the sums do
///    not depend on threads or on how the work is split. Sheet `b`'s pixels are taken where
///    its content lines up with sheet `a`'s (``Registration``, up to ``maximumShift`` samples),
///    so sheets fitted a few pixels apart compare the same ground.
/// 2. **The solve** (``solve(sheets:overlaps:anchor:linedUp:)``), per channel, over each connected group
///    of sheets (sheets joined by an overlap of at least ``minimumPixels`` pixels): gains first,
///    from the spreads — `log gᵢ − log gⱼ = log(σⱼ / σᵢ)` for each overlap whose spreads are both at
///    least ``minimumSpread`` levels and whose levels correlate (``minimumCorrelation``), and from the means (`log(μⱼ / μᵢ)`, at ``flatWeight``) for a
///    flat one that joins sheets no overlap with contrast joins (over sea or blank paper) — then
///    offsets, from the means with those gains —
///    `oᵢ − oⱼ = gⱼ μⱼ − gᵢ μᵢ` — each a least-squares problem over the group's overlaps (a
///    weighted graph Laplacian), the offsets' weighed by pixel counts, the gains' by pixel counts
///    times the smaller of the two variances (an overlap of 2 levels' spread had a gain ratio
///    8 % off on a made series whose pixels were rounded from an 8-bit source, one of 9 levels 0.5 %). The anchor makes it unique: the named
///    sheet keeps gain 1 and offset 0, or else the group's mean log gain and mean offset are 0.
///    A sheet whose gain comes out beyond ``maximumGain`` is left as scanned, the rest solved again.
///    Given the pairs that matching lined up (`ties: auto`), an overlap with contrast of any
///    other pair enters nothing: only ties tell a sheet placed stretched from one placed right.
///    Each sheet's gain says what it came from (``GainBasis``): spreads, means, or nothing.
///    Sheets related by `v = a·s + b` on a common source `s` come out with `gᵢ aᵢ` and
///    `gᵢ bᵢ + oᵢ` equal across the group (exactly, up to rounding and clipping of the scans).
/// Means and spreads are those of the same overlap seen by both sheets, not pixel pairs, so a
/// misfit of a few pixels between the sheets hardly changes them.
public enum ToneMatch {
    /// One overlap's sums: the two sheets (`a` < `b`), the pixels both cover opaquely, and per
    /// channel (red, green, blue) the sums and sums of squares of each sheet's levels there.
    public struct Overlap: Sendable, Hashable, Codable {
        public var a: Int
        public var b: Int
        public var pixels: Int
        public var sumA: [Int]
        public var squaresA: [Int]
        public var sumB: [Int]
        public var squaresB: [Int]
        /// Per channel the sum of the products of the two sheets' levels at each pixel: with the
        /// sums, how alike the two views are pixel for pixel (``correlation(_:)``).
        public var products: [Int]
        /// The shift (dx, dy) in samples of the overlap's window at which sheet `b`'s pixels were
        /// compared with sheet `a`'s (``Registration``).
        public var shift: [Int]

        public init(a: Int, b: Int) {
            self.a = a
            self.b = b
            pixels = 0
            sumA = [0, 0, 0]; squaresA = [0, 0, 0]; sumB = [0, 0, 0]; squaresB = [0, 0, 0]
            products = [0, 0, 0]
            shift = [0, 0]
        }

        /// Add the pixels of two RGBA windows of `width` × `height` where both are opaque, sample
        /// (x, y) of `pa` against (x + dx, y + dy) of `pb` (``shift``).
        mutating func add(_ pa: UnsafePointer<UInt8>, _ pb: UnsafePointer<UInt8>, width: Int, height: Int, dx: Int, dy: Int) {
            shift = [dx, dy]
            for y in max(0, -dy)..<min(height, height - dy) {
                let xs = max(0, -dx)..<min(width, width - dx)
                add(pa + (y * width + xs.lowerBound) * 4, pb + ((y + dy) * width + xs.lowerBound + dx) * 4, count: xs.count)
            }
        }

        /// Add the pixels of two RGBA buffers of `count` pixels where both are opaque.
        mutating func add(_ pa: UnsafePointer<UInt8>, _ pb: UnsafePointer<UInt8>, count: Int) {
            var n = 0
            var sa = (0, 0, 0), qa = (0, 0, 0), sb = (0, 0, 0), qb = (0, 0, 0), ab = (0, 0, 0)
            for i in 0..<max(count, 0) {
                let x = pa + i * 4, y = pb + i * 4
                guard x[3] == 255, y[3] == 255 else { continue }
                n += 1
                let (r0, g0, b0) = (Int(x[0]), Int(x[1]), Int(x[2]))
                let (r1, g1, b1) = (Int(y[0]), Int(y[1]), Int(y[2]))
                sa.0 += r0; sa.1 += g0; sa.2 += b0
                qa.0 += r0 * r0; qa.1 += g0 * g0; qa.2 += b0 * b0
                sb.0 += r1; sb.1 += g1; sb.2 += b1
                qb.0 += r1 * r1; qb.1 += g1 * g1; qb.2 += b1 * b1
                ab.0 += r0 * r1; ab.1 += g0 * g1; ab.2 += b0 * b1
            }
            pixels += n
            sumA[0] += sa.0; sumA[1] += sa.1; sumA[2] += sa.2
            squaresA[0] += qa.0; squaresA[1] += qa.1; squaresA[2] += qa.2
            sumB[0] += sb.0; sumB[1] += sb.1; sumB[2] += sb.2
            squaresB[0] += qb.0; squaresB[1] += qb.1; squaresB[2] += qb.2
            products[0] += ab.0; products[1] += ab.1; products[2] += ab.2
        }

        /// Mean and standard deviation of a sheet's levels in channel `c` (`first`: sheet `a`).
        func moments(_ c: Int, first: Bool) -> (mean: Double, spread: Double) {
            let n = Double(pixels)
            let s = Double(first ? sumA[c] : sumB[c]), q = Double(first ? squaresA[c] : squaresB[c])
            let mean = s / n
            return (mean, max(0, q / n - mean * mean).squareRoot())
        }

        /// The correlation of the two sheets' levels in channel `c` over the overlap's pixels
        /// (1: one is a gain and an offset of the other; 0 when either is flat).
        func correlation(_ c: Int) -> Double {
            let (ma, mb) = (moments(c, first: true), moments(c, first: false))
            guard ma.spread > 0, mb.spread > 0 else { return 0 }
            return (Double(products[c]) / Double(pixels) - ma.mean * mb.mean) / (ma.spread * mb.spread)
        }
    }

    /// Overlaps with fewer opaque pixels than this join no sheets (too few to measure a tone).
    public static let minimumPixels = 64
    /// A spread (standard deviation, levels) below which an overlap's spreads say nothing of the
    /// gains: a flat overlap (paper, sea) ties the gains by its means instead, at ``flatWeight``.
    /// Whole levels make a small spread a poor measure: at 1 level, a 64-sheet made series' sea
    /// overlaps (spreads of 0.3–1.9 levels) put sheets' gains up to 14 % off; at 4, the 3 × 3
    /// made series of `ToneTests` lost the overlaps of 2–4 levels that join its sheets' green
    /// (gains 10 % off, 0.3 % with them).
    public static let minimumSpread = 2.0
    /// The weight per pixel of a flat overlap's gain equation (`log gᵢ − log gⱼ = log(μⱼ / μᵢ)`),
    /// against at least 1 (pixels × a variance of at least 1) per pixel of an overlap with
    /// contrast. Flat overlaps enter the gains only between sheets that no chain of overlaps with
    /// contrast joins (a sheet over open sea, groups that meet only over sea), and weigh so little
    /// that they hardly bend the gains the spreads fixed within each such part. Left out, those
    /// sheets kept gain 1 or were matched only among themselves, and `tone: match` spread the
    /// tones of a 64-sheet made series wider than they were (10.9 % → 14.6 %).
    public static let flatWeight = 1e-4
    /// The largest gain a sheet's correction may have, or its inverse the smallest: beyond it a
    /// sheet's overlaps disagree (a sheet placed tens of pixels off, beyond ``maximumShift``),
    /// and the sheet is left as scanned. On a 1,024-sheet made series placed by `ties: auto`,
    /// gains up to 1.7 put the red 56 % apart; bounded, 19 % (the sheets' own 10 %).
    public static let maximumGain = 1.5
    /// The least mean (levels) a flat overlap needs in both sheets to give a gain ratio.
    public static let minimumMean = 1.0
    /// The least correlation of the two sheets' levels over an overlap for its spreads to fix a
    /// gain: below it the two views are not of the same pixels (sheets fitted a pixel or more
    /// apart, or a sheet placed wrong), and their spreads and means differ by what each sheet
    /// shows, not by its tone: such an overlap enters neither the gains nor the offsets. Taken as
    /// it was, a sheet placed 20 px off (zoom 6) on a 4 × 4 made series spread the gains 16–20 %
    /// apart (from 9–12 %; now 2.8–9.3 %).
    public static let minimumCorrelation = 0.7
    /// The most two sheets' means over an overlap may differ (as a ratio) for them to tie the
    /// gains: beyond it the two views are of different ground (a sheet placed wrong), not of one
    /// ground under two tints.
    public static let maximumMeanRatio = 1.5
    /// How far a resampling kernel reaches, in source pixels (lanczos's 3, the widest): pixels
    /// nearer a mask edge than this plus one sample are left out of an overlap's sums. On an 8 × 8
    /// made series with GCPs 4 px off, fitted jointly, the paper within it left the corrected
    /// gains up to 56 % apart (the sheets' own: 11 %); without it 9–15 %, as with exact GCPs.
    public static let kernelReach = 3.0
    /// The most samples one sheet's view of an overlap is shifted against the other's to line
    /// their content up (``Registration``).
    public static let maximumShift = 24
    /// The least rise in correlation for ``Registration`` to take a shift one sample further.
    static let shiftGain = 1e-4
    /// The least rise in correlation over no shift for ``Registration`` to keep a shift: below
    /// it the views already show the same ground (sheets fitted within a pixel or so of each
    /// other), and the climb follows the noise of flat overlaps (sea, paper). Kept whatever it
    /// gained, shifts of 3–7 samples over sea widened a 64-sheet made series' corrected gains
    /// (green 2.0 % apart → 3.1 %); with it 2.0 %. A shift must also halve what the correlation
    /// lacks of 1: with this bound alone, shifts over sea still took a 1,024-sheet series'
    /// green from 3.2 % to 7.4 %.
    static let minimumShiftGain = 0.003
    /// The most pixels one overlap is sampled at (1024²): larger overlaps are sampled on a grid
    /// coarser by powers of 2.
    public static let samplePixels = 1 << 20

    /// What ``solve(sheets:overlaps:anchor:linedUp:)`` found: each sheet's correction, in sheet order,
    /// and the sheets it left as scanned because their gain came out beyond ``maximumGain``.
    public struct Solution: Sendable, Equatable {
        public var corrections: [ToneCorrection]
        /// Sheets left as scanned (gain 1, offset 0), ascending.
        public var unmatched: [Int]
        /// Per sheet and channel (red, green, blue): what its gain was solved from.
        public var gainFrom: [[GainBasis]]
    }

    /// What a sheet's gain in one channel was solved from.
    public enum GainBasis: String, Sendable, Codable {
        /// Overlaps with contrast: their spreads fix the gain against its neighbours', in the part
        /// of its group that overlaps with contrast join (the anchor's, else the largest).
        case spreads
        /// Flat overlaps' means (sea, blank paper), where a gain cannot be told from an offset
        /// (``flatWeight``): the sheet's own, or those that set its part of the group (an island
        /// of contrast among sea) against the rest. A guess, which the offsets make good over
        /// that flat ground.
        case means
        /// Nothing: no overlap of it says anything in this channel, or its gain ran beyond
        /// ``maximumGain``; gain 1.
        case none
    }

    /// Two sheets, the lower first: a pair whose overlap matching lined up (``solve(sheets:overlaps:anchor:linedUp:)``).
    public struct Pair: Sendable, Hashable {
        public let a: Int
        public let b: Int

        public init(_ x: Int, _ y: Int) { (a, b) = (min(x, y), max(x, y)) }
    }

    /// Each sheet's correction, in sheet order: identity for a sheet in no overlap. `anchor`: the
    /// sheet that keeps its tone in its group; nil (or a group without it) anchors the group's mean.
    /// A sheet whose gain comes out beyond ``maximumGain`` (its overlaps disagree with each other)
    /// is left as scanned and its overlaps out, and the rest solved again, until none is beyond.
    /// `linedUp`: the pairs whose overlaps matching found to line up (`ties: auto`: the pairs a
    /// tie joins); an overlap of any other pair with contrast enters neither the gains nor the
    /// offsets (``Kind/unknown``), a flat one its means as ever (``Kind/flat``: smooth ground
    /// looks the same a few pixels off). Nil: every overlap is taken as lined up.
    public static func solve(sheets: Int, overlaps: [Overlap], anchor: Int?, linedUp: Set<Pair>? = nil) -> Solution {
        var left = Set<Int>()
        while true {
            let kept = overlaps.filter { !left.contains($0.a) && !left.contains($0.b) }
            let (corrections, gainFrom) = corrections(sheets: sheets, overlaps: kept, anchor: anchor, linedUp: linedUp)
            let beyond = corrections.indices.filter { i in corrections[i].gain.contains { abs(log($0)) > log(maximumGain) } }
            if beyond.isEmpty { return Solution(corrections: corrections, unmatched: left.sorted(), gainFrom: gainFrom) }
            left.formUnion(beyond)
        }
    }

    /// Each sheet's correction from these overlaps, and what each gain was solved from, as
    /// ``solve(sheets:overlaps:anchor:linedUp:)`` without its bound on the gains.
    static func corrections(sheets: Int, overlaps: [Overlap], anchor: Int?, linedUp: Set<Pair>? = nil) -> ([ToneCorrection], [[GainBasis]]) {
        let used = overlaps.filter { $0.pixels >= minimumPixels && $0.a != $0.b }
        var gains = [[Double]](repeating: [1, 1, 1], count: sheets)
        var offsets = [[Double]](repeating: [0, 0, 0], count: sheets)
        var gainFrom = [[GainBasis]](repeating: [.none, .none, .none], count: sheets)
        for c in 0..<3 {
            // Gains from the overlaps with contrast in both sheets.
            // Weighed by pixels × the smaller variance: rounding to whole levels moves a spread
            // by about 1/σ² of itself, so an overlap of little contrast says least of the gains.
            var edges: [(Int, Int, Double, Double)] = [], flat: [(Int, Int, Double, Double)] = []
            var alike: [Overlap] = []
            for o in used {
                let (ma, mb) = (o.moments(c, first: true), o.moments(c, first: false))
                switch kind(o, c, linedUp: linedUp?.contains(Pair(o.a, o.b)) ?? true) {
                case .contrast:
                    let contrast = min(ma.spread, mb.spread)
                    edges.append((o.a, o.b, Double(o.pixels) * contrast * contrast, log(mb.spread / ma.spread)))
                    alike.append(o)
                case .flat:
                    flat.append((o.a, o.b, Double(o.pixels) * flatWeight, log(mb.mean / ma.mean)))
                    alike.append(o)
                case .unlike, .unknown:
                    break
                }
            }
            // Flat overlaps join only sheets that no chain of overlaps with contrast joins.
            let joined = Laplacian.roots(sheets: sheets, edges: edges)
            let meansOnly = flat.filter { joined[$0.0] != joined[$0.1] }
            let contrast = edges
            edges += meansOnly
            for (i, b) in Self.bases(sheets: sheets, contrast: contrast, all: edges, anchor: anchor).enumerated() { gainFrom[i][c] = b }
            let logGain = Laplacian(sheets: sheets, edges: edges).solve(anchor: anchor)
            for i in 0..<sheets { gains[i][c] = exp(logGain[i]) }
            // Offsets from the means, with those gains.
            edges = alike.map { o in
                let (ma, mb) = (o.moments(c, first: true), o.moments(c, first: false))
                return (o.a, o.b, Double(o.pixels), gains[o.b][c] * mb.mean - gains[o.a][c] * ma.mean)
            }
            let offset = Laplacian(sheets: sheets, edges: edges).solve(anchor: anchor)
            for i in 0..<sheets { offsets[i][c] = offset[i] }
        }
        return ((0..<sheets).map { ToneCorrection(gain: gains[$0], offset: offsets[$0]) }, gainFrom)
    }

    /// What each sheet's gain in one channel comes from, given the gain equations with contrast
    /// and all of them (the flat ones added): in each group the equations join, the sheets of one
    /// part joined by contrast (the anchor's, else the largest, else the one of the smallest
    /// sheet) take theirs from the spreads; the group's other sheets are set against them, or
    /// against each other, through flat overlaps' means, even a part of its own with contrast
    /// (an island among sea); a sheet in no equation from nothing.
    static func bases(sheets: Int, contrast: [(Int, Int, Double, Double)], all: [(Int, Int, Double, Double)], anchor: Int?) -> [GainBasis] {
        let part = Laplacian.roots(sheets: sheets, edges: contrast), group = Laplacian.roots(sheets: sheets, edges: all)
        let inContrast = Set(contrast.flatMap { [$0.0, $0.1] }), inEquation = Set(all.flatMap { [$0.0, $0.1] })
        var size: [Int: Int] = [:]
        for i in inContrast { size[part[i], default: 0] += 1 }
        var main: [Int: Int] = [:]  // group → the part whose gains the spreads fix
        for p in size.keys.sorted() where main[group[p]].map({ size[$0]! < size[p]! }) ?? true { main[group[p]] = p }
        // An anchor over flat ground alone sets its whole group through means.
        if let anchor, inEquation.contains(anchor) { main[group[anchor]] = inContrast.contains(anchor) ? part[anchor] : -1 }
        return (0..<sheets).map { i in
            guard inEquation.contains(i) else { return .none }
            return inContrast.contains(i) && main[group[i]] == part[i] ? .spreads : .means
        }
    }

    /// What an overlap says of two sheets' tones in one channel.
    enum Kind {
        /// Both sheets show contrast there, and the same pixels: the spreads fix a gain ratio.
        case contrast
        /// Flat in either sheet (sea, blank paper), one ground: the means tie the gains.
        case flat
        /// Contrast in both, but not the same pixels (``minimumCorrelation``): it says nothing.
        case unlike
        /// Flat, and means too dark or too far apart to be one ground (``maximumMeanRatio``), or
        /// with contrast where matching did not line the two sheets up: nothing.
        case unknown
    }

    /// What overlap `o` says in channel `c`; with contrast but not `linedUp`, nothing: the two
    /// views may be of ground stretched or turned against each other, and their spreads and
    /// means differ by what each shows, not by its tone, however well they still correlate.
    static func kind(_ o: Overlap, _ c: Int, linedUp: Bool = true) -> Kind {
        let (ma, mb) = (o.moments(c, first: true), o.moments(c, first: false))
        if ma.spread >= minimumSpread, mb.spread >= minimumSpread {
            guard linedUp else { return .unknown }
            return o.correlation(c) >= minimumCorrelation ? .contrast : .unlike
        }
        guard ma.mean >= minimumMean, mb.mean >= minimumMean, abs(log(mb.mean / ma.mean)) <= log(maximumMeanRatio) else { return .unknown }
        return .flat
    }

    /// The least-squares problem `min Σ w (xᵢ − xⱼ − d)²` over edges (i, j, w, d), solved per
    /// connected group with the anchor's x = 0, else the group's mean x = 0: the normal equations
    /// `L x = r` (L the weighted Laplacian) plus `κ u uᵀ` (u the anchor's unit vector or the
    /// group's ones, κ the mean degree), which keep the solution and make the matrix positive
    /// definite; dense Cholesky per group (a 1,024-sheet group: 1,024³/6 ≈ 0.2 G multiply-adds).
    struct Laplacian {
        let sheets: Int
        let edges: [(Int, Int, Double, Double)]

        /// Each sheet's group (connected by `edges`) as its smallest sheet, by union–find.
        static func roots(sheets: Int, edges: [(Int, Int, Double, Double)]) -> [Int] {
            var parent = Array(0..<sheets)
            func root(_ i: Int) -> Int { var i = i; while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }; return i }
            for e in edges { let (ra, rb) = (root(e.0), root(e.1)); if ra != rb { parent[max(ra, rb)] = min(ra, rb) } }
            return (0..<sheets).map(root)
        }

        func solve(anchor: Int?) -> [Double] {
            var x = [Double](repeating: 0, count: sheets)
            // Groups, each in ascending sheet order.
            let root = Laplacian.roots(sheets: sheets, edges: edges)
            var groups: [Int: [Int]] = [:]
            for i in 0..<sheets { groups[root[i], default: []].append(i) }
            var edgesOf: [Int: [(Int, Int, Double, Double)]] = [:]
            for e in edges { edgesOf[root[e.0], default: []].append(e) }
            for key in groups.keys.sorted() {
                let members = groups[key]!
                guard members.count > 1, let es = edgesOf[key] else { continue }
                let n = members.count
                let local = Dictionary(uniqueKeysWithValues: members.enumerated().map { ($1, $0) })
                var a = [Double](repeating: 0, count: n * n), r = [Double](repeating: 0, count: n)
                let wmax = es.map(\.2).max() ?? 1
                for (i, j, w0, d) in es {
                    let (p, q, w) = (local[i]!, local[j]!, w0 / wmax)
                    a[p * n + p] += w; a[q * n + q] += w
                    a[p * n + q] -= w; a[q * n + p] -= w
                    r[p] += w * d; r[q] -= w * d
                }
                let kappa = (0..<n).reduce(0.0) { $0 + a[$1 * n + $1] } / Double(n)
                if let anchor, let k = local[anchor] {
                    a[k * n + k] += kappa
                } else {
                    for k in 0..<(n * n) { a[k] += kappa / Double(n) }
                }
                guard var solution = Laplacian.cholesky(a, n: n, rhs: r) else { continue }
                // The anchor's value is 0 up to rounding; made exactly 0 (a shift solves the same).
                if let anchor, let k = local[anchor] { let s = solution[k]; solution = solution.map { $0 - s } }
                for (p, i) in members.enumerated() { x[i] = solution[p] }
            }
            return x
        }

        /// Solve the symmetric positive definite `a x = b` (row-major n × n); nil when it is not.
        static func cholesky(_ a: [Double], n: Int, rhs b: [Double]) -> [Double]? {
            var l = a
            for j in 0..<n {
                var s = l[j * n + j]
                for k in 0..<j { s -= l[j * n + k] * l[j * n + k] }
                guard s > 0 else { return nil }
                let d = s.squareRoot()
                l[j * n + j] = d
                for i in (j + 1)..<max(j + 1, n) {
                    var t = l[i * n + j]
                    for k in 0..<j { t -= l[i * n + k] * l[j * n + k] }
                    l[i * n + j] = t / d
                }
            }
            var y = b
            for i in 0..<n {
                for k in 0..<i { y[i] -= l[i * n + k] * y[k] }
                y[i] /= l[i * n + i]
            }
            for i in stride(from: n - 1, through: 0, by: -1) {
                for k in (i + 1)..<max(i + 1, n) { y[i] -= l[k * n + i] * y[k] }
                y[i] /= l[i * n + i]
            }
            return y
        }
    }
}

extension CompositeBuilder {
    /// The overlap sums of every two layers whose boxes overlap (``ToneMatch``), in (a, b) order,
    /// on ``jobs`` threads; the same sums however many threads run them.
    public func overlapSums(layerBounds: [ProjectedBounds?]) throws -> [ToneMatch.Overlap] {
        var found: [(Int, Int, ProjectedBounds)] = []
        for a in layerBounds.indices {
            guard let ba = layerBounds[a] else { continue }
            for b in (a + 1)..<max(a + 1, layerBounds.count) {
                guard let bb = layerBounds[b], let o = ba.intersection(bb), o.width > 0, o.height > 0 else { continue }
                found.append((a, b, o))
            }
        }
        let pairs = found, sources = self.sources
        let out = Locked([ToneMatch.Overlap?](repeating: nil, count: pairs.count)), resampling = self.resampling
        // The max zoom's pixel grid: from Web Mercator's corner, else from the set's matrix origin.
        let resolution0: Double, originX: Double, originY: Double
        if let grid {
            let m = try grid.matrix(zoom: maxZoom), o = grid.origin(of: m)
            (resolution0, originX, originY) = (grid.bounds(of: Tile(x: 0, y: 0, z: maxZoom)).width / Double(tilePixels), o.x, o.y)
        } else {
            let h = WebMercator.halfCircumference
            (resolution0, originX, originY) = (WebMercator.tileExtent(zoom: maxZoom) / Double(tilePixels), -h, h)
        }
        try ParallelWork.run(
            jobs: jobs, count: pairs.count,
            makeState: { _ in
                Worker(encoder: TileEncoder(format: .png), side: 0)
            },
            process: { worker, k in
                let (a, b, box) = pairs[k]
                // The overlap on the max zoom's pixel grid, coarsened until it is small enough.
                var resolution = resolution0
                func window() -> (left: Double, top: Double, width: Int, height: Int) {
                    let x0 = ((box.left - originX) / resolution).rounded(.down), x1 = ((box.right - originX) / resolution).rounded(.up)
                    let y0 = ((originY - box.top) / resolution).rounded(.down), y1 = ((originY - box.bottom) / resolution).rounded(.up)
                    return (x0 * resolution + originX, originY - y0 * resolution, Int(x1 - x0), Int(y1 - y0))
                }
                var w = window()
                while w.width * w.height > ToneMatch.samplePixels { resolution *= 2; w = window() }
                let count = w.width * w.height
                let pa = UnsafeMutablePointer<UInt8>.allocate(capacity: count * 4), pb = UnsafeMutablePointer<UInt8>.allocate(capacity: count * 4)
                defer { pa.deallocate(); pb.deallocate() }
                try worker.warper(a, sources: sources, resampling: resampling)
                    .warp(left: w.left, top: w.top, resolution: resolution, width: w.width, height: w.height, into: pa)
                try worker.warper(b, sources: sources, resampling: resampling)
                    .warp(left: w.left, top: w.top, resolution: resolution, width: w.width, height: w.height, into: pb)
                // Pixels nearer either sheet's mask edge than its kernel's reach mix in the paper
                // beyond the mask (a sheet fitted a fraction of a pixel off its neighbour sees it
                // there): left out, their alpha set to 0 here.
                for (layer, pixels) in [(a, pa), (b, pb)] {
                    let s = try sources.source(layer)
                    let reach = (ToneMatch.kernelReach * (try s.nativeResolution()) + resolution) / resolution
                    let edge = EdgeDistance(
                        ring: s.footprint, left: w.left, top: w.top, resolution: resolution,
                        side: max(w.width, w.height), cap: reach)
                    for y in 0..<w.height {
                        for x in 0..<w.width where edge.at(x, y) < reach { pixels[(y * w.width + x) * 4 + 3] = 0 }
                    }
                }
                var o = ToneMatch.Overlap(a: a, b: b), unshifted = o
                let shift = ToneMatch.Registration(pa, pb, width: w.width, height: w.height).bestShift()
                o.add(pa, pb, width: w.width, height: w.height, dx: shift.dx, dy: shift.dy)
                // A shift that lines up the sum of the channels but not each one is not kept.
                unshifted.add(pa, pb, count: count)
                if (0..<3).contains(where: { o.correlation($0) < unshifted.correlation($0) }) { o = unshifted }
                out.withLock { $0[k] = o }
            })
        return out.withLock { $0 }.compactMap { $0 }
    }
}
