import Foundation
import TegulaGeometry
import TegulaGeoreference
import TegulaMatch
import TegulaScan
import TegulaSupport

extension AutoTies {
    /// A sheet without GCPs (`gcps: none`) under `ties: auto`: no fit, so no footprint to find
    /// its overlaps from until matching it whole against a placed neighbour gives it one.
    struct Loose {
        let name: String
        let input: String
        let mask: [PixelPoint]
        /// Whether the mask is its own (its map's outline) rather than its scan's border.
        let masked: Bool
        let width: Int
        let height: Int
        /// Its georeference stage hash without ties (for the record's key).
        let hash: String
        let scans: any ScanOpener

        /// Nil for a map with GCPs, or not fitted from GCPs at all.
        init?(map: MapSpec, pipeline: Pipeline) throws {
            guard let g = map.georeference, g.gcps == .tiesOnly, g.bounds == nil else { return nil }
            let step = GeoreferenceStep(map: map, folder: pipeline.workFolder(for: map), digests: FileDigests(stamps: [:]), scans: pipeline.inputs)
            let reader = try pipeline.inputs.open(map.input).reader()
            let w = Double(reader.width), h = Double(reader.height)
            let own = try step.mask()
            mask = own ?? [PixelPoint(x: 0, y: 0), PixelPoint(x: w, y: 0), PixelPoint(x: w, y: h), PixelPoint(x: 0, y: h)]
            masked = own != nil
            (name, input, width, height, hash, scans) = (map.name, map.input, reader.width, reader.height, step.hash(), pipeline.inputs)
        }

        /// A fresh reader of the scan.
        func reader() throws -> any ScanReader { try scans.open(input).reader() }
    }

    /// A sheet without GCPs that matching did not place, and why.
    struct Unplaced: Codable, Sendable, Equatable {
        var map: String
        var why: String
    }

    /// Why a sheet without GCPs is not placed when no sheet around it was placed.
    static let nothingAround = "no placed sheet is around it to match"

    /// The sheets without GCPs placed round by round, as ``TiePlacement`` places them in the joint
    /// fit: in each round every waiting sheet is matched whole against the sheets placed before
    /// the round that are around it (``candidates(for:among:grid:order:)``), nearest first, until one
    /// matches; the ties of that match and the neighbour's fit give it an approximate fit
    /// (``approximate(_:on:ties:)``), and with it its overlaps with every placed sheet are matched
    /// as any two fitted sheets' are. A sheet placed so whose overlaps then give no ties goes back
    /// to waiting, its overlaps' records dropped, and is matched against the neighbours it has not
    /// been matched against yet in a later round (one placed since, say); the rounds end when one
    /// places nothing. Then the overlaps that did not match are tried again from the placed
    /// sheets' fits through all their ties (``retie(_:loose:found:)``). Returns the sheets left.
    /// Each round's matching runs on up to `jobs` threads: each waiting sheet against the sheets
    /// placed before the round, then each newly placed sheet's overlaps, kept in one thread's
    /// order, so the ties are the same however many threads found them.
    static func place(_ loose: [Loose], among fitted: [Sheet], grid: [String: GridPosition]?, found: inout Finding, jobs: Int) throws
        -> [Unplaced]
    {
        var placed = fitted, waiting = loose, untied: Set<String> = []
        var tried: [String: Set<String>] = [:]
        while !waiting.isEmpty {
            let located = Locked([(Sheet?, Set<String>)](repeating: (nil, []), count: waiting.count))
            let (before, round, finder, order) = (placed, waiting, found.finder, found.order)
            let (triedBefore, progress) = (tried, found.progress)
            progress.queue(round.count)
            try ParallelWork.run(jobs: jobs, count: round.count, makeState: { _ in () }) { _, k in
                var seen = triedBefore[round[k].name] ?? []
                let s = try locate(round[k], among: before, grid: grid, finder, order: order, tried: &seen)
                located.withLock { $0[k] = (s, seen) }
                progress.step()
            }
            var newly: [Sheet] = [], still: [Loose] = []
            for (l, (s, seen)) in zip(waiting, located.current) {
                tried[l.name] = seen
                if let s { newly.append(s) } else { still.append(l) }
            }
            guard !newly.isEmpty else { break }
            try found.tie(newly.enumerated().flatMap { k, s in (placed + newly.prefix(k)).map { (s, $0) } }, jobs: jobs)
            let tied = Set(found.pairs.filter(\.matched).flatMap { [$0.mapA, $0.mapB] })
            for s in newly where !tied.contains(s.name) {
                found.forget(s.name)
                untied.insert(s.name)
                still += loose.filter { $0.name == s.name }
            }
            placed += newly.filter { tied.contains($0.name) }
            waiting = still
        }
        try retie(placed, loose: Set(loose.map(\.name)), found: &found)
        return waiting.map { l in
            let names = (tried[l.name] ?? []).sorted { found.order[$0, default: 0] < found.order[$1, default: 0] }
            let list = names.prefix(6).map { "'\($0)'" }.joined(separator: ", ") + (names.count > 6 ? ", …" : "")
            let why =
                untied.contains(l.name)
                ? "matched a neighbour whole, but none of its overlaps then gave ties"
                : names.isEmpty
                    ? nothingAround
                    : "matches none of the placed sheets around it (\(list))"
                        + (l.masked ? "" : "; it has no mask, and a sheet is matched whole by its map's outline (georeference: {mask: …})")
            return Unplaced(map: l.name, why: why)
        }
    }

    /// The overlaps of sheets placed by matching that did not match (or were not tried: their
    /// approximate fits did not meet), tried once more from better predictions: each such sheet
    /// refitted (a helmert) through all the ties of its matched pairs and where the other sheets'
    /// fits put their twins, not only the ties of the one match that placed it. A first fit from
    /// one edge's ties turns the sheet about that edge by their error, so its other overlaps were
    /// predicted several pixels off; from the refit they are predicted as from the sheets' true
    /// places, near enough. A pair that matches now replaces its record; the finder's checks are
    /// the same, so a pair that does not hold still gets no ties.
    static func retie(_ placed: [Sheet], loose: Set<String>, found: inout Finding) throws {
        var sheets = Dictionary(uniqueKeysWithValues: placed.map { ($0.name, $0) })
        for s in placed where loose.contains(s.name) {
            if let better = try refitted(s, among: sheets, found: found) { sheets[s.name] = better }
        }
        var known: [Set<String>: Int] = [:]
        for (i, p) in found.pairs.enumerated() { known[[p.mapA, p.mapB]] = i }
        for (i, s) in placed.enumerated() where loose.contains(s.name) {
            for (j, o) in placed.enumerated() where j != i && (j < i || !loose.contains(o.name)) {
                let at = known[[s.name, o.name]]
                if let at, found.pairs[at].matched { continue }
                let n = found.pairs.count
                let matched = try found.tie(sheets[s.name]!, sheets[o.name]!)
                guard let at else { continue }
                if matched {
                    found.pairs[at] = found.pairs[n]
                    found.points[at] = found.points[n]
                }
                found.drop(after: n)
            }
        }
    }

    /// A sheet placed by matching, refitted through the ties of all its matched pairs; nil when
    /// it has fewer than two distinct tie pixels or they fit no helmert.
    static func refitted(_ s: Sheet, among sheets: [String: Sheet], found: Finding) throws -> Sheet? {
        var pixels: [PixelPoint] = [], grounds: [GroundPoint] = []
        let crs = s.fit.gcps.crs
        for (pair, points) in zip(found.pairs, found.points) where pair.matched && (pair.mapA == s.name || pair.mapB == s.name) {
            let mine = pair.mapA == s.name
            guard let other = sheets[mine ? pair.mapB : pair.mapA] else { continue }
            pixels += points.map { mine ? $0.scan : $0.reference }
            grounds += try other.fit.pixelsToGround(points.map { mine ? $0.reference : $0.scan }, crs: crs)
        }
        // Two pairs may tie one pixel (the finder's cells fall alike): a fit takes each pixel once.
        var seen: Set<[Double]> = []
        let gcps = zip(pixels, grounds).filter { seen.insert([$0.0.x, $0.0.y]).inserted }.enumerated().map { i, t in
            GCP(id: "m\(i + 1)", pixel: t.0, ground: t.1)
        }
        guard gcps.count >= 2,
            let fit = try? Georeferencer.fit(
                GCPSet(gcps: gcps, crs: crs), imageWidth: s.fit.imageWidth, imageHeight: s.fit.imageHeight, options: FitOptions(transform: .helmert))
        else { return nil }
        return try Sheet(name: s.name, input: s.input, fit: fit, mask: s.mask, hash: s.hash, scans: s.scans)
    }

    /// The placed sheets to match a waiting one against, nearest first: with a grid, the (up to
    /// four) that share an edge with it; without one, every placed sheet, by its distance in the
    /// pipeline's map order.
    static func candidates(for l: Loose, among placed: [Sheet], grid: [String: GridPosition]?, order: [String: Int]) -> [Sheet] {
        let at = order[l.name, default: 0]
        guard let grid, let p = grid[l.name] else {
            return placed.sorted {
                (abs(order[$0.name, default: 0] - at), order[$0.name, default: 0]) < (
                    abs(order[$1.name, default: 0] - at), order[$1.name, default: 0]
                )
            }
        }
        return placed.filter { grid[$0.name]?.steps(to: p) == 1 }.sorted { order[$0.name, default: 0] < order[$1.name, default: 0] }
    }

    /// The waiting sheet placed approximately by the first of its candidates (not tried before)
    /// whose whole sheet it matches (TegulaMatch's ``SheetLocator``); nil when none does.
    static func locate(
        _ l: Loose, among placed: [Sheet], grid: [String: GridPosition]?, _ finder: OverlapTieSettings, order: [String: Int],
        tried: inout Set<String>
    ) throws -> Sheet? {
        for n in candidates(for: l, among: placed, grid: grid, order: order) where !tried.contains(n.name) {
            tried.insert(n.name)
            let side = grid.flatMap { g in g[l.name].flatMap { p in g[n.name].flatMap { p.side(of: $0) } } }
            let verdict = try SheetLocator.ties(
                sheet: l.reader(), mask: l.mask, neighbour: n.reader(), neighbourMask: n.mask, side: side, settings: finder)
            if case .matched(let points, _) = verdict, let s = try approximate(l, on: n, ties: points) { return s }
        }
        return nil
    }

    /// The waiting sheet with a similarity (helmert) through its tie pixels and where the
    /// neighbour's fit puts their twins: close enough for its overlaps to be predicted and
    /// searched; the joint fit then places it from its ties alone.
    static func approximate(_ l: Loose, on n: Sheet, ties: [ProposedPoint]) throws -> Sheet? {
        let crs = n.fit.gcps.crs
        let grounds = try n.fit.pixelsToGround(ties.map(\.reference), crs: crs)
        let gcps = zip(ties, grounds).enumerated().map { i, t in GCP(id: "m\(i + 1)", pixel: t.0.scan, ground: t.1) }
        let fit = try Georeferencer.fit(
            GCPSet(gcps: gcps, crs: crs), imageWidth: l.width, imageHeight: l.height, options: FitOptions(transform: .helmert))
        return try Sheet(name: l.name, input: l.input, fit: fit, mask: l.mask, hash: l.hash, scans: l.scans)
    }
}

extension AutoTies.Finding {
    /// The records of every pair of sheet `name` dropped: it goes back to waiting, and its
    /// overlaps are matched again once it is placed anew.
    mutating func forget(_ name: String) {
        let keep = pairs.indices.filter { pairs[$0].mapA != name && pairs[$0].mapB != name }
        (pairs, points) = (keep.map { pairs[$0] }, keep.map { points[$0] })
    }

    /// The records from index `n` on dropped.
    mutating func drop(after n: Int) {
        pairs.removeSubrange(n...)
        points.removeSubrange(n...)
    }
}
