import Testing
@testable import TegulaPyramid

/// The module links and loads.
struct TegulaPyramidModuleTests {
    @Test func links() { #expect(String(describing: TegulaPyramidModule.self) == "TegulaPyramidModule") }
}
