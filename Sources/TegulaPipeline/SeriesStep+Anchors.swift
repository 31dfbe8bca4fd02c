extension SeriesStep {
    /// The sheets placed by their ties alone (`gcps: none`) that lose every sheet with GCPs their
    /// ties reached when the gate leaves out the maps named in `out` (`on_fail: skip`): nothing
    /// places them any more, so they are left out too, each with one phrase naming the anchors it
    /// lost. `ties` are ``resolve(_:)``'s, indexing `maps`; the answer is in `maps`' order.
    static func unanchored(_ maps: [MapSpec], ties: [(Int, Int, TieSpec, Int)], out: Set<String>) -> [(name: String, exceeded: [String])] {
        let kept = ties.filter { !out.contains(maps[$0.1].name) && !out.contains(maps[$0.3].name) }
        let before = TieGroups(count: maps.count, ties: ties), after = TieGroups(count: maps.count, ties: kept)
        var anchored = Set<Int>()
        for (i, m) in maps.enumerated() where hasGCPs(m) && !out.contains(m.name) { anchored.insert(after.root(i)) }
        return maps.indices.compactMap { i in
            let m = maps[i]
            guard m.georeference?.gcps == .tiesOnly, !out.contains(m.name), !anchored.contains(after.root(i)) else { return nil }
            let lost = maps.indices.filter { hasGCPs(maps[$0]) && out.contains(maps[$0].name) && before.root($0) == before.root(i) }
            let names = lost.prefix(5).map { "'\(maps[$0].name)'" }.joined(separator: ", ") + (lost.count > 5 ? ", …" : "")
            return (
                m.name,
                [
                    "has no GCPs (gcps: none) and the sheets with GCPs its ties reach (\(names)) are left out by the gate, so nothing places it"
                ]
            )
        }
    }

    /// True for a map with GCPs of its own (given or matched), which can anchor a group.
    static func hasGCPs(_ map: MapSpec) -> Bool {
        guard let g = map.georeference?.gcps else { return false }
        return g != .tiesOnly
    }

    /// The maps joined by ties, as a union-find over map indices.
    struct TieGroups {
        private var parent: [Int]

        init(count: Int, ties: [(Int, Int, TieSpec, Int)]) {
            parent = Array(0..<count)
            for t in ties {
                let a = root(t.1), b = root(t.3)
                if a != b { parent[max(a, b)] = min(a, b) }
            }
        }

        /// The least map index of `i`'s group.
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i { i = parent[i] }
            return i
        }
    }
}
