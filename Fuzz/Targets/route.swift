// libFuzzer target: an HTTP request target (path and query) as the server parses it. Joined to
// TegulaServer (Route.swift alone) by scripts/fuzz. Whatever it names must be safe to look up:
// no id or asset name may climb out of the served folder.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRoute(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let target = String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
    func safe(_ name: String) -> Bool {
        !name.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == ".." || $0 == "." || $0.isEmpty }
            && !name.contains("\\") && !name.contains("\0")
    }
    switch Route(target: target) {
    case .tileJSON(let id): precondition(safe(id), "unsafe id \(id)")
    case .asset(let name): precondition(safe(name), "unsafe asset \(name)")
    case .tile(let t):
        precondition(safe(t.id), "unsafe id \(t.id)")
        precondition(t.z >= 0 && t.x >= 0 && t.row >= 0)
    case .maps(let lon, let lat): precondition(lon.isFinite && lat.isFinite)
    default: break
    }
    return 0
}
