import Foundation
import TegulaCluster
import TegulaComposite
import TegulaSupport
import TegulaWarp

/// What `composite.tone: match` solved (``ToneMatch``), kept in `<work>/.composite/tone.json`
/// under the composite plan's inputs hash, so a later process of the same plan (a shard, the
/// reduce, `tegula serve`) reads it instead of measuring again; a process that finds none
/// measures and solves it itself, with the same result: the sums are exact integers and the
/// solve runs in a fixed order, so every shard blends with the same corrections.
struct CompositeTone: Codable, Equatable {
    /// `tegula-composite-tone/1`.
    var format = "tegula-composite-tone/1"
    /// The plan's inputs hash (``CompositeSplit/inputsHash``) it was solved for.
    var plan: String
    /// The overlaps measured (pairs of maps with at least ``ToneMatch/minimumPixels`` opaque pixels in common).
    var overlaps: Int
    /// Each map's correction, in file order.
    var sheets: [Sheet]
    /// The maps left as scanned because their gain came out beyond ``ToneMatch/maximumGain``.
    var unmatched: [String]? = nil

    struct Sheet: Codable, Equatable {
        var name: String
        var gain: [Double]
        var offset: [Double]
        /// What each channel's gain was solved from (nil in a file written before it was kept:
        /// such a file is solved again).
        var gainFrom: [ToneMatch.GainBasis]?
    }

    /// The corrections in file order.
    var corrections: [ToneCorrection] { sheets.map { ToneCorrection(gain: $0.gain, offset: $0.offset) } }

    /// The corrections by map name.
    var byName: [String: ToneCorrection] {
        Dictionary(sheets.map { ($0.name, ToneCorrection(gain: $0.gain, offset: $0.offset)) }, uniquingKeysWith: { a, _ in a })
    }

    /// The sheets by map name.
    var sheetsByName: [String: Sheet] { Dictionary(sheets.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a }) }

    /// The log's line on the gains no spread fixed, nil when every sheet's were: how many sheets
    /// took a gain (in some channel) set through flat overlaps' means, and how many from nothing.
    var guessedGains: String? {
        let from = sheets.compactMap(\.gainFrom)
        let none = from.filter { $0.contains(.none) }.count, means = from.filter { !$0.contains(.none) && $0.contains(.means) }.count
        guard means + none > 0 else { return nil }
        var parts: [String] = []
        if means > 0 {
            parts.append(
                "\(means) of \(sheets.count) sheets take a gain set through flat overlaps' means (sea, blank paper, where a gain is not told from an offset)"
            )
        }
        if none > 0 { parts.append("\(none) from nothing (no overlap that says anything: gain 1)") }
        return "tone: " + parts.joined(separator: ", ") + "; the index's tone_gain_from says which, per channel"
    }
}

extension PipelineRunner {
    /// The stored tone of a plan.
    var tonePath: String { compositeFolder + "/tone.json" }

    /// The composite's tone corrections by map name for the whole collection, whatever the
    /// shard; nil when the pipeline has no composite or `tone` is off. For `tegula serve`, which
    /// applies them to each map's tiles on demand.
    public func toneCorrections() throws -> [String: ToneCorrection]? { try wholeTone()?.byName }

    /// The composite's tone for the whole collection, whatever the shard; nil when the
    /// pipeline has no composite or `tone` is off.
    func wholeTone() throws -> CompositeTone? {
        guard let composite = pipeline.spec.composite, composite.tone != .off else { return nil }
        let plan = ShardPlan(pipeline: pipeline, survey: CollectionSurvey(runner: self, jobs: options.jobs), count: 1)
        guard let split = plan.composite else { return nil }
        return try tone(composite, split: split, announce: false)
    }

    /// The tone of `split`'s plan: read from `tone.json` when it was solved for the same inputs,
    /// else measured, solved and stored; nil when `tone` is off. `announce` logs one line per
    /// map (its gain and offset per channel).
    func tone(_ composite: CompositeSpec, split: CompositeSplit, announce: Bool) throws -> CompositeTone? {
        guard composite.tone != .off else { return nil }
        let hash = split.inputsHash
        var how = "read from \(tonePath)"
        var tone: CompositeTone
        if let data = FileManager.default.contents(atPath: tonePath),
            let stored = try? JSONDecoder().decode(CompositeTone.self, from: data), stored.plan == hash,
            stored.sheets.map(\.name) == pipeline.spec.maps.map(\.name), stored.sheets.allSatisfy({ $0.gainFrom != nil })
        {
            tone = stored
        } else {
            let maps = pipeline.spec.maps
            let sums = try compositeBuilder(composite, split: split, tones: nil).overlapSums(layerBounds: split.layout.layerBounds)
            var anchor: Int?
            if case .match(let name?) = composite.tone { anchor = maps.firstIndex { $0.name == name } }
            let linedUp = tiedPairs
            let solved = ToneMatch.solve(sheets: maps.count, overlaps: sums, anchor: anchor, linedUp: linedUp)
            let measured = sums.filter { $0.pixels >= ToneMatch.minimumPixels }
            tone = CompositeTone(
                plan: hash, overlaps: measured.count,
                sheets: maps.indices.map { i in
                    let c = solved.corrections[i]
                    return CompositeTone.Sheet(name: maps[i].name, gain: c.gain, offset: c.offset, gainFrom: solved.gainFrom[i])
                },
                unmatched: solved.unmatched.isEmpty ? nil : solved.unmatched.map { maps[$0].name })
            how = "measured on \(tone.overlaps) overlaps"
            if let linedUp {
                let untied = measured.filter { !linedUp.contains(ToneMatch.Pair($0.a, $0.b)) }.count
                how += ", \(untied) of them joined by no tie (their contrast left out, their means kept where flat)"
            }
            // Stored for the processes that come after (all would compute the same); of a
            // sharded run's shards only shard 0 writes it, as the index.
            if (options.shard?.index ?? 0) == 0 {
                try? FileManager.default.createDirectory(atPath: compositeFolder, withIntermediateDirectories: true)
                if let bytes = try? JSONStyle.readable.escapingSlashes.encode(tone) {
                    AtomicFile.removeAbandoned(of: tonePath)
                    try? AtomicFile.write(Array(bytes) + [0x0A], to: tonePath)
                }
            }
        }
        if announce {
            log("tone: \(composite.tone), \(how)")
            if let guessed = tone.guessedGains { log(guessed) }
            for s in tone.sheets { log("tone: sheet '\(s.name)' \(ToneCorrection(gain: s.gain, offset: s.offset))") }
            for name in tone.unmatched ?? [] {
                log(
                    "warning: tone: sheet '\(name)' left as scanned: its overlaps gave it a gain beyond \(ToneMatch.maximumGain)× or under 1/\(ToneMatch.maximumGain) (placed off its neighbours?)"
                )
            }
        }
        return tone
    }

    /// With `ties: auto`, the pairs of maps (by their place in the pipeline) that a tie joins,
    /// found or by hand: the overlaps matching lined up. The others did not match (a sheet
    /// placed stretched or turned against its neighbour, flat sea) or were not tried (a corner,
    /// a thin strip), and give the tone only what they show where flat
    /// (``ToneMatch/solve(sheets:overlaps:anchor:linedUp:)``).
    /// Nil without `ties: auto`: no pair was tried, and every overlap is taken as lined up.
    var tiedPairs: Set<ToneMatch.Pair>? {
        guard pipeline.foundTies != nil else { return nil }
        let place = Dictionary(pipeline.spec.maps.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
        return Set(pipeline.spec.ties.compactMap { t in place[t.mapA].flatMap { a in place[t.mapB].map { ToneMatch.Pair(a, $0) } } })
    }
}
