import Testing
@testable import TegulaPipeline

/// The module links and loads.
struct TegulaPipelineModuleTests {
    @Test func links() { #expect(String(describing: TegulaPipelineModule.self) == "TegulaPipelineModule") }
}
