import Testing
@testable import TegulaServer

/// The module links and loads.
struct TegulaServerModuleTests {
    @Test func links() { #expect(String(describing: TegulaServerModule.self) == "TegulaServerModule") }
}
