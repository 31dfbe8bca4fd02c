import HTTPTypes
import TegulaHTTP

/// A page's routes as a table of path prefixes and the methods each takes: the one lookup under
/// ``EditorRoute`` (the GCP editor) and ``TieRoute`` (the tie editor).
protocol EditorRouteTable {
    /// Each route's first path segment (two under `/api/`) and its methods.
    static var table: [(prefix: [String], methods: [HTTPRequest.Method])] { get }
}

extension EditorRouteTable {
    /// The table's entry for a path: by its first segment (two under `/api/`, which has no deeper
    /// paths; nor have the scripts).
    static func entry(_ s: [String]) -> (prefix: [String], methods: [HTTPRequest.Method])? {
        let key = s.first == "api" ? Array(s.prefix(2)) : Array(s.prefix(1))
        guard key.first != "api" || s.count == 2, !(key.first?.hasSuffix(".js") ?? false) || s.count == 1 else { return nil }
        return table.first { $0.prefix == key }
    }

    /// The methods the path of `target` takes, for a 405's `Allow`.
    static func allowed(for target: String) -> String? {
        guard let s = try? RequestTarget(target).segments, let entry = entry(s) else { return nil }
        return entry.methods.map(\.rawValue).joined(separator: ", ")
    }
}
