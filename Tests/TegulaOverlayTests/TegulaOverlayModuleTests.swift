import Testing
@testable import TegulaOverlay

/// The module links and loads.
struct TegulaOverlayModuleTests {
    @Test func links() { #expect(String(describing: TegulaOverlayModule.self) == "TegulaOverlayModule") }
}
