// The route fuzz body (FuzzCase): an HTTP request target (path and query) as the server parses
// it. Whatever it names must be safe to look up: no id or asset name may climb out of the served
// folder. Run by Fuzz/Targets/route.swift (joined to TegulaServer, its request-target parser, by
// scripts/fuzz) and by FuzzReplayTests. A target the server does not know is a route, not an
// error.
#if !TEGULA_FUZZ_TARGET
    import TegulaServer
    import TegulaTestSupport
#endif

enum RouteFuzz {
    static func run(_ bytes: [UInt8], _ c: inout FuzzCase) {
        let target = String(decoding: bytes, as: UTF8.self)
        switch Route(target: target) {
        case .tileJSON(let id), .sheetIndex(let id): c.check(safe(id), "unsafe id \(id)")
        case .asset(let name): c.check(safe(name), "unsafe asset \(name)")
        case .tile(let t):
            c.check(safe(t.id), "unsafe id \(t.id)")
            c.check(t.z >= 0 && t.x >= 0 && t.row >= 0, "negative tile \(t.z)/\(t.x)/\(t.row)")
        case .maps(let lon, let lat): c.check(lon.isFinite && lat.isFinite, "point \(lon), \(lat) not finite")
        default: break
        }
    }

    /// A name with no empty, `.` or `..` component, no backslash and no NUL.
    static func safe(_ name: String) -> Bool {
        !name.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == ".." || $0 == "." || $0.isEmpty }
            && !name.contains("\\") && !name.contains("\0")
    }
}
