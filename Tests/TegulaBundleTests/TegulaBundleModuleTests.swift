import Testing
@testable import TegulaBundle

/// The module links and loads.
struct TegulaBundleModuleTests {
    @Test func links() { #expect(String(describing: TegulaBundleModule.self) == "TegulaBundleModule") }
}
