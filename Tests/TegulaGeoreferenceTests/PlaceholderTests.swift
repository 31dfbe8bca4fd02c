import Testing
import TegulaGeoreference

/// Kept until the georeference suite lands with its own tests.
struct GeoreferenceLinkTests {
    @Test func kindsParse() { #expect(TransformKind(name: "affine") == .polynomial1) }
}
