import Testing
@testable import TegulaGeoreference

/// The module links and loads.
struct TegulaGeoreferenceModuleTests {
    @Test func links() { #expect(String(describing: TegulaGeoreferenceModule.self) == "TegulaGeoreferenceModule") }
}
