import Testing
import TegulaServer
import TegulaTestSupport

/// Every seed and every input that ever crashed the route fuzz target (scripts/fuzz), replayed
/// as Fuzz/Targets/route.swift runs it: whatever a target names is safe to look up.
struct FuzzReplayTests {
    static func safe(_ name: String) -> Bool {
        !name.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == ".." || $0 == "." || $0.isEmpty }
            && !name.contains("\\") && !name.contains("\0")
    }

    @Test(arguments: try FuzzInputs.names("route"))
    func route(_ name: String) throws {
        let target = String(decoding: try FuzzInputs.bytes(name), as: UTF8.self)
        switch Route(target: target) {
        case .tileJSON(let id): #expect(Self.safe(id), "\(id)")
        case .asset(let asset): #expect(Self.safe(asset), "\(asset)")
        case .tile(let t):
            #expect(Self.safe(t.id), "\(t.id)")
            #expect(t.z >= 0 && t.x >= 0 && t.row >= 0)
        case .maps(let lon, let lat): #expect(lon.isFinite && lat.isFinite)
        default: break
        }
    }
}
