import Testing
@testable import TegulaCodec

/// The module links and loads.
struct TegulaCodecModuleTests {
    @Test func links() { #expect(String(describing: TegulaCodecModule.self) == "TegulaCodecModule") }
}
