import TegulaGeometry

/// What a request target asks for, parsed without touching the file system.
///
/// Segments are split on `/` first and then percent-decoded, so `%2f` can never add a level;
/// a decoded segment that is `.`, `..`, empty, or holds `/`, `\` or NUL is malformed (400).
/// Numbers are plain decimal without sign or leading zeros, so no two paths name one tile.
public enum Route: Equatable, Sendable {
    /// `/`: the viewer page.
    case viewer
    /// `/health`.
    case health
    /// `/metrics`: Prometheus metrics when the server counts them (`--metrics`), else 404.
    case metrics
    /// `/maps?lon=&lat=`.
    case maps(longitude: Double, latitude: Double)
    /// A fixed asset of the viewer (`/viewer.js`, `/leaflet/…`), looked up by name.
    case asset(String)
    /// `/{id}.json`.
    case tileJSON(id: String)
    /// `/{id}/{z}/{x}/{y}[@2x].{ext}` or under `/{id}/tms/`.
    case tile(TileRequest)
    /// A target that cannot name anything (status 400 with the reason).
    case malformed(String)
    /// A well-formed target naming nothing we have.
    case notFound

    /// A tile as requested: numbers as given, row counted from the origin given.
    public struct TileRequest: Equatable, Sendable {
        public var id: String
        public var z: Int
        public var x: Int
        public var row: Int
        /// Row 0 at the top (`/{id}/{z}/…`) or at the bottom (`/{id}/tms/{z}/…`).
        public var origin: TileOrigin
        public var retina: Bool
        public var ext: String
    }

    /// Parses a request target (`/path?query`). Works on the UTF-8 bytes: this runs for every
    /// tile request, and `Character`-level string searching was its largest cost.
    public init(target: String) {
        let bytes = target.utf8
        let q = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex
        let rawPath = bytes[..<q]
        let query = q < bytes.endIndex ? String(target[target.utf8.index(after: q)...]) : ""
        guard rawPath.first == UInt8(ascii: "/") else { self = .malformed("the path must start with /"); return }
        if rawPath.count == 1 { self = .viewer; return }
        var segments: [String] = []
        segments.reserveCapacity(5)
        for raw in rawPath.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            guard let s = Route.percentDecode(raw) else { self = .malformed("bad percent-encoding"); return }
            if s.isEmpty || s == "." || s == ".." || s.utf8.contains(where: { $0 == 0x2F || $0 == 0x5C || $0 == 0 }) {
                self = .malformed("path segment '\(String(decoding: raw, as: UTF8.self))' is not allowed")
                return
            }
            segments.append(s)
        }
        self = Route.route(segments, query: query)
    }

    static func route(_ s: [String], query: String) -> Route {
        switch s.count {
        case 1:
            if s[0] == "health" { return .health }
            if s[0] == "metrics" { return .metrics }
            if s[0] == "maps" { return maps(query) }
            if s[0] == "viewer.js" { return .asset("viewer.js") }
            // `/.json`, `/..json` and `/...json` name no tileset: an id is never empty, `.` or `..`
            // (the segment rule above, applied to the id once `.json` is dropped; found by fuzzing).
            guard s[0].hasSuffix(".json") else { return .notFound }
            let id = String(s[0].dropLast(5))
            return id.isEmpty || id == "." || id == ".." ? .notFound : .tileJSON(id: id)
        case 2...3 where s[0] == "leaflet":
            return .asset(s.joined(separator: "/"))
        case 4:
            return tile(id: s[0], s[1], s[2], s[3], origin: .topLeft)
        case 5 where s[1] == "tms":
            return tile(id: s[0], s[2], s[3], s[4], origin: .bottomLeft)
        default:
            return .notFound
        }
    }

    static func tile(id: String, _ z: String, _ x: String, _ file: String, origin: TileOrigin) -> Route {
        let f = file.utf8
        guard let dot = f.lastIndex(of: UInt8(ascii: ".")) else { return .malformed("tile name '\(file)' has no extension") }
        var stem = f[..<dot]
        let ext = String(file[f.index(after: dot)...])
        let retina = stem.count >= 3 && stem.suffix(3).elementsEqual("@2x".utf8)
        if retina { stem = stem.dropLast(3) }
        guard let zn = number(z.utf8[...], maxDigits: 2), let xn = number(x.utf8[...], maxDigits: 10),
              let yn = number(stem, maxDigits: 10) else {
            return .malformed("z, x and y must be plain decimal numbers")
        }
        guard zn <= WebMercator.maxZoom else { return .malformed("zoom \(zn) is beyond \(WebMercator.maxZoom)") }
        guard xn < (1 << zn), yn < (1 << zn) else { return .malformed("x and y must be below 2^z = \(1 << zn)") }
        return .tile(TileRequest(id: id, z: zn, x: xn, row: yn, origin: origin, retina: retina, ext: ext))
    }

    /// A non-negative decimal without sign or leading zeros, at most `maxDigits` long.
    static func number(_ s: Substring.UTF8View, maxDigits: Int) -> Int? {
        guard !s.isEmpty, s.count <= maxDigits, s.count == 1 || s.first != UInt8(ascii: "0") else { return nil }
        var n = 0
        for c in s {
            guard c >= 48 && c <= 57 else { return nil }
            n = n * 10 + Int(c - 48)
        }
        return n
    }

    static func maps(_ query: String) -> Route {
        var lon: Double?, lat: Double?
        for pair in query.split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1)
            guard kv.count == 2, let v = Double(kv[1]), v.isFinite else { continue }
            if kv[0] == "lon" { lon = v } else if kv[0] == "lat" { lat = v }
        }
        guard let lon, let lat, (-180...180).contains(lon), (-90...90).contains(lat) else {
            return .malformed("/maps needs lon (−180…180) and lat (−90…90) as decimal degrees")
        }
        return .maps(longitude: lon, latitude: lat)
    }

    /// Strict percent-decoding of one segment; nil on a bad escape or invalid UTF-8.
    static func percentDecode(_ s: Substring.UTF8View) -> String? {
        guard s.contains(0x25) else { return String(Substring(s)) }
        var out: [UInt8] = []
        var it = Array(s)[...]
        while let c = it.popFirst() {
            if c == UInt8(ascii: "%") {
                guard it.count >= 2, let h = hex(it.popFirst()!), let l = hex(it.popFirst()!) else { return nil }
                out.append(h << 4 | l)
            } else {
                out.append(c)
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: return c - 48
        case 65...70: return c - 55
        case 97...102: return c - 87
        default: return nil
        }
    }
}
