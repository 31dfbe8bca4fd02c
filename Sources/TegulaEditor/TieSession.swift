import Foundation
import TegulaGeometry
import TegulaSupport

/// One tie as the tie editor holds it: the same place on sheet A and on sheet B, in each scan's
/// pixels (GDAL convention: (0,0) = top-left corner). On the wire `{"id", "a": [x, y], "b": [x, y]}`,
/// and `"score"` for a tie found by `ties: auto` (`f1`, `f2`, … as the editor opened them).
public struct EditorTie: Codable, Sendable, Equatable {
    /// Unique within the session (`t1`, `t2`, …); not saved (a pipeline's ties have no ids).
    public var id: String
    /// The place on sheet A's scan.
    public var a: PixelPoint
    /// The place on sheet B's scan.
    public var b: PixelPoint
    /// A found tie's score (normalised cross-correlation, 0–1); nil for a hand tie. Shown, not read
    /// back: the editor knows its found ties by id.
    public var score: Double?

    /// A tie from its parts.
    public init(id: String, a: PixelPoint, b: PixelPoint, score: Double? = nil) {
        self.id = id
        self.a = a
        self.b = b
        self.score = score
    }

    enum CodingKeys: String, CodingKey { case id, a, b, score }

    /// `a` or `b` that is not two numbers is an ``EditorError`` naming the tie (`ties[2].b (t3)`).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let id = try c.decode(String.self, forKey: .id)
        let place = EditorSession.path(decoder.codingPath)
        func point(_ key: CodingKeys) throws -> PixelPoint {
            let p = try c.decode([Double].self, forKey: key)
            guard p.count == 2, p[0].isFinite, p[1].isFinite else {
                throw EditorError.notAPoint(.pixelOutsideScan, at: "\(place).\(key.stringValue) (\(id))", "[x, y]")
            }
            return PixelPoint(x: p[0], y: p[1])
        }
        let (a, b) = (try point(.a), try point(.b))
        (self.id, self.a, self.b) = (id, a, b)
        score = try? c.decodeIfPresent(Double.self, forKey: .score)
    }

    /// `a` and `b` as `[x, y]`.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode([a.x, a.y], forKey: .a)
        try c.encode([b.x, b.y], forKey: .b)
        try c.encodeIfPresent(score, forKey: .score)
    }
}

/// What the tie editor edits and its API carries: the two maps by name and the ties between them,
/// `{"map_a", "map_b", "ties": [{"id", "a", "b"}], "removed": [{"id", "a", "b", "score"}]}`. Undo
/// lives in the page.
public struct TieSession: Codable, Sendable, Equatable {
    /// The map shown on the left; every tie's `a` is on its scan.
    public var mapA: String
    /// The map shown on the right.
    public var mapB: String
    /// The ties in the order they were placed.
    public var ties: [EditorTie]
    /// With `ties: auto`, the pair's found ties removed by an earlier save (`r1`, `r2`, …: the
    /// `rejected` rows of the ties file, at the place each was found; `score` that of the found
    /// tie the row leaves out now, none when it leaves none out). Answered by the server, which
    /// knows them by id; a page restores one by putting it back in ``ties`` where it was.
    /// Optional in a request: a save goes by the server's own list.
    public var removed: [EditorTie]

    /// A session from its parts.
    public init(mapA: String, mapB: String, ties: [EditorTie], removed: [EditorTie] = []) {
        self.mapA = mapA
        self.mapB = mapB
        self.ties = ties
        self.removed = removed
    }

    enum CodingKeys: String, CodingKey { case mapA = "map_a", mapB = "map_b", ties, removed }

    /// `removed` may be left out.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        mapA = try c.decode(String.self, forKey: .mapA)
        mapB = try c.decode(String.self, forKey: .mapB)
        ties = try c.decode([EditorTie].self, forKey: .ties)
        removed = try c.decodeIfPresent([EditorTie].self, forKey: .removed) ?? []
    }

    /// The session parsed from JSON; a ``EditorError`` (`badSession`) naming the key otherwise.
    public static func decode(_ data: Data) throws -> TieSession {
        do { return try JSONDecoder().decode(TieSession.self, from: data) } catch let e as EditorError {
            throw e
        } catch let DecodingError.keyNotFound(key, ctx) {
            throw EditorError(
                .badSession, at: EditorSession.path(ctx.codingPath + [key]),
                "missing; a tie session is {\"map_a\", \"map_b\", \"ties\": [{\"id\", \"a\": [x, y], \"b\": [x, y]}]}")
        } catch let DecodingError.typeMismatch(_, ctx) {
            throw EditorError(.badSession, at: EditorSession.path(ctx.codingPath), "wrong type: \(ctx.debugDescription)")
        } catch let DecodingError.valueNotFound(_, ctx) {
            throw EditorError(.badSession, at: EditorSession.path(ctx.codingPath), "null where a value is needed")
        } catch {
            throw EditorError(.badSession, at: "body", "not a JSON tie session: \(error.localizedDescription)")
        }
    }

    /// Pretty, key-sorted JSON (what `GET /api/ties` answers).
    public func json() -> Data {
        (try? JSONStyle.readable.encode(self)) ?? Data("{}".utf8)
    }
}

/// The answer of `POST /api/seams` and `PUT /api/ties`: per tie its seam error with each sheet on
/// its own fit (what the run reports as `seam_before_m`) and after the joint fit of the two sheets
/// with these ties (`seam_after_m`), great-circle metres; and the seam in sheet A's pixels.
public struct SeamFigures: Codable, Sendable, Equatable {
    /// One tie's figures, by its id.
    public struct Row: Codable, Sendable, Equatable {
        public var id: String
        /// The ground distance between where sheet A's and sheet B's own fits put the tie point.
        public var seamM: Double
        /// The same as a distance on sheet A's scan: B's pixel carried through B's fit and A's
        /// inverse, to A's pixel (nil where A's inverse has no pixel there).
        public var seamPx: Double?
        /// The ground distance after the two sheets are fitted together with these ties.
        public var seamAfterM: Double?

        enum CodingKeys: String, CodingKey { case id, seamM = "seam_m", seamPx = "seam_px", seamAfterM = "seam_after_m" }
    }

    /// In the session's order.
    public var ties: [Row]
    /// The pipeline's `tie_weight` the joint figures were fitted with.
    public var tieWeight: Double
    /// Where Save writes: the pipeline file, or with `ties: auto` its ties file.
    public var saved: String?

    enum CodingKeys: String, CodingKey { case ties, tieWeight = "tie_weight", saved }
}
