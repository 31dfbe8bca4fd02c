import Foundation
import TegulaSupport

/// One pair's rows of a `ties_from:` file rewritten, as the tie editor saves a pair of a series
/// with `ties: auto` (where the hand ties live in that file): the pair's ties replaced, the found
/// ties the person removed added as `rejected` rows (``RejectedTies``), the rejected rows of the
/// found ties the person restored dropped; every other row kept with its values as written, the
/// pair's other earlier rejected rows too. The columns are the file's, plus
/// `kind` when a rejected row needs it. The new text is read back as a ties file before it
/// replaces the old one (atomically), else nothing is written.
public enum TiesFileEdit {
    /// Save `ties` (each of `mapA`–`mapB`) and `rejected` into the ties file at `path` (made when
    /// missing), leaving out the pair's rejected rows that are `restored` (the same maps in either
    /// order, the same pixels); a ``PipelineError`` naming the file when it cannot be read or written.
    public static func save(
        mapA: String, mapB: String, ties: [TieSpec], rejected: [TieSpec], restored: [TieSpec] = [], to path: String
    ) throws {
        let table = FileManager.default.fileExists(atPath: path) ? try CSVTable(path: path, kind: TieList.kind) : nil
        var header = table?.header ?? ["map_a", "x_a", "y_a", "map_b", "x_b", "y_b"]
        let pair = Set([mapA, mapB])
        var rows: [[String: String]] = []
        var before: [TieSpec] = []
        for row in table?.rows ?? [] {
            let v = row.values
            guard Set([v["map_a"]!, v["map_b"]!]) == pair else {
                rows.append(v)
                continue
            }
            guard v["kind"] == "rejected" else { continue }
            let t = tie(v)
            if let t, restored.contains(where: { $0 == t || $0 == turned(t) }) { continue }
            rows.append(v)
            if let t { before.append(t) }
        }
        rows += ties.map { values($0, kind: nil) }
        let new = rejected.filter { r in !before.contains { $0 == r } }
        rows += new.map { values($0, kind: "rejected") }
        if !new.isEmpty, !header.contains("kind") { header.append("kind") }
        let text =
            ([header.joined(separator: ",")] + rows.map { r in header.map { CSV.field(r[$0] ?? "") }.joined(separator: ",") })
            .joined(separator: "\n") + "\n"
        try write(text, to: path)
    }

    /// The text written beside `path`, read back as a ties file, then moved into place.
    static func write(_ text: String, to path: String) throws {
        AtomicFile.removeAbandoned(of: path)
        let file: AtomicFile
        do { file = try AtomicFile(replacing: path) } catch { throw PipelineError(.writeFailed, "\(path): \(error)") }
        do {
            try file.write(Array(text.utf8))
            _ = try TieList(path: file.temporaryPath)
            try file.commit()
        } catch {
            file.discard()
            throw PipelineError(.writeFailed, "\(path): the ties file cannot be written (\(error)); nothing was written")
        }
    }

    /// A row's tie, when its pixels are numbers.
    static func tie(_ v: [String: String]) -> TieSpec? {
        guard let xa = Double(v["x_a"]!), let ya = Double(v["y_a"]!), let xb = Double(v["x_b"]!), let yb = Double(v["y_b"]!) else { return nil }
        return TieSpec(mapA: v["map_a"]!, pixelA: .init(x: xa, y: ya), mapB: v["map_b"]!, pixelB: .init(x: xb, y: yb))
    }

    /// `t` with its two maps swapped.
    static func turned(_ t: TieSpec) -> TieSpec { TieSpec(mapA: t.mapB, pixelA: t.pixelB, mapB: t.mapA, pixelB: t.pixelA) }

    /// A tie as a row's values.
    static func values(_ t: TieSpec, kind: String?) -> [String: String] {
        var v = [
            "map_a": t.mapA, "x_a": number(t.pixelA.x), "y_a": number(t.pixelA.y), "map_b": t.mapB, "x_b": number(t.pixelB.x),
            "y_b": number(t.pixelB.y),
        ]
        v["kind"] = kind
        return v
    }

    /// Whole numbers without a fraction; others by Swift's shortest round-trip form.
    static func number(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : "\(v)" }
}
