import Foundation
import TegulaGeometry

extension AutoTies {
    /// Whether a matched pair's offset agrees with the loops of pairs through it: the similarity
    /// through its ties (``Similarity``) against the other pairs' around each loop of three or
    /// four sheets it closes in the pair graph (a grid series' 4-cycles A–B–D–C–A, and the
    /// triangles its diagonal pairs make). Around a loop of right pairs the similarities compose
    /// to the identity, whatever the sheets' GCPs; a pair whose ties agree on one wrong place (a
    /// look-alike a few pixels off, which neither ``Influence`` nor the fits' agreement can see)
    /// opens every loop through it by about its error.
    ///
    /// A loop is judged where its sheets meet (``hub(_:)``): there each pair's similarity is read
    /// near its own ties, not carried across a sheet by a turn that ties along a narrow overlap
    /// fix poorly. A pair is refused when it has loops, none of them closes within ``limit``,
    /// and in each of them every other pair closes a loop of its own, or opens fewer loops than
    /// it (a series' border pairs lie in one loop each): the loops then blame it alone. When the
    /// others that do not and the pair all tie one sheet, the loops blame
    /// that sheet's ties there and cannot tell which is wrong (a sheet whose other overlaps did
    /// not match, tied to two neighbours only): all of them are refused, and the sheet is fitted
    /// without them. A pair in no loop, or in a loop that blames pairs of several sheets alike (a
    /// 2 × 2 series' one loop), is kept. A refused pair gets no ties and is named on stderr as a
    /// pair that does not match.
    enum Loops {
        /// The most, in pixels of a loop's first sheet, that composing its pairs' similarities
        /// may miss the point it started from where its sheets meet.
        static let limit = 3.0

        /// A matched pair as the loops take it: its sheets, the similarity from the first's
        /// pixels to the second's through its ties, and their centroid on the first.
        struct Edge {
            let a: String
            let b: String
            let similarity: Similarity
            let centre: PixelPoint

            /// The edge through `ties` (a point of `a`, its twin on `b`); nil when they fix no similarity.
            init?(a: String, b: String, ties: [(from: PixelPoint, to: PixelPoint)]) {
                guard let s = Similarity(through: ties), s.inverse != nil else { return nil }
                let n = Double(ties.count)
                (self.a, self.b, similarity) = (a, b, s)
                centre = PixelPoint(x: ties.map(\.from.x).reduce(0, +) / n, y: ties.map(\.from.y).reduce(0, +) / n)
            }
        }

        /// A loop: its sheets in order and the edge between each and the next (the last back to the first).
        struct Loop {
            let sheets: [String]
            let edges: [Int]
        }

        /// Why each refused edge (by its index in `edges`) is refused.
        static func refusals(_ edges: [Edge]) -> [Int: String] {
            let graph = Graph(edges)
            var closures: [[Int]: Double] = [:]
            var through: [[(loop: [Int], closure: Double)]] = Array(repeating: [], count: edges.count)
            for e in edges.indices {
                for loop in graph.loops(through: e) {
                    let key = loop.edges.sorted()
                    let closure = closures[key] ?? graph.closure(loop)
                    closures[key] = closure
                    through[e].append((key, closure))
                }
            }
            let closes = through.map { $0.filter { $0.closure <= limit }.count }
            let opens = through.map { $0.filter { !($0.closure <= limit) }.count }
            var out: [Int: String] = [:]
            for e in edges.indices where !through[e].isEmpty && closes[e] == 0 {
                let others = Set(through[e].flatMap { $0.loop.filter { $0 != e && closes[$0] == 0 && opens[$0] >= opens[e] } })
                let at = others.isEmpty ? nil : graph.sharedSheet(others.union([e]))
                guard others.isEmpty || at != nil else { continue }
                let start = String(
                    format:
                        "its offset misses each of the %d loops of pairs through it by %.1f px or more, at most %.1f allowed, where their other pairs close",
                    opens[e], through[e].map(\.closure).min()!, limit)
                out[e] =
                    start
                    + (at.map {
                        " but other ties of '\($0)' that no other loop judges: the loops cannot tell which of '\($0)''s ties is wrong, and keep none"
                    }
                        ?? ": its ties agree on a wrong place")
            }
            return out
        }

        /// The edges by sheet, to walk loops.
        struct Graph {
            let edges: [Edge]
            let steps: [String: [(to: String, edge: Int)]]

            init(_ edges: [Edge]) {
                var steps: [String: [(to: String, edge: Int)]] = [:]
                for (i, e) in edges.enumerated() {
                    steps[e.a, default: []].append((e.b, i))
                    steps[e.b, default: []].append((e.a, i))
                }
                (self.edges, self.steps) = (edges, steps)
            }

            /// The loops of three and four sheets through edge `e`, each once, from its first sheet.
            func loops(through e: Int) -> [Loop] {
                let (a, b) = (edges[e].a, edges[e].b)
                var out: [Loop] = []
                for (c, bc) in steps[b] ?? [] where c != a {
                    for (d, cd) in steps[c] ?? [] where d != b {
                        if d == a {
                            out.append(Loop(sheets: [a, b, c], edges: [e, bc, cd]))
                        } else if let da = steps[d]?.first(where: { $0.to == a }) {
                            out.append(Loop(sheets: [a, b, c, d], edges: [e, bc, cd, da.edge]))
                        }
                    }
                }
                return out
            }

            /// The one sheet that every edge of `set` joins, or nil.
            func sharedSheet(_ set: Set<Int>) -> String? {
                let common = set.map { Set([edges[$0].a, edges[$0].b]) }.reduce(nil) { (all: Set<String>?, two) in all?.intersection(two) ?? two }
                return common?.count == 1 ? common!.first : nil
            }

            /// The similarity that carries sheet `from`'s pixels over edge `e` to the other sheet's.
            func step(_ e: Int, from: String) -> Similarity {
                edges[e].a == from ? edges[e].similarity : edges[e].similarity.inverse!
            }

            /// How far composing the loop's similarities carries its ``hub(_:)`` from itself, in
            /// pixels of its first sheet.
            func closure(_ loop: Loop) -> Double {
                let start = hub(loop)
                var p = start
                for (i, e) in loop.edges.enumerated() { p = step(e, from: loop.sheets[i]).apply(p) }
                return hypot(p.x - start.x, p.y - start.y)
            }

            /// Where the loop's sheets meet, on its first sheet: the mean of its pairs' tie
            /// centroids, each carried back along the loop to the first sheet.
            func hub(_ loop: Loop) -> PixelPoint {
                var sum = PixelPoint(x: 0, y: 0)
                for (i, e) in loop.edges.enumerated() {
                    let here = loop.sheets[i]
                    var p = edges[e].a == here ? edges[e].centre : edges[e].similarity.apply(edges[e].centre)
                    for j in stride(from: i - 1, through: 0, by: -1) { p = step(loop.edges[j], from: loop.sheets[j + 1]).apply(p) }
                    sum = PixelPoint(x: sum.x + p.x, y: sum.y + p.y)
                }
                let n = Double(loop.edges.count)
                return PixelPoint(x: sum.x / n, y: sum.y / n)
            }
        }
    }
}

extension AutoTies.Finding {
    /// The matched pairs that the loops through them refuse (``AutoTies/Loops``) left without
    /// ties, each with why.
    mutating func refuseWhatLoopsDoNotClose() {
        var index: [Int] = []
        var edges: [AutoTies.Loops.Edge] = []
        for (i, pair) in pairs.enumerated() where pair.matched {
            let ties = points[i].map { (from: $0.scan, to: $0.reference) }
            guard let edge = AutoTies.Loops.Edge(a: pair.mapA, b: pair.mapB, ties: ties) else { continue }
            index.append(i)
            edges.append(edge)
        }
        for (k, why) in AutoTies.Loops.refusals(edges) {
            let i = index[k]
            pairs[i] = AutoTies.Pair(mapA: pairs[i].mapA, mapB: pairs[i].mapB, matched: false, ties: 0, why: why, seconds: pairs[i].seconds)
            points[i] = []
        }
    }

    /// Of the sheets `names` (those without GCPs that matching placed), the ones the loops left
    /// in no matched pair: nothing places them.
    func untied(_ names: [String]) -> [String] {
        let tied = Set(pairs.filter(\.matched).flatMap { [$0.mapA, $0.mapB] })
        return names.filter { !tied.contains($0) }
    }
}
