import Foundation
import TegulaSupport
import Yams

/// One map as a pipeline file gives it, before decoding: its own YAML mapping (an entry of
/// `maps:`, or one built from a sheet-list row or a glob match), where it came from, and the
/// folder its own relative paths resolve against. Decoding merges `map_defaults:` under it, and
/// every error names the place the failing value came from: `file:line:column key.path` in the
/// pipeline file, `sheets.csv:line:column` for a row's cell, or the matching scan.
struct MapEntry {
    /// Where the map came from.
    enum Origin {
        /// `maps[i]` of the pipeline file.
        case entry(Int)
        /// A data row of a sheet list.
        case row(file: String, SheetList.Row)
        /// A scan matched by `maps_from.glob`.
        case match(file: String)
        /// An annotation of the `maps_from:` AnnotationPage (as written: a file or URL).
        case annotation(page: String, name: String)
    }

    /// The map's own keys.
    var node: Node
    var origin: Origin
    /// Folder the paths of the map's own cells resolve against (a sheet list's folder for its
    /// rows; the pipeline file's folder otherwise).
    var base: String

    /// Sheet-list columns and the key paths they fill.
    static let columnPaths: [String: [PipelineDocument.Step]] = [
        "name": [.key("name")], "input": [.key("input")],
        "gcps": [.key("georeference"), .key("gcps")], "transform": [.key("georeference"), .key("transform")],
        "gcp_srs": [.key("georeference"), .key("gcp_srs")], "mask": [.key("georeference"), .key("mask")],
    ]

    /// A map from a sheet-list row: strings tagged as strings, so `yes` or `1e3` stay text.
    static func row(_ row: SheetList.Row, file: String) -> MapEntry {
        var top: [(Node, Node)] = []
        var geo: [(Node, Node)] = []
        for column in SheetList.kind.knownColumns {
            guard let v = row.values[column], let path = columnPaths[column] else { continue }
            let pair = (Node(path.last!.description), Node(v, Tag(.str)))
            if path.count == 1 { top.append(pair) } else { geo.append(pair) }
        }
        if !geo.isEmpty { top.append((Node("georeference"), Node(geo))) }
        return MapEntry(node: Node(top), origin: .row(file: file, row), base: file.parentPath)
    }

    /// A map from a scan a glob matched: named after its stem, with the pattern's GCP file.
    static func match(file: String, stem: String, gcps: String, base: String) -> MapEntry {
        let node = Node([
            (Node("name"), Node(stem, Tag(.str))),
            (Node("input"), Node(file, Tag(.str))),
            (Node("georeference"), Node([(Node("gcps"), Node(gcps, Tag(.str)))])),
        ])
        return MapEntry(node: node, origin: .match(file: file), base: base)
    }

    /// A map from an annotation of an AnnotationPage (`file`, saved locally when `page` is a
    /// URL): named `name`, its input and GCPs the page with `map` choosing the annotation (the
    /// input is looked through to the annotation's IIIF image when the pipeline loads).
    static func annotation(file: String, page: String, mapID: String, name: String, base: String) -> MapEntry {
        let node = Node([
            (Node("name"), Node(name, Tag(.str))),
            (Node("input"), Node(file, Tag(.str))),
            (Node("georeference"), Node([(Node("gcps"), Node(file, Tag(.str))), (Node("map"), Node(mapID, Tag(.str)))])),
        ])
        return MapEntry(node: node, origin: .annotation(page: page, name: name), base: base)
    }

    /// The map with `defaults` merged under it: a map's keys win; within the georeference, warp
    /// and tile sections they win key by key. A map without a georeference section (an input
    /// georeferenced already) stays without one, unless the defaults' section matches a
    /// reference (`match:`), which every scan of a collection of re-scans can take.
    func merged(under defaults: Node?) -> Node {
        guard let d = defaults?.mapping, let ownMapping = node.mapping else { return node }
        var own = ownMapping.map { ($0.key, $0.value) }
        func index(_ pairs: [(Node, Node)], _ key: String) -> Int? { pairs.firstIndex { $0.0.string == key } }
        for (key, value) in d {
            guard let k = key.string else { continue }
            if let i = index(own, k) {
                guard let mine = own[i].1.mapping, let theirs = value.mapping else { continue }
                var section = mine.map { ($0.key, $0.value) }
                for (dk, dv) in theirs where dk.string.map({ index(section, $0) == nil }) ?? false {
                    section.append((dk, dv))
                }
                own[i].1 = Node(section)
            } else if k != "georeference" || value.mapping?["match"] != nil {
                own.append((key, value))
            }
        }
        return Node(own)
    }

    /// The node with every scalar's tag resolved (`5` an int, `png` a string), as decoding would.
    static func resolvingTags(_ node: Node) -> Node {
        switch node {
        case .scalar(let s): return Node(s.string, Tag(Resolver.default.resolveTag(of: node)), s.style)
        case .mapping(let m): return Node(m.map { (resolvingTags($0.key), resolvingTags($0.value)) })
        case .sequence(let q): return Node(q.map(resolvingTags))
        default: return node
        }
    }

    /// Decode the map with the defaults under it; errors located where the value came from.
    func decode(doc: PipelineDocument, defaults: Node?) throws -> MapSpec {
        let merged = merged(under: defaults)
        do {
            return try YAMLDecoder().decode(Strict<MapSpec>.self, from: merged).value
        } catch {
            guard let e = PipelineDocument.explain(error, root: merged) else { throw error }
            throw self.error(doc: doc, defaults: defaults, e.steps, atKey: e.atKey, e.message)
        }
    }

    /// A short name for the map's origin: `maps[3]`, `sheets.csv:14`, `scans/a.tif`.
    func describe(doc: PipelineDocument) -> String {
        switch origin {
        case .entry(let i): return "maps[\(i)]"
        case .row(let file, let row): return "\((file as NSString).lastPathComponent):\(row.line)"
        case .match(let file): return file
        case .annotation(let page, let name): return "\((page as NSString).lastPathComponent) map '\(name)'"
        }
    }

    /// An error about the value at `steps` (relative to the map): located in the map's own
    /// source when it holds the value, else in `map_defaults` when that does.
    func error(
        doc: PipelineDocument, defaults: Node?, _ steps: [PipelineDocument.Step], atKey: Bool = false,
        _ message: String
    ) -> PipelineError {
        let own = PipelineDocument.node(steps, in: node) != nil
        if !own, let defaults, !steps.isEmpty, PipelineDocument.node(steps, in: defaults) != nil {
            let name = node.mapping?["name"]?.string.map { "map '\($0)'" } ?? "the map"
            return doc.error([.key("map_defaults")] + steps, atKey: atKey, "\(message) (for \(name), \(describe(doc: doc)))")
        }
        switch origin {
        case .entry(let i):
            return doc.error([.key("maps"), .index(i)] + steps, atKey: atKey, message)
        case .row(let file, let row):
            let column = MapEntry.columnPaths.first { !steps.isEmpty && steps.starts(with: $0.value) }?.key
            let name = row.values["name"].map { "map '\($0)': " } ?? ""
            return PipelineError(
                .invalid, file: file, line: row.line, column: column.flatMap { row.columns[$0] },
                keyPath: column, name + message)
        case .match(let file):
            let key = steps.first == .key("georeference") ? "gcps" : "glob"
            return doc.error([.key("maps_from"), .key(key)], "\(file): \(message)")
        case .annotation(let page, let name):
            return doc.error([.key("maps_from")], "\(page), map '\(name)': \(message)")
        }
    }

    /// The folder a path at `steps` resolves against: the sheet list's for a path its row gave,
    /// the pipeline file's for everything else.
    func base(for steps: [PipelineDocument.Step], pipelineFolder: String) -> String {
        PipelineDocument.node(steps, in: node) != nil ? base : pipelineFolder
    }
}
