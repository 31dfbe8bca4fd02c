import Foundation
import TegulaTestSupport
import Testing

/// `tegula serve --remove-color` end to end: a bad colour or a threshold without a colour stops
/// the server in one line. (The removal itself is checked in RemoveColorTests.)
@Suite(.timeLimit(.minutes(20)))
struct RemoveColorCLITests {
    @Test func aBadColourIsRefusedInOneLine() throws {
        let r = try TegulaBinary.run(["serve", "nothing.tif", "--remove-color", "white"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("--remove-color 'white' is not a colour; expected auto or #RRGGBB"), "\(r.stderr)")
        let t = try TegulaBinary.run(["serve", "nothing.tif", "--remove-threshold", "0.2"])
        #expect(t.status != 0 && t.stderr.contains("--remove-threshold needs --remove-color"), "\(t.stderr)")
    }
}
