import Yams

/// How many values a pipeline file's YAML aliases (`*name`) may add, checked right after the
/// parse and before anything walks the tree.
///
/// Yams shares an aliased node rather than copying it, so parsing a "billion laughs" file is
/// cheap, but everything after walks each copy: a 593-byte file of nine anchors, each a list of
/// ten aliases of the one before, hung `tegula run --dry-run` (killed after 60 s) once placed
/// under `map_defaults.georeference`, whose values the loader walks before checking them.
/// The count here is linear in the text: a node reached again through an alias has the mark
/// (line and column) of its anchor, and the size of what starts at a mark is counted once.
enum AliasBudget {
    /// Values that aliases may add beyond those written out. A map's defaults repeated by
    /// aliases for a few thousand maps stay well below it; an alias bomb is far above.
    static let maximumAdded = 1_000_000

    /// The values written and the values once every alias is expanded (saturating at
    /// `Int.max`), and the mark of the anchored node whose copies add the most.
    struct Count {
        var written = 0
        var expanded = 0
        var worst: Mark?
    }

    /// Counts `root` without expanding it.
    static func count(_ root: Node) -> Count {
        struct Key: Hashable { var kind: UInt8; var line: Int; var column: Int }
        var sizes: [Key: Int] = [:]
        var added: [Key: (mark: Mark, values: Int)] = [:]
        var written = 0

        func size(_ node: Node) -> Int {
            let kind: UInt8
            switch node {
            case .scalar: kind = 0
            case .mapping: kind = 1
            case .sequence: kind = 2
            default: return 1
            }
            let key = node.mark.map { Key(kind: kind, line: $0.line, column: $0.column) }
            if let key, let known = sizes[key], let mark = node.mark {
                // Seen before at this mark: a copy made by an alias.
                let before = added[key]?.values ?? 0
                added[key] = (mark, before.addingReportingOverflow(known).overflow ? Int.max : before + known)
                return known
            }
            written += 1
            var total = 1
            func add(_ n: Int) { total = total.addingReportingOverflow(n).overflow ? Int.max : total + n }
            switch node {
            case .mapping(let m): for (k, v) in m { add(size(k)); add(size(v)) }
            case .sequence(let s): for n in s { add(size(n)) }
            default: break
            }
            if let key { sizes[key] = total }
            return total
        }

        let expanded = size(root)
        return Count(written: written, expanded: expanded, worst: added.values.max { $0.values < $1.values }?.mark)
    }

    /// Refuses a file whose aliases add more than `maximumAdded` values, in one line at the
    /// anchor whose copies add the most.
    static func check(_ root: Node, file: String) throws {
        let c = count(root)
        guard c.expanded - c.written > maximumAdded else { return }
        let expanded = c.expanded == Int.max ? "more than \(Int.max)" : "\(c.expanded)"
        throw PipelineError(
            .syntax, file: file, line: c.worst?.line, column: c.worst?.column,
            "its aliases (*name) would expand \(c.written) written values to \(expanded), more than the "
                + "\(maximumAdded) that aliases may add (a YAML alias bomb?); refused before expanding them: "
                + "write the values out, or share them through map_defaults")
    }
}
