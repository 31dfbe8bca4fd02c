import Foundation
import TegulaGeoreference
import TegulaSupport
import TegulaTileset
import TegulaWarp

/// The sheet index of a run: a GeoJSON FeatureCollection (RFC 7946) with one feature per map,
/// its fitted footprint as a Polygon (null for a map without a GCP fit) and its
/// ``SheetFigures`` as properties, plus each tie's figures in a `ties` member. Written as
/// `index.geojson` in the work folder by every run, and beside a composite as
/// `OUTPUT-without-extension.index.geojson`.
struct SheetIndex: Encodable {
    struct Geometry: Encodable {
        var type = "Polygon"
        var coordinates: [[[Double]]]
    }

    struct Feature: Encodable {
        var type = "Feature"
        var id: String
        var geometry: Geometry?
        var properties: SheetFigures

        enum CodingKeys: String, CodingKey { case type, id, geometry, properties }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(type, forKey: .type)
            try c.encode(id, forKey: .id)
            // RFC 7946 §3.2: a feature without a location has a null geometry, never a missing one.
            if let geometry { try c.encode(geometry, forKey: .geometry) } else { try c.encodeNil(forKey: .geometry) }
            var p = properties
            p.footprint = nil
            try c.encode(p, forKey: .properties)
        }
    }

    /// One tie's figures with the names of its maps.
    struct TieEntry: Encodable {
        var mapA: String
        var mapB: String
        var figures: TieFigures

        enum CodingKeys: String, CodingKey {
            case mapA = "map_a", mapB = "map_b", index, pin, ground, seamBefore = "seam_before_m", seamAfter = "seam_after_m", residualA =
                "residual_a_m",
                residualB = "residual_b_m"
        }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(mapA, forKey: .mapA)
            try c.encode(mapB, forKey: .mapB)
            try c.encode(figures.index, forKey: .index)
            try c.encode(GCP.tiePinID(ties: [figures.index]), forKey: .pin)
            try c.encode(figures.ground, forKey: .ground)
            try c.encode(figures.seamBeforeMetres, forKey: .seamBefore)
            try c.encode(figures.seamAfterMetres, forKey: .seamAfter)
            try c.encode(figures.residualAMetres, forKey: .residualA)
            try c.encode(figures.residualBMetres, forKey: .residualB)
        }
    }

    var type = "FeatureCollection"
    var features: [Feature]
    var ties: [TieEntry]
    /// With `ties: auto`, every pair of sheets tried: ties found and their score, or why not.
    var foundTies: [AutoTies.Pair]?

    enum CodingKeys: String, CodingKey { case type, features, ties, foundTies = "found_ties" }

    /// One line for the log when sheets are placed by their ties alone: how many, how far in ties
    /// from a sheet with GCPs, what their figures measure, and the largest standard error of
    /// their place; nil when there are none.
    var placedByTies: String? { Self.placedByTies(features.map(\.properties)) }

    /// ``placedByTies`` of these figures.
    static func placedByTies(_ figures: [SheetFigures]) -> String? {
        let placed = figures.filter { $0.georeference == "ties" && $0.hops != nil }
        guard let far = placed.compactMap(\.hops).max() else { return nil }
        let se = placed.compactMap(\.placeStandardErrorMetres).max()
        let one = placed.count == 1
        let their = one ? "its" : "their"
        return "series: \(placed.count) sheet\(one ? "" : "s") placed by \(their) ties alone, \(one ? "" : "up to ")\(far) tie\(far == 1 ? "" : "s") "
            + "from a sheet with GCPs: \(their) rmse_m and loo_m say how well \(their) ties agree, not how near \(their) place on the ground is; "
            + (se.map { String(format: "place_se_m says that (up to %.0f m: the GCPs' and ties' own errors carried along the ties)", $0) }
                ?? "place_se_m is absent: the GCPs are no more than their transforms need, or the ties no more than place the sheets, "
                + "so neither shows an error of its own to carry along the ties")
            + " (docs/pipelines-and-collections.md, \"How far to trust it\")"
    }

    init(figures: [SheetFigures], pipeline: Pipeline) {
        features = figures.map { f in
            Feature(
                id: f.name, geometry: f.footprint.flatMap { $0.count >= 4 ? Geometry(coordinates: [FitFootprint.counterclockwise($0)]) : nil },
                properties: f)
        }
        ties = pipeline.series.ties.map { TieEntry(mapA: pipeline.spec.ties[$0.index].mapA, mapB: pipeline.spec.ties[$0.index].mapB, figures: $0) }
        foundTies = pipeline.foundTies?.figures
    }

    /// The figures of every map: those the gate computed at load, else computed now.
    /// The sheet list's `title`, `date` and `source` cells join them, and the composite's tone
    /// (each map's correction and what its gains came from) when it matches tones.
    static func figures(_ pipeline: Pipeline, tone: CompositeTone? = nil) throws -> [SheetFigures] {
        var figures = try pipeline.series.figures ?? SeriesStep.figures(pipeline, maps: pipeline.spec.maps, series: pipeline.series)
        if let tones = tone?.sheetsByName {
            for i in figures.indices {
                guard let t = tones[figures[i].name] else { continue }
                figures[i].toneGain = t.gain
                figures[i].toneOffset = t.offset
                figures[i].toneGainFrom = t.gainFrom
            }
        }
        guard case .sheetList(let path)? = pipeline.spec.mapsFrom else { return figures }
        let list = try SheetList(path: path)
        guard list.header.contains(where: { ["title", "date", "source"].contains($0) }) else { return figures }
        let rows = Dictionary(list.rows.compactMap { r in r.values["name"].map { ($0, r.values) } }, uniquingKeysWith: { a, _ in a })
        for i in figures.indices {
            guard let v = rows[figures[i].name] else { continue }
            figures[i].title = v["title"]
            figures[i].date = v["date"]
            figures[i].source = v["source"]
        }
        return figures
    }

    /// Key-sorted JSON, numbers as Swift prints them (shortest round-trip form).
    func json() throws -> [UInt8] {
        Array(try JSONStyle.compact.nonFiniteAsStrings.encode(self)) + [0x0A]
    }

    /// Write atomically to `path`, its folder made when missing.
    func write(to path: String) throws {
        try FileManager.default.createDirectory(atPath: path.parentPath, withIntermediateDirectories: true)
        AtomicFile.removeAbandoned(of: path)
        do { try AtomicFile.write(try json(), to: path) } catch {
            throw PipelineError(.writeFailed, "\(path): cannot write the sheet index: \(error)")
        }
    }

    /// Where a composite's index goes (``Tileset/sheetIndexPath(of:)``).
    static func path(besideComposite output: String) -> String { Tileset.sheetIndexPath(of: output) }
}

extension PipelineRunner {
    /// The sheet index a run of this pipeline writes (in its work folder and beside its
    /// composite), byte for byte, without running a stage: the maps' figures and, when the
    /// composite matches tones, the tone `tegula run` stored (else solved now, as a run would).
    public func sheetIndexJSON() throws -> [UInt8] {
        try SheetIndex(figures: try SheetIndex.figures(pipeline, tone: try wholeTone()), pipeline: pipeline).json()
    }

    /// Before any stage: the sheet index into the work folder, and the quality gate's verdicts,
    /// one line each on the log; with `on_fail: stop` and a failing sheet, an error (nothing run).
    /// Of the shards of a run only shard 0 writes the index (all would write the same bytes, and
    /// on other nodes each could take the other's temporary file for an abandoned one).
    func writeIndexAndGate(tone: CompositeTone? = nil) throws -> SheetIndex {
        let index = SheetIndex(figures: try SheetIndex.figures(pipeline, tone: tone), pipeline: pipeline)
        if (options.shard?.index ?? 0) == 0 { try index.write(to: pipeline.workFolder + "/index.geojson") }
        if let found = pipeline.foundTies {
            log(found.summary(work: pipeline.workFolder, minOverlap: pipeline.spec.autoTies?.minOverlapPixels ?? 0, made: pipeline.foundTiesMade))
        }
        if let line = index.placedByTies { log(line) }
        for line in pipeline.unmatchedTieLines { log(line) }
        for line in try pipeline.idleRejectedRows() { log(line) }
        guard let q = pipeline.spec.quality else { return index }
        for line in pipeline.series.gateLines(q) { log(line) }
        if let why = pipeline.series.gateStop(q) {
            throw PipelineError(.invalid, file: pipeline.file, keyPath: "quality", why + ": no stage was run, no tile written")
        }
        return index
    }
}
