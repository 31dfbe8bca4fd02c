import Foundation
import TegulaCrypto
import TegulaGeoreference
import TegulaInputs
import TegulaMatch
import TegulaScan
import TegulaSupport

/// A map's control points proposed by matching its scan against `georeference.match` (TegulaMatch's
/// ``Matcher``, as `tegula match` does), kept in its work folder: `match.json`, the verdict with its
/// figures and the key it was made under, and when it matched `match.points`, the points (QGIS's
/// format, in the reference's CRS, each named with its score); when it did not, `report.json`
/// holds the record alone under `match` (a matched map's report is its fit's, with the match:
/// ``report(_:)``). A record whose key (the scan's and
/// the reference's content digests) is unchanged is read back, so loading's gate, the sheet index
/// and the georeference stage match a scan once, and a rerun not at all.
struct ReferenceMatch: Codable, Sendable, Equatable {
    /// The digests it was made under (``key(map:reference:digests:scans:)``).
    var key: String
    /// The reference, as the pipeline gives it (absolute).
    var reference: String
    /// True when the scan and the reference show the same map surely enough.
    var matched: Bool
    /// Why not, when not.
    var why: String?
    /// Points proposed.
    var points: Int
    /// Their mean, least and greatest normalised cross-correlation (0–1).
    var score: Double?
    var minScore: Double?
    var maxScore: Double?
    /// The share of the scan the reference covers, 0–1.
    var coverage: Double?
    /// Consistent feature matches of the candidates.
    var inliers: Int
    var candidates: Int
    /// The points' leave-one-out RMS in scan pixels.
    var leaveOneOutScanPixels: Double?

    enum CodingKeys: String, CodingKey {
        case key, reference, matched, why, points, score, inliers, candidates, coverage
        case minScore = "min_score", maxScore = "max_score", leaveOneOutScanPixels = "loo_scan_px"
    }

    static func recordPath(in folder: String) -> String { folder + "/match.json" }
    static func pointsPath(in folder: String) -> String { folder + "/match.points" }

    /// The match of `map`'s scan against its reference `reference`: the record in `folder` when it
    /// was made under the same key, else made now and recorded.
    static func of(_ map: MapSpec, reference: String, folder: String, digests: FileDigests, scans: any ScanOpener) throws -> ReferenceMatch {
        let key = key(map: map, reference: reference, digests: digests, scans: scans)
        if let kept = recorded(in: folder), kept.key == key,
            !kept.matched || FileManager.default.fileExists(atPath: pointsPath(in: folder))
        {
            return kept
        }
        return try make(map, reference: reference, key: key, folder: folder, scans: scans)
    }

    /// The record in `folder`, if one was written.
    static func recorded(in folder: String) -> ReferenceMatch? {
        FileManager.default.contents(atPath: recordPath(in: folder)).flatMap { try? JSONDecoder().decode(ReferenceMatch.self, from: $0) }
    }

    /// SHA-256 over the matcher's version, the scan's digest and the reference's (with a bare
    /// template's `reference_bounds`).
    static func key(map: MapSpec, reference: String, digests: FileDigests, scans: any ScanOpener) -> String {
        var h = ContentHash()
        h.update("match/1")
        h.update(digests.digest(of: map.input, opening: scans))
        h.update(reference)
        if let b = map.georeference?.matchBounds { h.update("bounds \(b.west) \(b.south) \(b.east) \(b.north)") }
        h.update(referenceDigest(reference, digests: digests, scans: scans))
        return h.finalize()
    }

    /// The reference's content: a file's digest; a folder's (a tile folder) over every file in it,
    /// by relative path; a URL's, the URL itself (what answers there is not read to plan).
    static func referenceDigest(_ reference: String, digests: FileDigests, scans: any ScanOpener) -> String {
        if Location(reference).isURL { return "url:" + reference }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: reference, isDirectory: &isFolder), isFolder.boolValue else {
            return digests.digest(of: reference, opening: scans)
        }
        var h = ContentHash()
        let files = (FileManager.default.enumerator(atPath: reference)?.allObjects as? [String] ?? []).sorted()
        for name in files {
            let path = reference + "/" + name
            var dir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &dir), !dir.boolValue else { continue }
            h.update(name)
            h.update(digests.digest(of: path, opening: scans))
        }
        return h.finalize()
    }

    /// Matches the scan against the reference and records the verdict (and the points) in `folder`.
    static func make(_ map: MapSpec, reference: String, key: String, folder: String, scans: any ScanOpener) throws -> ReferenceMatch {
        // The pipeline's resolver opens every kind of reference (a tileset by URL, an annotation's
        // IIIF image); a plain opener (a test's) still reads local ones.
        let inputs = scans as? InputResolver ?? InputResolver()
        let scan = try scans.open(map.input).reader()
        let georeferenced = try inputs.reference(
            reference, options: ReferenceOptions(bounds: map.georeference?.matchBounds), scanWidth: scan.width, scanHeight: scan.height)
        let verdict = try Matcher.match(scan: scan, reference: georeferenced.reader)
        let f = verdict.figures
        var record = ReferenceMatch(
            key: key, reference: reference, matched: false, points: 0, coverage: f.coverage,
            inliers: f.inliers, candidates: f.tentative, leaveOneOutScanPixels: f.leaveOneOutScanPixels)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        switch verdict {
        case .noMatch(let why, _):
            record.why = why
            try? FileManager.default.removeItem(atPath: pointsPath(in: folder))
        case .matched(let points, _):
            let grounds = try georeferenced.groundPoints(points.map(\.reference))
            let gcps = points.indices.map { i in
                GCP(id: String(format: "m%02d score=%.3f", i + 1, points[i].score), pixel: points[i].scan, ground: grounds[i])
            }
            try AtomicFile.write(Array(GCPWriter.points(gcps, crs: georeferenced.crs).utf8), to: pointsPath(in: folder))
            let scores = points.map(\.score)
            record.matched = true
            record.points = points.count
            record.score = scores.reduce(0, +) / Double(scores.count)
            record.minScore = scores.min()
            record.maxScore = scores.max()
        }
        try AtomicFile.write(Array(try JSONStyle.readable.encode(record)) + [0x0A], to: recordPath(in: folder))
        if !record.matched {
            // No fit: the map's report is the match alone, in place of an earlier fit's.
            try AtomicFile.write(Array(try JSONStyle.readable.encode(["match": record])), to: GeoreferenceStep.reportPath(in: folder))
        }
        return record
    }

    /// The matched points as a GCP set; a map that did not match is a ``PipelineError`` naming
    /// its scan, its reference and why.
    func gcpSet(folder: String, scan: String) throws -> GCPSet {
        guard matched else {
            throw PipelineError(
                .noMatch, at: scan,
                "no match with the reference \(reference): \(why ?? "not the same map"); "
                    + "give gcps, or a reference of the same map")
        }
        return try GCPReader.read(path: Self.pointsPath(in: folder))
    }

    /// The fit's report as `tegula georef` writes it, with this record under `match` (matched,
    /// the point count, the scores, the coverage): a matched map's `report.json`.
    func report(_ report: GeoreferenceReport) throws -> Data {
        try JSONStyle.readable.nonFiniteAsStrings.encode(MatchedReport(report: report, match: self))
    }

    /// One phrase for the log: matched, the point count and the scores, or why not.
    var summary: String {
        guard matched else { return "no match (\(why ?? "not the same map"))" }
        return String(format: "matched: %d points, score %.2f (%.2f–%.2f)", points, score ?? 0, minScore ?? 0, maxScore ?? 0)
    }
}

/// A fit's report with the match its GCPs came from, as one JSON object: the report's own keys
/// and `match`.
private struct MatchedReport: Encodable {
    var report: GeoreferenceReport
    var match: ReferenceMatch

    enum CodingKeys: String, CodingKey { case match }

    func encode(to encoder: any Encoder) throws {
        try report.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(match, forKey: .match)
    }
}
