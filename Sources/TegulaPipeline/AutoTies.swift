import Foundation
import TegulaCrypto
import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference
import TegulaMatch
import TegulaSupport

/// `ties: auto`: ties found by matching the overlap of every two sheets whose fits overlap, on
/// the matching engine (TegulaMatch's ``OverlapTieFinder``), kept in the work folder as a ties
/// file that `ties_from:` reads (`found-ties.csv`: `map_a,x_a,y_a,map_b,x_b,y_b,score`) and a
/// record of every pair tried (`found-ties.json`: the key it was made under, and per pair the
/// ties kept, their correlation, or why the overlap did not match). A record whose key (the
/// settings and every sheet's georeference stage hash before ties: scan, section, GCP and mask
/// files) is unchanged is read back, so loading matches the overlaps once, and every shard, the
/// reduce and a rerun read the same ties. The found ties follow the hand ties (`ties:` is then
/// `auto`, so hand ties come from `ties_from:`) and are fitted with them.
struct AutoTies: Codable, Sendable, Equatable {
    /// One pair of sheets whose fits overlap enough to tie, and what matching the overlap found.
    struct Pair: Codable, Sendable, Equatable {
        var mapA: String
        var mapB: String
        /// True when the overlap matched; false pairs get no ties.
        var matched: Bool
        /// Ties kept.
        var ties: Int
        /// Their mean and least normalised cross-correlation (0–1).
        var score: Double?
        var minScore: Double?
        /// Why the overlap did not match, or why its ties were refused (``Influence``, ``Loops``, ``OnePair``).
        var why: String?
        /// Time to match the overlap, in the record only (the sheet index leaves it out: it is
        /// not the same twice).
        var seconds: Double?
        /// Of the ties kept, those a person removed in the tie editor (``RejectedTies``): not fitted.
        var rejected: Int?

        enum CodingKeys: String, CodingKey {
            case mapA = "map_a", mapB = "map_b", matched, ties, score, minScore = "min_score", why, seconds, rejected
        }
    }

    /// The digests it was made under (``key(_:sheets:loose:)``).
    var key: String
    /// Every pair tried: the sheets with GCPs in the pipeline's map order, then those placed by
    /// matching, round by round.
    var pairs: [Pair]
    /// The sheets without GCPs that matching did not place, and why; nil when there are none.
    var unplaced: [Unplaced]?

    static func csvPath(work: String) -> String { work + "/found-ties.csv" }
    static func recordPath(work: String) -> String { work + "/found-ties.json" }

    /// The found ties appended to the pipeline's ties (read from the ties file, as `ties_from:`
    /// reads one, so a computed and a recorded run fit the same numbers); nil without `ties: auto`.
    /// Ties found now are written to the work folder, except in a dry run (`writing` false),
    /// which reads them from the text it would have written. `progress` hears each match made.
    static func apply(
        _ pipeline: inout Pipeline, jobs: Int, writing: Bool = true, progress: (@Sendable (String, Int, Int) -> Void)? = nil
    ) throws -> AutoTies? {
        guard let settings = pipeline.spec.autoTies else { return nil }
        let work = pipeline.workFolder
        let sheets = try pipeline.spec.maps.compactMap { try Sheet(map: $0, pipeline: pipeline) }
        let loose = try pipeline.spec.maps.compactMap { try Loose(map: $0, pipeline: pipeline) }
        if sheets.isEmpty, !loose.isEmpty {
            let names = loose.prefix(6).map { "'\($0.name)'" }.joined(separator: ", ") + (loose.count > 6 ? ", …" : "")
            throw pipeline.document.error(
                [.key("ties")],
                "auto: none of the \(loose.count) maps to tie has GCPs of its own (\(names)), so nothing places them on the ground; give at least one of them GCPs (the others are placed through their ties)"
            )
        }
        let key = key(settings, sheets: sheets, loose: loose)
        let found: AutoTies
        var text: String?
        if let kept = recorded(work: work), kept.key == key, FileManager.default.fileExists(atPath: csvPath(work: work)) {
            found = kept
            pipeline.foundTiesMade = .recorded
        } else {
            let order = Dictionary(uniqueKeysWithValues: pipeline.spec.maps.enumerated().map { ($1.name, $0) })
            (found, text) = try make(
                sheets, loose: loose, order: order, settings: settings, key: key, consensus: Consensus(pipeline), jobs: jobs,
                progress: Progress(progress))
            if writing { try found.write(ties: text!, work: work) } else { pipeline.foundTiesMade = .unwritten }
        }
        for row in try TieList(path: csvPath(work: work), text: writing ? nil : text).rows {
            pipeline.spec.ties.append(row.tie)
            pipeline.tieOrigins.append(.file(path: csvPath(work: work), line: row.line, columns: row.columns))
        }
        return found
    }

    /// The record in `work`, if one was written.
    static func recorded(work: String) -> AutoTies? {
        FileManager.default.contents(atPath: recordPath(work: work)).flatMap { try? JSONDecoder().decode(AutoTies.self, from: $0) }
    }

    /// SHA-256 over the finder's version, the settings and each sheet's name and georeference
    /// stage hash without ties (those without GCPs after the others, marked).
    static func key(_ settings: AutoTiesSpec, sheets: [Sheet], loose: [Loose]) -> String {
        var h = ContentHash()
        h.update("autoties/15")
        h.update(PipelineHashing.json(settings))
        for s in sheets {
            h.update(s.name)
            h.update(s.hash)
        }
        for s in loose {
            h.update("loose")
            h.update(s.name)
            h.update(s.hash)
        }
        return h.finalize()
    }

    /// Every two sheets whose footprints' boxes meet, matched; then the sheets without GCPs placed
    /// round by round and their overlaps matched as well (``place(_:among:grid:found:jobs:)``): the
    /// record and the ties file's text.
    static func make(
        _ sheets: [Sheet], loose: [Loose], order: [String: Int], settings: AutoTiesSpec, key: String, consensus: Consensus,
        jobs: Int, progress: Progress
    ) throws -> (AutoTies, String) {
        var found = Finding(
            finder: OverlapTieSettings(maximumTies: settings.maxPerPair, minimumWidth: settings.minOverlapPixels), order: order,
            progress: progress)
        try found.tieAll(sheets, jobs: jobs)
        var unplaced = try place(loose, among: sheets, grid: GridPosition.of(Array(order.keys)), found: &found, jobs: jobs)
        found.refuseWhatLoopsDoNotClose()
        found.refuseWhatTheFitDoesNotHold(consensus)
        let placed = loose.map(\.name).filter { name in !unplaced.contains { $0.map == name } }
        unplaced += found.untied(placed).map {
            Unplaced(map: $0, why: "was placed by matching, but the loops of pairs through it refused all its ties")
        }
        let held = loose.filter { l in !unplaced.contains { $0.map == l.name } }
        unplaced += found.refuseOnePairSheetsNotFixed(Dictionary(uniqueKeysWithValues: held.map { ($0.name, $0.mask) }))
        return (AutoTies(key: key, pairs: found.pairs, unplaced: unplaced.isEmpty ? nil : unplaced), found.csv)
    }

    /// The ties file and this record written to the work folder.
    func write(ties: String, work: String) throws {
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        try AtomicFile.write(Array(ties.utf8), to: Self.csvPath(work: work))
        try AtomicFile.write(Array(try JSONStyle.readable.encode(self)) + [0x0A], to: Self.recordPath(work: work))
    }

    /// The pairs matched so far and their ties as the ties file's rows.
    struct Finding {
        let finder: OverlapTieSettings
        /// Each map's place in the pipeline: a pair's first sheet is the earlier.
        let order: [String: Int]
        /// Hears each overlap matched.
        var progress = Progress(nil)
        var pairs: [Pair] = []
        /// Each pair's ties kept (none where it did not match).
        var points: [[ProposedPoint]] = []

        /// The ties of the pairs that matched as the ties file's rows, in the order they were matched.
        var csv: String {
            var out = "map_a,x_a,y_a,map_b,x_b,y_b,score\n"
            for (pair, ties) in zip(pairs, points) where pair.matched {
                for p in ties {
                    out += [CSV.field(pair.mapA), AutoTies.number(p.scan.x), AutoTies.number(p.scan.y), CSV.field(pair.mapB)].joined(separator: ",")
                    out +=
                        ","
                        + [AutoTies.number(p.reference.x), AutoTies.number(p.reference.y), String(format: "%.4f", p.score)].joined(separator: ",")
                        + "\n"
                }
            }
            return out
        }

        /// The finder's settings for `a` and `b`: ties held to where both fits put them when both
        /// are fitted on their own GCPs (``Sheet/agreement(with:search:)``).
        func checked(_ a: Sheet, _ b: Sheet) -> OverlapTieSettings {
            var s = finder
            s.fitsAgreement = a.agreement(with: b, search: s.searchRadius)
            return s
        }

        /// The overlap of two sheets matched, when their footprints' boxes meet and the overlap is
        /// wide enough to tie; true when it matched.
        @discardableResult
        mutating func tie(_ x: Sheet, _ y: Sheet) throws -> Bool {
            guard let (pair, kept) = try matched(x, y) else { return false }
            points.append(kept)
            pairs.append(pair)
            return pair.matched
        }

        /// Every two sheets' overlaps matched, on up to `jobs` threads (``tie(_:jobs:)``).
        mutating func tieAll(_ sheets: [Sheet], jobs: Int) throws {
            try tie(sheets.indices.flatMap { i in sheets.indices.filter { $0 > i }.map { (sheets[i], sheets[$0]) } }, jobs: jobs)
        }

        /// These pairs' overlaps matched (``tie(_:_:)``) on up to `jobs` threads: each pair
        /// alone, kept in the list's order, so the ties file is the same however many threads
        /// found it.
        mutating func tie(_ list: [(Sheet, Sheet)], jobs: Int) throws {
            let meeting = list.filter { $0.0.box.meets($0.1.box) }
            let results = Locked([(Pair, [ProposedPoint])?](repeating: nil, count: meeting.count))
            let finding = self
            progress.queue(meeting.count)
            try ParallelWork.run(jobs: jobs, count: meeting.count, makeState: { _ in () }) { _, k in
                let found = try finding.matched(meeting[k].0, meeting[k].1)
                results.withLock { $0[k] = found }
                finding.progress.step()
            }
            for case let (pair, kept)? in results.current {
                points.append(kept)
                pairs.append(pair)
            }
        }

        /// What matching the overlap of two sheets found: the pair (the earlier sheet first) and
        /// the ties kept, none where it did not match; nil when their boxes do not meet or the
        /// overlap is too narrow to try.
        func matched(_ x: Sheet, _ y: Sheet) throws -> (Pair, [ProposedPoint])? {
            let (a, b) = order[x.name, default: 0] <= order[y.name, default: 0] ? (x, y) : (y, x)
            let start = Date()
            guard a.box.meets(b.box), let predicted = try a.predicted(on: b),
                let verdict = try OverlapTieFinder.ties(
                    a: a.reader(), maskA: a.mask, b: b.reader(), maskB: b.mask, predicted: predicted, settings: checked(a, b))
            else { return nil }
            var pair = Pair(mapA: a.name, mapB: b.name, matched: false, ties: 0, seconds: Date().timeIntervalSince(start))
            switch verdict {
            case .noMatch(let why, _): pair.why = why
            case .matched(let points, _):
                if let why = Influence.refusal(points.map { (from: $0.scan, to: $0.reference) }, maskA: a.mask, maskB: b.mask) {
                    pair.why = why
                } else {
                    keep(points, &pair)
                    return (pair, points)
                }
            }
            return (pair, [])
        }

        /// The ties of a pair that matched counted in `pair`.
        func keep(_ points: [ProposedPoint], _ pair: inout Pair) {
            let scores = points.map(\.score)
            pair.matched = true
            pair.ties = points.count
            pair.score = scores.reduce(0, +) / Double(scores.count)
            pair.minScore = scores.min()
        }
    }

    /// A pixel position as the ties file keeps it: three decimals.
    static func number(_ v: Double) -> String { String(format: "%.3f", v) }

    /// The pairs as the sheet index shows them: without the time.
    var figures: [Pair] {
        pairs.map {
            var p = $0; p.seconds = nil; return p
        }
    }

    /// One line for the log: the ties found, in how many of the pairs tried, the sheets without
    /// GCPs left unplaced, and where the ties and the sheet index are (or, in a dry run, where a
    /// run writes the ties).
    func summary(work: String, minOverlap: Double, made: Made = .matched) -> String {
        let matched = pairs.filter(\.matched)
        let left = unplaced.map { ", \($0.count) sheet\($0.count == 1 ? "" : "s") without GCPs not placed" } ?? ""
        let earlier = made == .recorded ? " (as found before: the sheets and settings are unchanged)" : ""
        let found =
            pairs.isEmpty
            ? "ties: auto found no ties: no two sheets' fits overlap by min_overlap_px (\(SheetFigures.plain(minOverlap)) px) or more across, "
                + "so no pair was matched\(left)"
            : "ties: auto found \(matched.map(\.ties).reduce(0, +)) ties in \(matched.count) of \(pairs.count) overlapping pairs\(left)\(earlier)"
        return made == .unwritten
            ? found + " (a run writes them to \(Self.csvPath(work: work)))"
            : found + " → \(Self.csvPath(work: work)); the sheet index: \(work)/index.geojson"
    }

    /// How the found ties of a load came to be.
    enum Made: Sendable {
        /// Matched now and written to the work folder.
        case matched
        /// Read back from the work folder: the key they were made under is unchanged.
        case recorded
        /// Matched by a dry run and kept in memory.
        case unwritten
    }

    /// The pairs that overlap but do not match, then the sheets without GCPs that matching did
    /// not place, one line each for the log. `hand`: the hand ties of each pair, which stand
    /// where the overlap does not match.
    func unmatched(hand: [Set<String>: Int] = [:]) -> [String] {
        pairs.filter { !$0.matched }.map {
            let n = hand[[$0.mapA, $0.mapB]] ?? 0
            let left = n == 0 ? "no ties" : "no found ties; its \(n) hand tie\(n == 1 ? "" : "s") stand\(n == 1 ? "s" : "")"
            return "ties: auto: sheets '\($0.mapA)' and '\($0.mapB)' overlap but do not match (\($0.why ?? "no match")): \(left)"
        } + (unplaced ?? []).map { "ties: auto: sheet '\($0.map)' has no GCPs and \($0.why): not placed" }
    }

    /// Why matching did not place map `name` (a sheet without GCPs), or nil.
    func whyUnplaced(_ name: String) -> String? {
        unplaced?.first { $0.map == name }.map { "it has no GCPs and \($0.why)" }
    }

    /// Whether `name` was left unplaced only because no sheet around it was placed: the cause
    /// lies with a sheet nearer the placed ones.
    func unplacedForWantOfNeighbours(_ name: String) -> Bool {
        unplaced?.first { $0.map == name }?.why == Self.nothingAround
    }
}
