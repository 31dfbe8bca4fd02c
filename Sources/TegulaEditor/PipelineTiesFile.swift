import Foundation
import TegulaGeometry
import TegulaPipeline
import TegulaSupport
import Yams

/// The `ties:` list of a pipeline file, rewritten in place: the lines from the top-level `ties:`
/// key to the next top-level key (comment and blank lines before that key kept) are replaced by
/// the new list, one tie a line in flow style; without a `ties:` key the list is appended. Every
/// other byte of the file stays as it was; before the file is replaced (atomically) the new text
/// is parsed again and must hold the same top-level keys and values but `ties`, and exactly the
/// ties written, else nothing is written.
public enum PipelineTiesFile {
    /// The new text of the pipeline `text` with `ties` as its `ties:` list; an ``EditorError``
    /// naming `file` when the top level is not a block mapping or the check fails.
    public static func replacing(ties: [TieSpec], in text: String, file: String) throws -> String {
        let root: Node?
        do { root = try Yams.compose(yaml: text) } catch { throw EditorError(.unreadableInput, at: file, "not YAML: \(error)") }
        guard let mapping = root?.mapping, mapping.style != .flow, mapping.keys.allSatisfy({ $0.mark?.column == 1 }) else {
            throw EditorError(
                .writeFailed, at: file, "the pipeline's top level is not a block mapping (keys at the start of lines); add the ties by hand")
        }
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        let keys = Array(mapping.keys)
        let block = listLines(ties)
        if let i = keys.firstIndex(where: { $0.string == "ties" }), let start = keys[i].mark?.line {
            var end = i + 1 < keys.count ? (keys[i + 1].mark?.line ?? lines.count + 1) - 1 : lines.count
            while end > start, isGap(lines[end - 1]) { end -= 1 }
            lines.replaceSubrange((start - 1)..<end, with: block)
        } else {
            lines += block
        }
        let out = lines.joined(separator: "\n") + "\n"
        try verify(out, against: mapping, ties: ties, file: file)
        return out
    }

    /// Replace the ties of `mapA`–`mapB` in the pipeline file at `path` by `ties` (the other
    /// pairs' ties kept, in their order, the new ones after them), atomically.
    public static func save(_ ties: [EditorTie], mapA: String, mapB: String, to path: String) throws {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw EditorError(.unreadableInput, at: path, "cannot read the pipeline file")
        }
        let current: [TieSpec]
        do {
            let node = try Yams.compose(yaml: text)?.mapping?["ties"]
            current = try node.map { try YAMLDecoder().decode([TieSpec].self, from: $0) } ?? []
        } catch { throw EditorError(.unreadableInput, at: path, "its ties: list cannot be read: \(error)") }
        let others = current.filter { !(Set([$0.mapA, $0.mapB]) == Set([mapA, mapB])) }
        let new = others + ties.map { TieSpec(mapA: mapA, pixelA: $0.a, mapB: mapB, pixelB: $0.b) }
        let out = try replacing(ties: new, in: text, file: path)
        do { try AtomicFile.write(Array(out.utf8), to: path) } catch {
            throw EditorError(.writeFailed, at: path, "\(error)")
        }
    }

    /// `ties:` and one `- [A, [x, y], B, [x, y]]` line per tie; `ties: []` for none.
    static func listLines(_ ties: [TieSpec]) -> [String] {
        guard !ties.isEmpty else { return ["ties: []"] }
        return ["ties:"]
            + ties.map { t in
                "  - [\(scalar(t.mapA)), [\(number(t.pixelA.x)), \(number(t.pixelA.y))], \(scalar(t.mapB)), [\(number(t.pixelB.x)), \(number(t.pixelB.y))]]"
            }
    }

    /// A blank line or a comment: kept with the key that follows.
    static func isGap(_ line: String) -> Bool {
        let t = line.trimmingCharacters(in: .whitespaces)
        return t.isEmpty || t.hasPrefix("#")
    }

    /// A map name as a YAML string: plain when YAML reads it back as that string, else double-quoted
    /// (a JSON string is a YAML double-quoted scalar).
    static func scalar(_ s: String) -> String {
        let plain = s.range(of: "^[A-Za-z_][A-Za-z0-9_.-]*$", options: .regularExpression) != nil
        if plain, (try? Yams.load(yaml: s)) as? String == s { return s }
        return (try? JSONStyle.compact.string(s)) ?? "\"\""
    }

    /// Whole numbers without a fraction; others by Swift's shortest round-trip form.
    static func number(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : "\(v)"
    }

    static func verify(_ text: String, against before: Node.Mapping, ties: [TieSpec], file: String) throws {
        func fail(_ why: String) -> EditorError {
            EditorError(.writeFailed, at: file, "the ties: list cannot be rewritten in place (\(why)); nothing was written")
        }
        guard let after = (try? Yams.compose(yaml: text))?.mapping else { throw fail("the result is not a mapping") }
        func others(_ m: Node.Mapping) -> [Node: Node] {
            var d: [Node: Node] = [:]
            for (k, v) in m where k.string != "ties" { d[k] = v }
            return d
        }
        guard others(after) == others(before), Array(after.keys.filter { $0.string != "ties" }) == Array(before.keys.filter { $0.string != "ties" })
        else {
            throw fail("another key would change")
        }
        let written = try? after["ties"].map { try YAMLDecoder().decode([TieSpec].self, from: $0) }
        guard written == ties else { throw fail("the list read back differs") }
    }
}
