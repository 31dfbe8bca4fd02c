import Testing
@testable import TegulaWarp

/// The module links and loads.
struct TegulaWarpModuleTests {
    @Test func links() { #expect(String(describing: TegulaWarpModule.self) == "TegulaWarpModule") }
}
