import Foundation
import Yams

/// A pipeline file's YAML node tree, kept after decoding so that any key path can be turned
/// back into `line:column` (Yams `Node.mark`).
public struct PipelineDocument: @unchecked Sendable {
    /// One step of a key path: a mapping key or a list index.
    public enum Step: Hashable, Sendable, CustomStringConvertible {
        case key(String)
        case index(Int)

        public var description: String {
            switch self {
            case .key(let k): return k
            case .index(let i): return "[\(i)]"
            }
        }
    }

    /// The file as given on the command line.
    public let path: String
    let root: Node

    /// Parse YAML into a node tree; syntax errors carry their line and column.
    public init(path: String, text: String) throws {
        self.path = path
        do {
            guard let node = try Yams.compose(yaml: text) else {
                throw PipelineError(.syntax, file: path, line: 1, column: 1, "the file is empty; expected `version: 1` and `maps:`")
            }
            try AliasBudget.check(node, file: path)
            root = node
        } catch let e as YamlError {
            throw PipelineDocument.syntaxError(e, file: path)
        }
    }

    /// Dotted form of a key path: `maps[0].tile.format`.
    public static func keyPath(_ steps: [Step]) -> String {
        var s = ""
        for step in steps {
            switch step {
            case .key(let k): s += (s.isEmpty ? "" : ".") + k
            case .index(let i): s += "[\(i)]"
            }
        }
        return s
    }

    /// Turn coding-key paths into steps: int keys into list indices.
    static func steps(_ path: [any CodingKey]) -> [Step] {
        path.map { k in k.intValue.map(Step.index) ?? .key(k.stringValue) }
    }

    /// The mark of the deepest node on `steps`: the key itself when `atKey` and the last step is
    /// a key that exists, else its value; the closest existing parent when the path ends early.
    public func mark(_ steps: [Step], atKey: Bool = false) -> Mark? {
        var node = root
        var best = root.mark
        for (i, step) in steps.enumerated() {
            let last = i == steps.count - 1
            switch (step, node) {
            case (.index(let n), .sequence(let seq)) where n >= 0 && n < seq.count:
                node = seq[n]
            case (.key(let k), .mapping(let map)):
                guard let pair = map.first(where: { $0.key.string == k }) else { return best }
                if last && atKey { return pair.key.mark ?? best }
                node = pair.value
                // An empty value (`key:`) has its mark at the key.
                best = pair.key.mark ?? best
            default:
                return best
            }
            best = node.mark ?? best
        }
        return best
    }

    /// The node at a path, if the path exists.
    func node(_ steps: [Step]) -> Node? { PipelineDocument.node(steps, in: root) }

    /// The node at a path below `root`, if the path exists.
    static func node(_ steps: [Step], in root: Node) -> Node? {
        var node = root
        for step in steps {
            switch (step, node) {
            case (.index(let n), .sequence(let seq)) where n >= 0 && n < seq.count: node = seq[n]
            case (.key(let k), .mapping(let map)):
                guard let v = map.first(where: { $0.key.string == k })?.value else { return nil }
                node = v
            default: return nil
            }
        }
        return node
    }

    /// What a node is, for messages: `'text'`, `a list`, `a mapping`.
    static func found(_ steps: [Step], in root: Node) -> String {
        switch node(steps, in: root) {
        case .scalar(let s)? where s.style == .singleQuoted || s.style == .doubleQuoted:
            // A number in quotes is text to YAML: say so, or "expected a number, found '16'" puzzles.
            return "the quoted text '\(s.string)'" + (Double(s.string) != nil ? " (a number without the quotes)" : "")
        case .scalar(let s)?: return s.string.isEmpty ? "nothing" : "'\(s.string)'"
        case .sequence?: return "a list"
        case .mapping?: return "a mapping"
        default: return "something else"
        }
    }

    /// An error located at a key path.
    public func error(_ steps: [Step], atKey: Bool = false, _ message: String) -> PipelineError {
        let m = mark(steps, atKey: atKey)
        return PipelineError(.invalid, file: path, line: m?.line, column: m?.column, keyPath: PipelineDocument.keyPath(steps), message)
    }

    /// Decode the spec, turning decoding errors into located ``PipelineError``s.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        do {
            return try YAMLDecoder().decode(type, from: root)
        } catch {
            guard let e = PipelineDocument.explain(error, root: root) else { throw error }
            throw self.error(e.steps, atKey: e.atKey, e.message)
        }
    }

    /// A decoding failure as steps (relative to the decoded node `root`), whether it points at
    /// the key rather than its value, and what was wrong; nil for errors that are not decoding's.
    static func explain(_ error: Error, root: Node) -> (steps: [Step], atKey: Bool, message: String)? {
        switch error {
        case let e as UnknownKeyError:
            let hint = e.suggestion.map { "did you mean '\($0)'?" } ?? e.home ?? "known keys: \(e.known.joined(separator: ", "))"
            return (steps(e.codingPath), true, "unknown key '\(e.key)'; \(hint)")
        case let e as DecodingError:
            switch e {
            case .keyNotFound(let key, let ctx):
                return (steps(ctx.codingPath), false, "missing required key '\(key.stringValue)'")
            case .valueNotFound(let type, let ctx):
                return (steps(ctx.codingPath), false, "needs \(expected(type)), found nothing")
            case .typeMismatch(let type, let ctx):
                let s = steps(ctx.codingPath)
                return (s, false, "expected \(expected(type)), found \(found(s, in: root))")
            case .dataCorrupted(let ctx):
                return (steps(ctx.codingPath), false, ctx.debugDescription)
            @unknown default:
                return ([], false, "\(e)")
            }
        default:
            return nil
        }
    }

    static func expected(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type: return "an integer"
        case is Double.Type: return "a number"
        case is Bool.Type: return "true or false"
        case is String.Type: return "a string"
        case is Node.Mapping.Type: return "a mapping (key: value lines)"
        case is Node.Sequence.Type: return "a list"
        default:
            let name = "\(type)"
            if name.hasPrefix("Array") { return "a list" }
            if name.hasPrefix("Dictionary") { return "a mapping" }
            return name
        }
    }

    static func syntaxError(_ e: YamlError, file: String) -> PipelineError {
        switch e {
        case .scanner(let ctx, let problem, let mark, _), .parser(let ctx, let problem, let mark, _),
            .composer(let ctx, let problem, let mark, _):
            let context = ctx.map { " (\($0.text) at line \($0.mark.line))" } ?? ""
            return PipelineError(.syntax, file: file, line: mark.line, column: mark.column, "invalid YAML: \(problem)\(context)")
        case .duplicatedKeysInMapping(let duplicates, let ctx):
            return PipelineError(
                .syntax, file: file, line: ctx.mark.line, column: ctx.mark.column,
                "invalid YAML: duplicate key \(duplicates.map { "'\($0)'" }.joined(separator: ", "))")
        default:
            return PipelineError(.syntax, file: file, "invalid YAML: \(e)")
        }
    }
}
