import Foundation
import TegulaTestSupport
import Testing

/// The command line's refusals (CLIFailure, in the one error shape) print the exact lines they
/// printed as plain messages: one `tegula: …` line each, exit status 1.
struct CLIFailureLineTests {
    /// A file that exists (so the check after it speaks).
    static let existing = TegulaBinary.packageRoot.appendingPathComponent("Package.swift").path

    static let cases: [(arguments: [String], stdin: String?, line: String)] = [
        (["grid", "quadkey", "9"], nil, "'9' is not a quadkey: expected up to 30 digits 0–3"),
        (["grid", "quadkey", "1", "2"], nil, "expected Z X Y or a quadkey, got 2 values"),
        (["grid", "bounds", "1", "2"], nil, "expected Z X Y, got 2 values"),
        (["grid", "cover", "--bbox", "1,2,3", "--zoom", "1"], nil, "--bbox '1,2,3': expected WEST,SOUTH,EAST,NORTH"),
        (["grid", "cover", "--bbox", "0,10,1,5", "--zoom", "1"], nil, "--bbox: south 10.0 is north of north 5.0"),
        (["grid", "cover", "--bbox", "a,0,1,1", "--zoom", "1"], nil, "west 'a' is not a finite number"),
        (["grid", "quadkey", "31", "0", "0"], nil, "zoom '31' must be an integer from 0 to 30"),
        (["grid", "quadkey", "2", "a", "0"], nil, "tile '2 a 0': X and Y must be integers"),
        (["grid", "quadkey", "1", "5", "0"], nil, "tile 1 5 0: X and Y must be in 0…1 at zoom 1"),
        (["grid", "quadkey"], "9\n", "stdin line 1: '9' is not a quadkey: expected up to 30 digits 0–3"),
        (["grid", "bounds"], "1 2\n", "stdin line 1: expected Z X Y, got '1 2'"),
        (["info", "/nonexistent/x.tif"], nil, "/nonexistent/x.tif: no such file"),
        (["warp", "/nonexistent/x.tif", "-o", "/nonexistent/x.tif"], nil, "/nonexistent/x.tif: no such file"),
        (["warp", Self.existing, "--gcps", "/nonexistent/g.points", "-o", "/nonexistent/x.tif"], nil, "/nonexistent/g.points: no such GCP file"),
        (["warp", Self.existing, "--mask", "/nonexistent/m.json", "-o", "/nonexistent/x.tif"], nil, "/nonexistent/m.json: no such mask file"),
        (["transform", "--gcps", "/nonexistent/g.points"], "", "/nonexistent/g.points: no such GCP file"),
        (["edit", "/nonexistent/x.jpg"], nil, "/nonexistent/x.jpg: no such file"),
    ]

    @Test(arguments: cases.indices) func refusalPrintsItsLine(_ i: Int) throws {
        let c = Self.cases[i]
        let run = try TegulaBinary.run(c.arguments, stdin: c.stdin)
        #expect(run.status == 1, "\(c.arguments): \(run.stderr)")
        #expect(run.stderr == "tegula: \(c.line)\n", "\(c.arguments)")
    }
}
