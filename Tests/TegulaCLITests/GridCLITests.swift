import Foundation
import TegulaTestSupport
import Testing

/// `tegula grid` against mercantile 1.2.1 (PyPI, installed by scripts/setup) on random inputs.
@Suite(.timeLimit(.minutes(20)))
struct GridCLITests {
    /// Ask mercantile: one python expression per input line, results printed one per line.
    static func mercantile(_ body: String, input: String) throws -> String {
        let script = """
            import sys, mercantile
            assert mercantile.__version__ == "1.2.1", mercantile.__version__
            for line in sys.stdin:
                v = line.split()
                if not v: continue
            \(body.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
            """
        let r = try ProgramRun.run("python3", ["-c", script], stdin: input)
        #expect(r.status == 0, "mercantile failed: \(r.stderr)")
        return r.stdout
    }

    /// Compare line by line, reporting only the first differences (never whole arrays).
    static func expectSameLines(_ ours: String, _ theirs: String, _ what: String) {
        let a = ours.split(separator: "\n", omittingEmptySubsequences: false)
        let b = theirs.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(a.count == b.count, "\(what): \(a.count) lines vs mercantile's \(b.count)")
        let diffs = zip(a, b).enumerated().filter { $0.element.0 != $0.element.1 }
        #expect(
            diffs.isEmpty,
            "\(what): \(diffs.count) differ, first: \(diffs.prefix(3).map { "line \($0.offset + 1): \($0.element.0) vs \($0.element.1)" })")
    }

    static func randomInputs(_ n: Int, seed: UInt64, _ make: (inout SeededRandom) -> String) -> String {
        var rng = SeededRandom(seed: seed)
        return (0..<n).map { _ in make(&rng) }.joined(separator: "\n") + "\n"
    }

    @Test func tileMatchesMercantile() throws {
        let input =
            Self.randomInputs(2000, seed: 1) { r in
                "\(r.uniform(-180, 180)) \(r.uniform(-85.0511, 85.0511)) \(r.next() % 29)"
            } + "180 -85 1\n-180 85.0511287798066 3\n180 0 0\n0 0 30\n"
        let ours = try TegulaBinary.run(["grid", "tile"], stdin: input)
        #expect(ours.status == 0, "\(ours.stderr)")
        let theirs = try Self.mercantile("t = mercantile.tile(float(v[0]), float(v[1]), int(v[2]))\nprint(t.z, t.x, t.y)", input: input)
        Self.expectSameLines(ours.stdout, theirs, "tile")
    }

    @Test func boundsMatchMercantileTo1e9() throws {
        let input = Self.randomInputs(2000, seed: 2) { r in
            let z = Int(r.next() % 25), n = UInt64(1) << UInt64(z)
            return "\(z) \(r.next() % n) \(r.next() % n)"
        }
        for srs in ["EPSG:4326", "EPSG:3857"] {
            let ours = try TegulaBinary.run(["grid", "bounds", "--srs", srs], stdin: input)
            #expect(ours.status == 0, "\(ours.stderr)")
            let fn = srs == "EPSG:4326" ? "bounds" : "xy_bounds"
            let theirText = try Self.mercantile("b = mercantile.\(fn)(int(v[1]), int(v[2]), int(v[0]))\nprint(*[repr(x) for x in b])", input: input)
            let a = ours.stdout.split(separator: "\n")
            let theirs = theirText.split(separator: "\n")
            #expect(a.count == theirs.count)
            let tolerance = srs == "EPSG:4326" ? 1e-9 : 1e-6
            for (x, y) in zip(a, theirs) {
                let u = x.split(separator: " ").compactMap { Double($0) }
                let v = y.split(separator: " ").compactMap { Double($0) }
                #expect(u.count == 4 && v.count == 4)
                for (p, q) in zip(u, v) { #expect(abs(p - q) <= tolerance, "\(x) vs \(y)") }
            }
        }
    }

    @Test func quadkeysBothWaysMatchMercantile() throws {
        let input = Self.randomInputs(1000, seed: 3) { r in
            let z = Int(r.next() % 31), n = UInt64(1) << UInt64(z)
            return "\(z) \(r.next() % n) \(r.next() % n)"
        }
        let ours = try TegulaBinary.run(["grid", "quadkey"], stdin: input)
        #expect(ours.status == 0, "\(ours.stderr)")
        let theirs = try Self.mercantile("print(mercantile.quadkey(int(v[1]), int(v[2]), int(v[0])))", input: input)
        Self.expectSameLines(ours.stdout, theirs, "quadkey")
        let keys = ours.stdout.split(separator: "\n").map(String.init)
        // And back: keys to tiles (zoom-0 keys are empty lines; skip those).
        let nonEmpty = keys.filter { !$0.isEmpty }.joined(separator: "\n") + "\n"
        let back = try TegulaBinary.run(["grid", "quadkey"], stdin: nonEmpty)
        let theirsBack = try Self.mercantile("t = mercantile.quadkey_to_tile(v[0])\nprint(t.z, t.x, t.y)", input: nonEmpty)
        Self.expectSameLines(back.stdout, theirsBack, "quadkey to tile")
    }

    @Test func coverMatchesMercantileIncludingAntimeridian() throws {
        var rng = SeededRandom(seed: 4)
        var boxes: [(Double, Double, Double, Double, Int)] = [(170, -10, -170, 10, 4), (-10, 40, 30, 60, 6), (179.9, -1, -179.9, 1, 8)]
        for _ in 0..<40 {
            let w = rng.uniform(-180, 180), e = rng.uniform(-180, 180)
            let s = rng.uniform(-85, 80), n = s + rng.uniform(0.01, 5)
            boxes.append((w, s, e, n, Int(rng.next() % 7)))
        }
        for (w, s, e, n, z) in boxes {
            let ours = try TegulaBinary.run(["grid", "cover", "--bbox", "\(w),\(s),\(e),\(n)", "--zoom", "\(z)"])
            #expect(ours.status == 0, "\(ours.stderr)")
            let theirs = try Self.mercantile(
                "for t in mercantile.tiles(\(w), \(s), \(e), \(n), [\(z)]): print(t.z, t.x, t.y)", input: "x\n")
            #expect(Set(ours.stdout.split(separator: "\n")) == Set(theirs.split(separator: "\n")), "bbox \(w),\(s),\(e),\(n) z\(z)")
        }
    }

    @Test func badInputIsOneLineAndNonZero() throws {
        for args in [
            ["grid", "tile", "10", "abc", "3"], ["grid", "tile", "0", "0", "31"],
            ["grid", "bounds", "3", "8", "0"], ["grid", "quadkey", "0124"],
            ["grid", "cover", "--bbox", "1,2,3", "--zoom", "2"], ["grid", "bounds", "1", "0", "0", "--srs", "EPSG:2056"],
        ] {
            let r = try TegulaBinary.run(args)
            #expect(r.status != 0, "\(args)")
            #expect(r.stdout.isEmpty)
            #expect(r.stderr.split(separator: "\n").count >= 1)
            if !args.contains("--srs") { #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)") }
        }
        let r = try TegulaBinary.run(["grid", "tile"], stdin: "0 0 1\n1 2\n")
        #expect(r.status != 0)
        #expect(r.stderr.contains("line 2"))
    }
}

extension SeededRandom {
    /// A double in lo..<hi from the next 53 bits.
    mutating func uniform(_ lo: Double, _ hi: Double) -> Double {
        lo + (hi - lo) * Double(next() >> 11) / Double(1 << 53)
    }
}
