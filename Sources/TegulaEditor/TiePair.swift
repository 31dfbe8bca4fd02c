import Foundation
import TegulaGeometry
import TegulaGeoreference
import TegulaPipeline

/// Two maps of a pipeline opened for tying: each sheet as the run's joint fit reads it
/// (``Pipeline/seriesSheet(_:)``) and fitted on its own GCPs, the ties the pipeline already
/// holds between them, and the seam figures of a tie list by ``SeriesFit`` (the run's own
/// joint fit, on these two sheets).
public struct TiePair: Sendable {
    /// The pipeline file, absolute.
    public let pipelineFile: String
    /// Sheet A (left) and sheet B (right).
    public let sheetA: SeriesSheet, sheetB: SeriesSheet
    /// Their scans.
    public let scanA: String, scanB: String
    /// Each fitted on its own GCPs: what the seam error is measured from.
    public let fitA: Georeference, fitB: Georeference
    /// The pipeline's `tie_weight` (default 100, `SeriesFit.defaultTieWeight`).
    public let tieWeight: Double
    /// The ties the pipeline holds between the two maps (B→A ties turned round): its `ties:` list,
    /// or with `ties: auto` its hand ties (`ties_from:`) and then the found ones it fits (`f1`, …,
    /// with their scores).
    public let ties: [EditorTie]
    /// With `ties: auto`: the found ties among ``ties``, as opened, and the `ties_from:` file
    /// Save writes (nil without `ties: auto`: Save rewrites the `ties:` list).
    public let found: [EditorTie]
    /// With `ties: auto`: the pair's found ties removed by an earlier save, `r1`, `r2`, … (the
    /// ties file's `rejected` rows, turned round like ``ties``; the score of the found tie each
    /// leaves out now, nil when it leaves none out). Empty without `ties: auto`.
    public let removed: [EditorTie]
    public let tiesFile: String?

    /// Open `mapA` and `mapB` of the pipeline at `path`. A map the pipeline lacks, a map not
    /// fitted from GCPs, one that cannot be fitted on its own, the same map twice, ties of the
    /// pair kept in the `ties_from:` file without `ties: auto` (Save then writes the `ties:` list),
    /// or `ties: auto` without a `ties_from:` file to save into, is an ``EditorError``.
    /// An error of loading the pipeline at `path`, at the place it names (a pipeline error
    /// already says `file:line:column`), else at `path`.
    static func unreadable(_ error: Error, path: String) -> EditorError {
        if let e = error as? PipelineError { return EditorError(.unreadableInput, at: e.location ?? path, e.message) }
        return EditorError(.unreadableInput, at: path, "\(error)")
    }

    public init(pipeline path: String, mapA: String, mapB: String) throws {
        let pipeline: Pipeline
        do { pipeline = try Pipeline.load(path: path) } catch { throw Self.unreadable(error, path: path) }
        pipelineFile = pipeline.file
        guard mapA != mapB else { throw EditorError(.badSession, at: "--tie-with", "names map '\(mapA)' again; a tie joins two different maps") }
        let maps = pipeline.spec.maps
        func map(_ name: String, _ option: String) throws -> MapSpec {
            guard let m = maps.first(where: { $0.name == name }) else {
                let names = maps.prefix(8).map(\.name).joined(separator: ", ") + (maps.count > 8 ? ", …" : "")
                throw EditorError(.badSession, at: option, "the pipeline \(path) has no map '\(name)' (its maps: \(names))")
            }
            return m
        }
        let a = try map(mapA, "--map"), b = try map(mapB, "--tie-with")
        do {
            sheetA = try pipeline.seriesSheet(a)
            sheetB = try pipeline.seriesSheet(b)
        } catch { throw Self.unreadable(error, path: path) }
        scanA = a.input
        scanB = b.input
        do {
            fitA = try Georeferencer.fit(sheetA.gcps, imageWidth: sheetA.width, imageHeight: sheetA.height, options: sheetA.options)
        } catch { throw EditorError(.fitFailed, at: "map '\(mapA)'", "cannot be fitted on its own GCPs: \(error)") }
        do {
            fitB = try Georeferencer.fit(sheetB.gcps, imageWidth: sheetB.width, imageHeight: sheetB.height, options: sheetB.options)
        } catch { throw EditorError(.fitFailed, at: "map '\(mapB)'", "cannot be fitted on its own GCPs: \(error)") }
        tieWeight = pipeline.spec.tieWeight ?? SeriesFit.defaultTieWeight
        tiesFile = pipeline.foundTiesFile == nil ? nil : pipeline.spec.tiesFrom
        if pipeline.foundTiesFile != nil, tiesFile == nil {
            throw EditorError(
                .badSession, at: path,
                "has ties: auto and no ties_from: file, where the editor saves hand ties and removed found ones; add ties_from: ties.csv (a file with the header map_a,x_a,y_a,map_b,x_b,y_b)"
            )
        }
        let scores: [Int: Double]
        do { scores = try pipeline.foundTieScores() } catch { throw Self.unreadable(error, path: path) }
        /// A tie's pixels on A and on B, when it ties A and B (either way round).
        func onAB(_ t: TieSpec) -> (PixelPoint, PixelPoint)? {
            if t.mapA == mapA && t.mapB == mapB { return (t.pixelA, t.pixelB) }
            if t.mapA == mapB && t.mapB == mapA { return (t.pixelB, t.pixelA) }
            return nil
        }
        var ties: [EditorTie] = [], found: [EditorTie] = [], removed: [EditorTie] = []
        for (i, t) in pipeline.spec.ties.enumerated() {
            guard let (pa, pb) = onAB(t) else { continue }
            if let score = scores[i] {
                found.append(EditorTie(id: "f\(found.count + 1)", a: pa, b: pb, score: score))
                continue
            }
            if case .file(let file, let line, _) = pipeline.tieOrigins[i], tiesFile == nil {
                throw EditorError(
                    .badSession, at: "\(file):\(line)",
                    "ties '\(mapA)' and '\(mapB)' in the ties_from: file, which the editor does not write; move their ties to the pipeline's ties: list to edit them"
                )
            }
            ties.append(EditorTie(id: "t\(ties.count + 1)", a: pa, b: pb))
        }
        do {
            for r in try pipeline.removedFoundTies() {
                guard let (pa, pb) = onAB(r.tie) else { continue }
                removed.append(EditorTie(id: "r\(removed.count + 1)", a: pa, b: pb, score: r.score))
            }
        } catch { throw Self.unreadable(error, path: path) }
        self.ties = ties + found
        self.found = found
        self.removed = removed
    }

    /// The pair's ties as opened, with the found ties removed before: what `GET /api/ties` answers.
    public var session: TieSession { TieSession(mapA: sheetA.name, mapB: sheetB.name, ties: ties, removed: removed) }

    /// What Save with `ties: auto` writes of session `s`: its hand ties (a found tie moved is one
    /// now, and so is a removed one put back elsewhere), the found ties removed or moved (as
    /// `rejected` rows, at the place they were found), and the removed found ties put back where
    /// they were (``removed`` by id: their `rejected` rows dropped, so the found ties file's tie is
    /// fitted again). A found tie kept where it is, or put back, is left to the found ties file.
    public func split(_ s: TieSession) -> (hand: [TieSpec], rejected: [TieSpec], restored: [TieSpec]) {
        let byID = Dictionary(s.ties.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        func inPlace(_ f: EditorTie) -> Bool { byID[f.id].map { $0.a == f.a && $0.b == f.b } ?? false }
        let kept = found.filter(inPlace), restored = removed.filter(inPlace)
        let left = Set((kept + restored).map(\.id))
        let hand = s.ties.filter { !left.contains($0.id) }.map(spec)
        return (hand, found.filter { !inPlace($0) }.map(spec), restored.map(spec))
    }

    /// A tie of this pair as the pipeline writes it.
    func spec(_ t: EditorTie) -> TieSpec { TieSpec(mapA: sheetA.name, pixelA: t.a, mapB: sheetB.name, pixelB: t.b) }

    /// Refuse a session that is not of this pair, has a repeated id, or a pixel outside its scan.
    func check(_ s: TieSession) throws {
        guard s.mapA == sheetA.name, s.mapB == sheetB.name else {
            throw EditorError(
                .badSession, at: "map_a", "the session ties '\(s.mapA)' and '\(s.mapB)', but this editor ties '\(sheetA.name)' and '\(sheetB.name)'")
        }
        var ids = Set<String>()
        for (i, t) in s.ties.enumerated() {
            guard ids.insert(t.id).inserted else {
                throw EditorError(.badSession, at: "ties[\(i)].id", "'\(t.id)' appears twice; ids must be unique")
            }
            for (key, p, sheet) in [("a", t.a, sheetA), ("b", t.b, sheetB)] {
                guard p.x >= 0, p.y >= 0, p.x <= Double(sheet.width), p.y <= Double(sheet.height) else {
                    throw EditorError(
                        .pixelOutsideScan, at: "ties[\(i)].\(key) (\(t.id))",
                        "[\(p.x), \(p.y)] is outside '\(sheet.name)' (\(sheet.width) × \(sheet.height) pixels: x must be 0…\(sheet.width), y 0…\(sheet.height))"
                    )
                }
            }
        }
    }

    /// The seam figures of `s`'s ties (checked first): before from the sheets' own fits, after
    /// from ``SeriesFit`` over the two sheets and these ties.
    public func figures(_ s: TieSession) throws -> SeamFigures {
        try check(s)
        guard !s.ties.isEmpty else { return SeamFigures(ties: [], tieWeight: tieWeight) }
        let joint: SeriesFit
        do {
            joint = try SeriesFit.fit(
                sheets: [sheetA, sheetB], ties: s.ties.map { Tie(sheetA: 0, pixelA: $0.a, sheetB: 1, pixelB: $0.b) },
                tieWeight: tieWeight, draws: 0)
        } catch {
            throw EditorError(.fitFailed, at: "ties", "\(error)")
        }
        let rows = try s.ties.enumerated().map { i, t -> SeamFigures.Row in
            let f = joint.ties[i]
            let ground = try fitB.pixelsToGround([t.b], crs: .wgs84)
            let onA = try fitA.groundToPixels(ground, crs: .wgs84).first ?? nil
            let px = onA.map { ($0.x - t.a.x, $0.y - t.a.y) }.map { ($0.0 * $0.0 + $0.1 * $0.1).squareRoot() }
            return SeamFigures.Row(id: t.id, seamM: f.seamBeforeMetres, seamPx: px, seamAfterM: f.seamAfterMetres)
        }
        return SeamFigures(ties: rows, tieWeight: tieWeight)
    }

    /// Where sheet `from`'s own fit puts pixel `p` on the other sheet, by the other's exact inverse.
    public func predict(from a: Bool, _ p: PixelPoint) throws -> PixelPoint? {
        let (f, t) = a ? (fitA, fitB) : (fitB, fitA)
        return try t.groundToPixels(try f.pixelsToGround([p], crs: .wgs84), crs: .wgs84).first ?? nil
    }
}
