import Foundation
import TegulaGDAL
import TegulaGeoreference

/// What `ties:` and `quality:` made of a pipeline's maps when it was loaded: the joint fit of the
/// tied sheets (each map's ``SheetFit`` by name), every sheet's figures when a gate was asked for,
/// and the sheets the gate failed. Made once at load, so every shard, the reduce and the plan see
/// the same maps and the same fits.
public struct PipelineSeries: Sendable {
    /// The joint fit of each tied map, by name.
    public var tied: [String: SheetFit] = [:]
    /// Each tie's figures, in `ties:` order (ties to a map the gate left out are absent).
    public var ties: [TieFigures] = []
    /// Every map's figures, in the pipeline's order, those left out included; nil when no gate
    /// was asked for (the run computes them for the index).
    public var figures: [SheetFigures]?
    /// The sheets that failed the gate: name and what they exceeded.
    public var failures: [(name: String, exceeded: [String])] = []

    /// One line per sheet the gate failed, as a run logs it and a dry run prints it: left out
    /// (`on_fail: skip`) or failing (`on_fail: stop`), and what it exceeded.
    public func gateLines(_ quality: QualitySpec) -> [String] {
        failures.map { "quality: sheet '\($0.name)' \(quality.onFail == .skip ? "left out" : "fails"): \($0.exceeded.joined(separator: "; "))" }
    }

    /// True when `on_fail: skip` would leave every map out: the maps are kept, so the sheet index
    /// and the gate's lines say why, and the run stops (``gateStop(_:)``).
    public var nothingLeft = false

    /// Why a run stops before any stage: under `on_fail: stop` a failing sheet, under `skip`
    /// every sheet failing; else nil.
    public func gateStop(_ quality: QualitySpec) -> String? {
        if nothingLeft { return "every map fails the quality gate (on_fail: skip), so nothing is left to run" }
        guard quality.onFail == .stop, !failures.isEmpty else { return nil }
        return "\(failures.count) sheet(s) fail the quality gate (on_fail: stop)"
    }
}

/// Loading's last step: fit the tied sheets together (``SeriesFit``), then apply the quality
/// gate; with `on_fail: skip` the failing maps leave ``PipelineSpec/maps``, with the sheets without
/// GCPs that only they placed (``unanchored(_:ties:out:)``), and the rest are fitted together
/// again without them.
enum SeriesStep {
    /// `jobs`: the threads that draw the sheets' standard errors of place.
    static func apply(_ pipeline: inout Pipeline, jobs: Int = 1) throws {
        let spec = pipeline.spec
        try requireTies(pipeline)
        guard !spec.ties.isEmpty || spec.quality != nil else { return }
        var series = PipelineSeries()
        let indices = try resolve(pipeline)
        (series.tied, series.ties) = try fit(pipeline, maps: spec.maps, ties: indices, jobs: jobs)
        guard let quality = spec.quality else {
            pipeline.series = series
            return
        }
        var figures = try SeriesStep.figures(pipeline, maps: spec.maps, series: series)
        for i in figures.indices {
            let e = figures[i].exceeded(quality)
            guard !e.isEmpty else { continue }
            figures[i].failures = e
            figures[i].quality = quality.onFail == .skip ? "skipped" : "failed"
            series.failures.append((figures[i].name, e))
        }
        if quality.onFail == .skip, !series.failures.isEmpty {
            var out = Set(series.failures.map(\.name))
            // Sheets placed only through a sheet the gate leaves out go with it.
            for lost in unanchored(spec.maps, ties: indices, out: out) {
                let i = figures.firstIndex { $0.name == lost.name }!
                (figures[i].failures, figures[i].quality) = (lost.exceeded, "skipped")
                series.failures.append(lost)
                out.insert(lost.name)
            }
            let kept = spec.maps.filter { !out.contains($0.name) }
            guard !kept.isEmpty else {
                (series.nothingLeft, series.figures) = (true, figures)
                pipeline.series = series
                return
            }
            // The rest fitted again without the failing sheets' ties, and their figures with it.
            let keptTies = indices.filter { !out.contains(spec.maps[$0.1].name) && !out.contains(spec.maps[$0.3].name) }
            (series.tied, series.ties) = try fit(pipeline, maps: spec.maps, ties: keptTies, jobs: jobs)
            let again = try SeriesStep.figures(pipeline, maps: kept, series: series)
            var byName = Dictionary(uniqueKeysWithValues: again.map { ($0.name, $0) })
            for i in figures.indices where !out.contains(figures[i].name) { figures[i] = byName.removeValue(forKey: figures[i].name)! }
            pipeline.spec.maps = kept
        }
        series.figures = figures
        pipeline.series = series
    }

    /// A map with `gcps: none` is placed by its ties alone: one in no tie is an error naming it,
    /// unless `ties: auto` did not place it and a `quality:` gate is asked for (it then fails the
    /// gate, and `on_fail` decides). Of the maps `ties: auto` did not place, the one named is the
    /// first whose own matching failed (the others may only have had no placed sheet around them).
    static func requireTies(_ pipeline: Pipeline) throws {
        let tied = Set(pipeline.spec.ties.flatMap { [$0.mapA, $0.mapB] })
        let untied = pipeline.spec.maps.filter { $0.georeference?.gcps == .tiesOnly && !tied.contains($0.name) }
        if let found = pipeline.foundTies, pipeline.spec.quality == nil {
            let unplaced = untied.filter { found.whyUnplaced($0.name) != nil }
            if let m = unplaced.first(where: { !found.unplacedForWantOfNeighbours($0.name) }) ?? unplaced.first {
                let more =
                    unplaced.count > 1
                    ? ", nor \(unplaced.count - 1) more map\(unplaced.count > 2 ? "s" : "") without GCPs "
                        + (pipeline.foundTiesMade == .unwritten
                            ? "(\(unplaced.filter { $0.name != m.name }.prefix(6).map { "'\($0.name)'" }.joined(separator: ", "))\(unplaced.count > 7 ? ", …" : ""))"
                            : "(found-ties.json says why)") : ""
                throw pipeline.document.error(
                    [.key("ties")],
                    "auto: map '\(m.name)': \(found.whyUnplaced(m.name)!), so nothing places it\(more); give it GCPs or ties, or a quality: gate to leave it out"
                )
            }
        }
        let lone = untied.filter { pipeline.foundTies?.whyUnplaced($0.name) == nil }
        if let m = lone.first {
            let names =
                lone.count == 1
                ? "map '\(m.name)' has"
                : "\(lone.count) maps (" + lone.prefix(6).map { "'\($0.name)'" }.joined(separator: ", ") + (lone.count > 6 ? ", …" : "") + ") have"
            let (it, them) = lone.count == 1 ? ("it", "its") : ("them", "their")
            throw pipeline.document.error(
                [.key("ties")],
                "\(names) no GCPs (gcps: none) and \(lone.count == 1 ? "is" : "are") in no tie, so nothing places \(it); tie \(it) to \(them) neighbours (ties:, ties_from:, or ties: auto) or give \(it) GCPs"
            )
        }
    }

    /// The ties with map indices: (tie index, map a, pixel a, map b, pixel b). Unknown names,
    /// maps without GCPs and pixels outside a scan are errors at `ties[i]`.
    static func resolve(_ pipeline: Pipeline) throws -> [(Int, Int, TieSpec, Int)] {
        let maps = pipeline.spec.maps
        let byName = Dictionary(uniqueKeysWithValues: maps.enumerated().map { ($1.name, $0) })
        var sizes: [Int: (Int, Int)] = [:]
        var out: [(Int, Int, TieSpec, Int)] = []
        for (i, t) in pipeline.spec.ties.enumerated() {
            var pair: [Int] = []
            for (k, (name, p)) in [(t.mapA, t.pixelA), (t.mapB, t.pixelB)].enumerated() {
                guard let m = byName[name] else {
                    let names = maps.prefix(5).map(\.name).joined(separator: ", ") + (maps.count > 5 ? ", …" : "")
                    throw pipeline.tieError(i, item: 2 * k, "names map '\(name)', which the pipeline does not have (its maps: \(names))")
                }
                guard maps[m].georeference?.gcps != nil, maps[m].georeference?.bounds == nil else {
                    throw pipeline.tieError(i, item: 2 * k, "map '\(name)' is not fitted from GCPs; a tie joins two GCP-fitted maps")
                }
                if sizes[m] == nil {
                    let ds = try Dataset(path: maps[m].input)
                    sizes[m] = (ds.width, ds.height)
                }
                let (w, h) = sizes[m]!
                guard p.x.isFinite, p.y.isFinite, p.x >= 0, p.y >= 0, p.x <= Double(w), p.y <= Double(h) else {
                    throw pipeline.tieError(
                        i, item: 2 * k + 1,
                        "pixel [\(p.x), \(p.y)] is outside map '\(name)' (its scan is \(w) × \(h): x must be 0…\(w), y 0…\(h))")
                }
                pair.append(m)
            }
            if pair[0] == pair[1] {
                throw pipeline.tieError(i, item: nil, "ties map '\(t.mapA)' to itself; a tie joins two different maps")
            }
            out.append((i, pair[0], t, pair[1]))
        }
        return out
    }

    /// The joint fit of the tied maps among `maps` (indices of `ties` index `maps`).
    static func fit(_ pipeline: Pipeline, maps: [MapSpec], ties: [(Int, Int, TieSpec, Int)], jobs: Int) throws -> ([String: SheetFit], [TieFigures]) {
        guard !ties.isEmpty else { return ([:], []) }
        let tied = Array(Set(ties.flatMap { [$0.1, $0.3] })).sorted()
        let local = Dictionary(uniqueKeysWithValues: tied.enumerated().map { ($1, $0) })
        let sheets = try tied.map { try pipeline.seriesSheet(maps[$0]) }
        let fit: SeriesFit
        do {
            fit = try SeriesFit.fit(
                sheets: sheets, ties: ties.map { Tie(sheetA: local[$0.1]!, pixelA: $0.2.pixelA, sheetB: local[$0.3]!, pixelB: $0.2.pixelB) },
                tieWeight: pipeline.spec.tieWeight ?? SeriesFit.defaultTieWeight, jobs: jobs)
        } catch let e as GeoreferenceError {
            throw pipeline.document.error([.key("ties")], "\(e)")
        }
        var byName: [String: SheetFit] = [:]
        for (l, m) in tied.enumerated() { byName[maps[m].name] = fit.sheets[l] }
        var figures = fit.ties
        for k in figures.indices { figures[k].index = ties[k].0 }
        return (byName, figures)
    }

    /// Each map's figures: its fit (joint or alone), its ties' seams.
    static func figures(_ pipeline: Pipeline, maps: [MapSpec], series: PipelineSeries) throws -> [SheetFigures] {
        let spec = pipeline.spec
        var seams: [String: [TieFigures]] = [:]
        for f in series.ties {
            let t = spec.ties[f.index]
            seams[t.mapA, default: []].append(f)
            seams[t.mapB, default: []].append(f)
        }
        return maps.map { map in
            var f = figures(pipeline, map: map, series: series, seams: seams)
            if case .match(let reference)? = map.georeference?.gcps,
                let record = ReferenceMatch.recorded(in: pipeline.workFolder(for: map)), record.reference == reference
            {
                f.join(record)
            }
            return f
        }
    }

    /// One map's figures: its fit (joint or alone), its ties' seams.
    static func figures(_ pipeline: Pipeline, map: MapSpec, series: PipelineSeries, seams: [String: [TieFigures]]) -> SheetFigures {
        guard let g = map.georeference else { return SheetFigures(name: map.name, georeference: "own") }
        if g.bounds != nil { return SheetFigures(name: map.name, georeference: "bounds") }
        if let t = series.tied[map.name] {
            var f = SheetFigures(name: map.name, report: t.after.report, pins: Set(t.pins.map(\.id)), seams: seams[map.name] ?? [])
            if let p = t.placement { f.place(p) }
            f.placeStandardErrorMetres = t.placeStandardErrorMetres
            return f
        }
        let step = GeoreferenceStep(map: map, folder: pipeline.workFolder(for: map), digests: FileDigests(stamps: [:]), scans: pipeline.inputs)
        do {
            return SheetFigures(name: map.name, report: try GCPGeoreferencing.fit(map: map, step: step).report, pins: [], seams: [])
        } catch {
            // A sheet without GCPs that its ties did not place: "ties", with none of its own.
            var f = SheetFigures(name: map.name, georeference: g.gcps == .tiesOnly ? "ties" : "gcps")
            if g.gcps == .tiesOnly { f.gcps = 0 }
            f.error = pipeline.foundTies?.whyUnplaced(map.name).map { "ties: auto: " + $0 } ?? "\(error)"
            return f
        }
    }
}

extension Pipeline {
    /// An error about tie `i`, at the place it was given: `ties[i][item]` of the pipeline file, or
    /// the row (and for an item, the column) of the ties file. Items are the tie's four parts:
    /// map a, pixel a, map b, pixel b; nil names the whole tie.
    func tieError(_ i: Int, item: Int?, _ message: String) -> PipelineError {
        switch tieOrigins.indices.contains(i) ? tieOrigins[i] : .list(index: i) {
        case .list(let index):
            var steps: [PipelineDocument.Step] = [.key("ties"), .index(index)]
            if let item { steps.append(.index(item)) }
            return document.error(steps, message)
        case let .file(path, line, columns):
            let column = item.map { ["map_a", "x_a", "map_b", "x_b"][$0] }.flatMap { columns[$0] }
            return PipelineError(.invalid, file: path, line: line, column: column, message)
        }
    }
}
