import Foundation
import TegulaCluster
import TegulaCodec
import TegulaComposite
import TegulaGDAL
import TegulaGeometry
import TegulaTestSupport
import TegulaTileset
import TegulaWarp
import Testing

@testable import TegulaPipeline

/// The composite's tone matching (`composite.tone`) against known truths: the generated 4 × 4
/// ``TestSeries`` (each sheet 4 levels lighter or darker than its neighbours, on the source's
/// own pixel grid) and a `scripts/make-series` series whose sheets have known gains and offsets
/// per channel (``MadeSeries``, `--tone-offset`): the solved corrections undo them, the
/// composite comes nearer the source across every sheet boundary, and a sharded run equals the
/// single one.
@Suite(.serialized) struct ToneTests {
    /// The index's tone properties by sheet name: (gain, offset).
    static func indexTones(_ path: String) throws -> [String: (gain: [Double], offset: [Double])] {
        let index = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
        var out: [String: ([Double], [Double])] = [:]
        for f in index["features"] as! [[String: Any]] {
            let p = f["properties"] as! [String: Any]
            guard let g = p["tone_gain"] as? [Double], let o = p["tone_offset"] as? [Double] else { continue }
            out[p["name"] as! String] = (g, o)
        }
        return out
    }

    @Test func matchingTheTestSeriesUndoesItsSheetTonesAtEveryPixel() throws {
        let folder = try TemporaryFolder.make("tone-series").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let series = try TestSeries(in: folder)
        let source = try series.source().rgb
        let plain = try SeamTests.pipeline(series, "plain")
        let matched = try SeamTests.pipeline(series, "matched", composite: "  tone: match\n")
        #expect(try runPipeline(plain).error == nil)
        let r = try runPipeline(matched)
        #expect(r.error == nil, "\(String(describing: r.error)) \(r.log)")
        // Sixteen sheets, half +4 and half −4: the group's mean offset is the source's. Gains stay
        // 1 (an offset leaves the spreads alone) and each offset takes its sheet's tone away.
        let tones = try Self.indexTones(folder + "/out/matched.index.geojson")
        #expect(tones.count == 16)
        var worstGain = 0.0, worstOffset = 0.0
        for r in 0..<TestSeries.sheets {
            for c in 0..<TestSeries.sheets {
                let t = try #require(tones["sheet-\(r)-\(c)"])
                for k in 0..<3 {
                    worstGain = max(worstGain, abs(t.gain[k] - 1))
                    worstOffset = max(worstOffset, abs(t.offset[k] + Double(TestSeries.tone(r, c))))
                }
            }
        }
        #expect(worstGain < 0.002 && worstOffset < 0.1, "gain off by \(worstGain), offset by \(worstOffset) levels")
        // Each sheet's line on the log, as on stderr.
        #expect(r.log.filter { $0.hasPrefix("tone: sheet '") }.count == 16, "\(r.log)")
        let before = SeamTests.Difference(try SeamTests.pixels(folder + "/out/plain.pmtiles"), source).figures
        let after = SeamTests.Difference(try SeamTests.pixels(folder + "/out/matched.pmtiles"), source).figures
        print(
            "tone match on a 4×4 series with ±4-level sheet tones (seam over): |Δ| to the source \(before.largest) → \(after.largest) levels, "
                + "step across sheet boundaries \(before.step) → \(after.step)")
        #expect(before.largest == 4 && before.step >= 8)
        #expect(after.largest <= 1 && after.step <= 1)
    }

    /// Each sheet's tone as `scripts/make-series` made it (`truth.json`): map pixel = gain ×
    /// source + offset, per channel.
    static func knownTones(_ folder: String) throws -> [String: (gain: [Double], offset: [Double])] {
        let truth = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/truth.json"))) as! [String: Any]
        return (truth["sheets"] as! [String: [String: Any]]).mapValues { s in
            let t = s["tone"] as! [String: [Double]]
            return (t["gain"]!, t["offset"]!)
        }
    }

    /// How near the solved tones of a made series' composite (`out/series.index.geojson`) bring
    /// every sheet to the anchor's view of the source (g·a = a₀ and g·b + o = b₀), per channel
    /// (red, green, blue) the worst of the sheets: gain as a fraction, offset in levels; and
    /// how far apart the sheets' own gains were.
    static func recovered(_ folder: String, anchor: String) throws -> (gain: [Double], offset: [Double], spread: Double) {
        let known = try knownTones(folder), a = known[anchor]!
        let tones = try indexTones(folder + "/out/series.index.geojson")
        #expect(tones.count == known.count)
        #expect(tones[anchor]?.gain == [1, 1, 1] && tones[anchor]?.offset == [0, 0, 0])
        var gain = [0.0, 0, 0], offset = [0.0, 0, 0], spread = 0.0
        for (name, t) in tones {
            let k = known[name]!
            for c in 0..<3 {
                gain[c] = max(gain[c], abs(t.gain[c] * k.gain[c] / a.gain[c] - 1))
                offset[c] = max(offset[c], abs(t.gain[c] * k.offset[c] + t.offset[c] - a.offset[c]))
                spread = max(spread, abs(k.gain[c] / a.gain[c] - 1))
            }
        }
        return (gain, offset, spread)
    }

    /// A made series: 3 × 3 sheets, exact GCPs (so only the tone differs), per-sheet gains
    /// 0.765–0.935 and offsets (paper's share plus up to ±12 levels) per channel.
    @Test func solvedCorrectionsUndoKnownGainsAndOffsetsAndBringTheSeamsNearerTheSource() throws {
        let folder = try TemporaryFolder.make("tone-made").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = try MadeSeries.make(in: folder, cols: 3, rows: 3, cell: 128, gcpError: 0, extra: ["--tone-offset", "12", "--keep-source"])
        let plain = (file as NSString).deletingLastPathComponent + "/plain.yml"
        try (try String(contentsOfFile: file, encoding: .utf8).replacingOccurrences(of: "out/series.pmtiles", with: "out/plain.pmtiles"))
            .write(toFile: plain, atomically: true, encoding: .utf8)
        try
            (try String(contentsOfFile: file, encoding: .utf8).replacingOccurrences(
                of: "tile: {max_zoom: 7}}", with: "tile: {max_zoom: 7}, tone: {anchor: r1c1}}")).write(
                toFile: file, atomically: true, encoding: .utf8)
        for f in [plain, file] {
            let r = try runPipeline(f)
            #expect(r.error == nil, "\(String(describing: r.error)) \(r.log)")
        }
        let (worstGain, worstOffset, spreadGain) = try Self.recovered(folder, anchor: "r1c1")
        print(
            "tone match on a 3×3 made series: sheet gains up to \(String(format: "%.1f", spreadGain * 100)) % from the anchor's; "
                + "corrected, red green blue within " + worstGain.map { String(format: "%.2f", $0 * 100) }.joined(separator: " ") + " % and "
                + worstOffset.map { String(format: "%.2f", $0) }.joined(separator: " ") + " levels of it")
        #expect(spreadGain > 0.05)
        // Every channel as well as the others. At 9063f66 green was 10.1 % and 6.8 levels off (red
        // and blue 3 % and 1 level): the generator rounded every sheet from one 8-bit source, and the
        // solve weighed overlaps of 2 levels' spread like any other (``ToneMatch``). Measured now:
        // red, green, blue within 0.16, 0.30, 0.95 % and 0.07, 0.23, 0.10 levels.
        for c in 0..<3 {
            #expect(worstGain[c] < 0.01 && worstOffset[c] < 0.5, "channel \(c): gain \(worstGain[c]), offset \(worstOffset[c])")
        }
        let anchor = try Self.knownTones(folder)["r1c1"]!

        // The composite against the source as the anchor sheet shows it (a₀ s + b₀), over the
        // bands of 2 × overlap pixels along every inner sheet boundary.
        let ds = try Dataset(path: folder + "/source.tif")
        let w = ds.width, h = ds.height
        var src = [UInt8](repeating: 0, count: w * h * 3)
        try src.withUnsafeMutableBufferPointer { try ds.readBytes(x: 0, y: 0, width: w, height: h, bands: [1, 2, 3], into: $0.baseAddress!) }
        let gt = try #require(ds.geoTransform)
        let res = WebMercator.tileExtent(zoom: 7) / 256
        let x0 = Int(((gt.coefficients[0] + WebMercator.halfCircumference) / res).rounded()),
            y0 = Int(((WebMercator.halfCircumference - gt.coefficients[3]) / res).rounded())
        let overlap = 12, cell = 128
        func errors(_ tileset: String) throws -> (mean: Double, worst: Int) {
            let reader = try Tileset.openReader(at: tileset)
            var tiles: [Tile: RGBAImage] = [:]
            var sum = 0, n = 0, worst = 0
            for y in 0..<h {
                for x in 0..<w {
                    let nearColumn = (1..<3).contains { abs(x - overlap - $0 * cell) < overlap }
                    let nearRow = (1..<3).contains { abs(y - overlap - $0 * cell) < overlap }
                    guard nearColumn || nearRow, x >= overlap, y >= overlap, x < w - overlap, y < h - overlap else { continue }
                    let gx = x0 + x, gy = y0 + y
                    let t = Tile(x: gx / 256, y: gy / 256, z: 7)
                    if tiles[t] == nil { tiles[t] = try reader.tile(t).map { try TileDecoder.decode($0).rgba } ?? RGBAImage(width: 256, height: 256) }
                    let p = ((gy % 256) * 256 + gx % 256) * 4, image = tiles[t]!
                    guard image.pixels[p + 3] == 255 else { continue }
                    for c in 0..<3 {
                        let want = min(255, max(0, (anchor.gain[c] * Double(src[(y * w + x) * 3 + c]) + anchor.offset[c]).rounded()))
                        let d = abs(Int(image.pixels[p + c]) - Int(want))
                        sum += d; n += 1; worst = max(worst, d)
                    }
                }
            }
            return (Double(sum) / Double(max(n, 1)), worst)
        }
        let before = try errors(folder + "/out/plain.pmtiles"), after = try errors(folder + "/out/series.pmtiles")
        print(
            "across the sheet boundaries, |composite − anchor's view of the source|: mean \(String(format: "%.2f", before.mean)) → "
                + "\(String(format: "%.2f", after.mean)) levels, worst \(before.worst) → \(after.worst)")
        #expect(before.mean > 4 && after.mean < 0.5 && after.worst <= 3, "\(before) → \(after)")
    }

    /// Sheets fitted jointly from GCPs 4 px off lie a fraction of a pixel off each other, so
    /// near a mask edge one sheet's kernel reaches the paper beyond it: those pixels stay out
    /// of the overlaps' sums and the gains come out as with exact GCPs.
    @Test func aMisfitOfAFewPixelsKeepsThePaperOutOfTheSolvedGains() throws {
        let folder = try TemporaryFolder.make("tone-misfit").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = try MadeSeries.make(in: folder, cols: 3, rows: 3, cell: 128, gcpError: 4, extra: ["--tone-offset", "12"])
        try
            (try String(contentsOfFile: file, encoding: .utf8).replacingOccurrences(
                of: "tile: {max_zoom: 7}}", with: "tile: {max_zoom: 7}, tone: {anchor: r2c2}}")).write(
                toFile: file, atomically: true, encoding: .utf8)
        let r = try runPipeline(file)
        #expect(r.error == nil, "\(String(describing: r.error)) \(r.log)")
        let (gain, offset, spread) = try Self.recovered(folder, anchor: "r2c2")
        print(
            "tone match on a 3×3 made series with GCPs 4 px off: sheet gains up to \(String(format: "%.1f", spread * 100)) % apart; "
                + "corrected, red green blue within " + gain.map { String(format: "%.2f", $0 * 100) }.joined(separator: " ") + " % and "
                + offset.map { String(format: "%.2f", $0) }.joined(separator: " ") + " levels of the anchor's")
        #expect(spread > 0.05)
        // Measured: red, green, blue within 0.56, 1.05, 1.34 % and 0.18, 0.90, 0.37 levels.
        for c in 0..<3 {
            #expect(gain[c] < 0.02 && offset[c] < 1.5, "channel \(c): gain \(gain[c]), offset \(offset[c])")
        }
    }

    /// How far apart the sheets' tones are, per channel (red, green, blue): the largest deviation
    /// from the sheets' mean of `gain` as a fraction and of `offset` in levels (as
    /// `scripts/bench-series` reports them).
    static func spread(gains: [[Double]], offsets: [[Double]]) -> [(gain: Double, offset: Double)] {
        (0..<3).map { c in
            let g = gains.map { $0[c] }, o = offsets.map { $0[c] }
            let gm = g.reduce(0, +) / Double(g.count), om = o.reduce(0, +) / Double(o.count)
            return (g.map { abs($0 / gm - 1) }.max() ?? 0, o.map { abs($0 - om) }.max() ?? 0)
        }
    }

    /// Over a made series that lies mostly over flat sea (issue 43, item 3), `tone: match` brings
    /// the sheets' tones nearer each other in every channel, for 4 sheets and for 64: overlaps
    /// whose spread is too small to fix a gain tie the gains by their means between sheets that
    /// no overlap with contrast joins. Before, such sheets kept gain 1 and the 64 sheets' gains
    /// came out 14.6 % apart, from 10.9 %.
    @Test(arguments: [2, 8]) func toneMatchNarrowsTheSpreadOfSheetTonesOverFlatSea(side: Int) throws {
        let folder = try TemporaryFolder.make("tone-sea-\(side)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = try MadeSeries.make(in: folder, cols: side, rows: side, cell: 128, gcpError: 4)
        try
            (try String(contentsOfFile: file, encoding: .utf8).replacingOccurrences(
                of: "tile: {max_zoom: 7}}", with: "tile: {max_zoom: 7}, tone: match}")).write(toFile: file, atomically: true, encoding: .utf8)
        let r = try runPipeline(file)
        #expect(r.error == nil, "\(String(describing: r.error)) \(r.log)")
        let known = try Self.knownTones(folder), tones = try Self.indexTones(folder + "/out/series.index.geojson")
        let names = known.keys.sorted()
        try #require(tones.count == side * side && names.allSatisfy { tones[$0] != nil }, "\(tones.count) sheets toned")
        let before = Self.spread(gains: names.map { known[$0]!.gain }, offsets: names.map { known[$0]!.offset })
        let after = Self.spread(
            gains: names.map { n in (0..<3).map { tones[n]!.gain[$0] * known[n]!.gain[$0] } },
            offsets: names.map { n in (0..<3).map { tones[n]!.gain[$0] * known[n]!.offset[$0] + tones[n]!.offset[$0] } })
        let line = { (s: [(gain: Double, offset: Double)]) in
            s.map { String(format: "%.2f %% / %.2f", $0.gain * 100, $0.offset) }.joined(separator: ", ")
        }
        print("tone match over sea, \(side * side) sheets: spread (red, green, blue) \(line(before)) → \(line(after))")
        // The index says what each gain came from, and the log counts the guesses.
        let index =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/out/series.index.geojson"))) as! [String: Any]
        let from = (index["features"] as! [[String: Any]]).compactMap { ($0["properties"] as! [String: Any])["tone_gain_from"] as? [String] }
        #expect(from.count == side * side && from.allSatisfy { $0.count == 3 && $0.allSatisfy(["spreads", "means", "none"].contains) }, "\(from)")
        let guessed = from.filter { !$0.contains("none") && $0.contains("means") }.count
        let said = r.log.first { $0.hasPrefix("tone: ") && $0.contains("set through flat overlaps' means") }
        #expect(
            guessed == 0 ? said == nil : said?.hasPrefix("tone: \(guessed) of \(side * side) sheets") == true,
            "\(guessed): \(String(describing: said))")
        for c in 0..<3 {
            #expect(
                after[c].gain < before[c].gain && after[c].offset < before[c].offset,
                "channel \(c), \(side * side) sheets: \(before[c]) → \(after[c])")
        }
    }

    /// The spread of the known tones before and after the run's corrections (gain × known,
    /// gain × known offset + offset), over the sheets of a made series.
    static func spreads(_ folder: String, sheets: Int) throws -> (before: [(gain: Double, offset: Double)], after: [(gain: Double, offset: Double)]) {
        let known = try knownTones(folder), tones = try indexTones(folder + "/out/series.index.geojson")
        let names = known.keys.sorted()
        try #require(tones.count == sheets && names.allSatisfy { tones[$0] != nil }, "\(tones.count) sheets toned")
        let before = spread(gains: names.map { known[$0]!.gain }, offsets: names.map { known[$0]!.offset })
        let after = spread(
            gains: names.map { n in (0..<3).map { tones[n]!.gain[$0] * known[n]!.gain[$0] } },
            offsets: names.map { n in (0..<3).map { tones[n]!.gain[$0] * known[n]!.offset[$0] + tones[n]!.offset[$0] } })
        return (before, after)
    }

    /// The spreads of known tones before and after `tone: match` on a 4 × 4 made series (zoom 6
    /// from 5° E 48° N) with r2c2 placed `east`, `north` pixels off its neighbours and `scale`
    /// times its size about its GCPs' centroid (its GCPs moved, its ties left out), as a wrong
    /// tie places one in the bench's `ties: auto` series (issue 43).
    /// `auto`: the hand ties replaced by `ties: auto`, and r2c2 required to be in no found tie.
    static func spreadsWithASheetMoved(east: Double, north: Double, scale: Double = 1, auto: Bool = false, _ label: String) throws -> (
        before: [(gain: Double, offset: Double)], after: [(gain: Double, offset: Double)]
    ) {
        let folder = try TemporaryFolder.make("tone-apart").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = try MadeSeries.make(in: folder, cols: 4, rows: 4, cell: 128, gcpError: 4, maxZoom: 6, extra: ["--origin=5,48"])
        let kept = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .filter { auto ? !$0.hasPrefix("ties:") && !$0.hasPrefix("  - [") : !$0.hasPrefix("  - [") || !$0.contains("r2c2") }
        try (kept.joined(separator: "\n") + (auto ? "\nties: auto\n" : ""))
            .replacingOccurrences(of: "tile: {max_zoom: 6}}", with: "tile: {max_zoom: 6}, tone: match}")
            .write(toFile: file, atomically: true, encoding: .utf8)
        let points = folder + "/gcps/r2c2.points", pixel = WebMercator.tileExtent(zoom: 6) / 256
        let lines = try String(contentsOfFile: points, encoding: .utf8).split(separator: "\n")
        let ground = lines.dropFirst(2).compactMap { line -> (Double, Double)? in
            let fields = line.split(separator: ",")
            guard fields.count > 2, let x = Double(fields[0]), let y = Double(fields[1]) else { return nil }
            return (x, y)
        }
        let cx = ground.map(\.0).reduce(0, +) / Double(ground.count), cy = ground.map(\.1).reduce(0, +) / Double(ground.count)
        let moved = lines.enumerated().map { i, line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard i >= 2, fields.count > 2, let x = Double(fields[0]), let y = Double(fields[1]) else { return String(line) }
            let (u, v) = (cx + scale * (x - cx) + east * pixel, cy + scale * (y - cy) + north * pixel)
            return String(format: "%.3f,%.3f,", u, v) + fields[2...].joined(separator: ",")
        }
        try (moved.joined(separator: "\n") + "\n").write(toFile: points, atomically: true, encoding: .utf8)
        let r = try runPipeline(file)
        #expect(r.error == nil, "\(String(describing: r.error)) \(r.log)")
        if auto {
            // The log says how many overlaps no tie joins: at least r2c2's eight.
            let line = try #require(r.log.first { $0.hasPrefix("tone: match, measured on") }, "\(r.log)")
            let untied = line.split(separator: ", ").first { $0.contains("of them") }.flatMap { Int($0.split(separator: " ")[0]) }
            #expect((untied ?? 0) >= 8 && line.hasSuffix("joined by no tie (their contrast left out, their means kept where flat)"), "\(line)")
            let pairs = try #require(try Pipeline.load(path: file).foundTies).pairs
            try #require(pairs.contains(where: \.matched) && !pairs.contains { $0.matched && [$0.mapA, $0.mapB].contains("r2c2") }, "\(pairs)")
        }
        let (before, after) = try Self.spreads(folder, sheets: 16)
        print(
            "tone match, 4×4 sheets, one placed \(label): spread (red, green, blue) "
                + zip(before, after).map { String(format: "%.2f %% / %.2f → %.2f %% / %.2f", $0.gain * 100, $0.offset, $1.gain * 100, $1.offset) }
                .joined(separator: ", "))
        return (before, after)
    }

    /// A sheet 20 px off shows other ground than its neighbours over their overlaps: taken as
    /// they were, the 16 sheets' gains came out 16–20 % apart from 9–12 %; left out (levels that
    /// correlate under ``ToneMatch/minimumCorrelation``), 2.8–9.3 %; lined up
    /// (``ToneMatch/Registration``), 1.0–5.0 % and offsets within 0.8 levels.
    @Test func aSheetPlacedOffItsNeighboursDoesNotWidenTheSpreadOfTones() throws {
        let (before, after) = try Self.spreadsWithASheetMoved(east: 20, north: 0, "20 px east")
        for c in 0..<3 {
            #expect(after[c].gain < before[c].gain && after[c].offset < before[c].offset, "channel \(c): \(before[c]) → \(after[c])")
        }
    }

    /// Overlaps compared where their content lines up (``ToneMatch/Registration``) keep a
    /// sheet 13 px off from pulling the gains apart: measured (red, green, blue) 3.5, 3.1, 2.6 %
    /// and 2.1, 1.9, 0.6 levels, from the sheets' own 9.2, 9.5, 12.2 % and 4.0, 4.0, 2.9 levels.
    /// Compared where the sheets were put, its overlaps correlate well enough to be taken and the
    /// green gains came out 20.9 % apart, the blue offsets 8.5 levels.
    @Test func aSheetPlacedOffItsNeighboursIsMatchedWhereItsContentLinesUp() throws {
        let (before, after) = try Self.spreadsWithASheetMoved(east: -6, north: 12, "12 px north, 6 px west")
        for c in 0..<3 {
            #expect(after[c].gain < 0.05 && after[c].offset < before[c].offset, "channel \(c): \(before[c]) → \(after[c])")
        }
    }

    /// A sheet placed at the wrong size (its fit 12 % too large about its GCPs' centroid, about
    /// 10 px off at its edges), as a sheet in no tie of the bench's 1,024-sheet `ties: auto`
    /// series is placed on its GCPs alone, shows its neighbours' ground stretched over each
    /// overlap: a shift (``ToneMatch/Registration``) does not line it up, yet over smooth ground
    /// its levels still correlate well above ``ToneMatch/minimumCorrelation`` (0.93–0.98 over
    /// two such sheets' overlaps on that bench, spread ratios 17–58 % off the gains'), and its
    /// spreads and means differ by the stretch, not by its tone. Measured (red, green, blue):
    /// 9.19, 9.47, 12.23 % / 4.03, 4.02, 2.93 levels → 4.88, 5.28, 7.70 % / 4.83, 2.68, 4.20: the
    /// red and blue offsets come out wider. A known issue (issue 43, item 3): no rule on the
    /// overlap sums alone (a higher correlation, a residual in levels, the means' ratio against
    /// the spreads', a per-sheet consistency check) brought that bench's spread under the
    /// sheets' own, measured in numpy on its sums. Seen failing without `withKnownIssue`. Under
    /// `ties: auto` the ties tell such a sheet apart (the next test).
    @Test func aSheetPlacedAtTheWrongSizeDoesNotWidenTheSpreadOfTones() throws {
        let (before, after) = try Self.spreadsWithASheetMoved(east: 0, north: 0, scale: 1.12, "12 % too large")
        withKnownIssue("a stretched view's spreads and means steer its tone (issue 43, item 3)") {
            for c in 0..<3 {
                #expect(after[c].gain < before[c].gain && after[c].offset < before[c].offset, "channel \(c): \(before[c]) → \(after[c])")
            }
        }
    }

    /// The same sheet 30 % too large under `ties: auto`: matching ties none of its overlaps, and
    /// their levels, still correlated over smooth ground, would put its gain and offset where its
    /// stretched view says (taken as lined up: 11.89, 17.51, 16.83 % / 8.57, 8.98, 5.92 levels,
    /// wider than the sheets' own). Overlaps with contrast that no tie joins fix nothing
    /// (``ToneMatch/solve(sheets:overlaps:anchor:linedUp:)``): the sheet keeps its own tint and
    /// the rest are matched. Measured 1.23, 9.31, 2.83 % / 0.16, 2.62, 0.89 levels.
    @Test func underTiesAutoTheOverlapsNoTieLinesUpFixNoToneAndTheSpreadNarrows() throws {
        let (before, after) = try Self.spreadsWithASheetMoved(east: 0, north: 0, scale: 1.3, auto: true, "30 % too large, ties: auto")
        for c in 0..<3 {
            #expect(after[c].gain < before[c].gain && after[c].offset < before[c].offset, "channel \(c): \(before[c]) → \(after[c])")
        }
    }

    /// One overlap's sums, as ``ToneMatch/Overlap/add(_:_:count:)`` would add them up over
    /// 1,000 pixels whose levels are `meanA ± spreadA` and `meanB ± spreadB`, perfectly correlated.
    static func overlap(_ a: Int, _ b: Int, meanA: Int, spreadA: Int, meanB: Int, spreadB: Int) -> ToneMatch.Overlap {
        var o = ToneMatch.Overlap(a: a, b: b)
        let n = 1000
        o.pixels = n
        o.sumA = [Int](repeating: n * meanA, count: 3); o.sumB = [Int](repeating: n * meanB, count: 3)
        o.squaresA = [Int](repeating: n * (spreadA * spreadA + meanA * meanA), count: 3)
        o.squaresB = [Int](repeating: n * (spreadB * spreadB + meanB * meanB), count: 3)
        o.products = [Int](repeating: n * (spreadA * spreadB + meanA * meanB), count: 3)
        return o
    }

    /// Four sheets in a row whose last overlap says sheet 3 has three times sheet 2's contrast (a
    /// sheet misplaced beyond ``ToneMatch/maximumShift``, say): its gain would come out 0.43,
    /// beyond ``ToneMatch/maximumGain``, so it is left as scanned and named, and the other three
    /// are matched among themselves: gains 1.1 : 1 : 1 from their spreads, their product 1.
    @Test func aSheetWhoseGainRunsAwayIsLeftAsScannedAndNamed() {
        let overlaps = [
            Self.overlap(0, 1, meanA: 100, spreadA: 10, meanB: 100, spreadB: 11),
            Self.overlap(1, 2, meanA: 100, spreadA: 10, meanB: 100, spreadB: 10),
            Self.overlap(2, 3, meanA: 100, spreadA: 10, meanB: 100, spreadB: 30),
        ]
        let solved = ToneMatch.solve(sheets: 4, overlaps: overlaps, anchor: nil)
        #expect(solved.unmatched == [3])
        #expect(solved.gainFrom[3] == [.none, .none, .none] && solved.gainFrom[2] == [.spreads, .spreads, .spreads], "\(solved.gainFrom)")
        #expect(solved.corrections[3] == ToneCorrection(gain: [1, 1, 1], offset: [0, 0, 0]), "\(solved.corrections[3])")
        let g = solved.corrections.map { $0.gain[1] }
        let base = 1 / pow(1.1, 1.0 / 3)  // g₀ = 1.1 g₁, g₁ = g₂, g₀ g₁ g₂ = 1
        #expect(abs(g[1] - base) < 1e-9 && abs(g[2] - base) < 1e-9 && abs(g[0] - 1.1 * base) < 1e-9, "\(g)")
    }

    /// Each sheet's gain says what fixed it, channel by channel: sheets 0 and 1 share contrast;
    /// 1 and 2 share contrast in green and blue and are flat in red; 2 and 3 meet over flat
    /// ground; 3 and 4 share contrast, an island set against the rest by that flat overlap's
    /// means; sheet 5 overlaps nothing.
    @Test func eachGainSaysWhetherSpreadsMeansOrNothingFixedIt() {
        var redFlat = Self.overlap(1, 2, meanA: 90, spreadA: 8, meanB: 95, spreadB: 9)
        (redFlat.squaresA[0], redFlat.squaresB[0]) = (1000 * (1 + 90 * 90), 1000 * (1 + 95 * 95))
        redFlat.products[0] = 1000 * (1 + 90 * 95)
        let overlaps = [
            Self.overlap(0, 1, meanA: 100, spreadA: 10, meanB: 100, spreadB: 11),
            redFlat,
            Self.overlap(2, 3, meanA: 100, spreadA: 1, meanB: 105, spreadB: 1),
            Self.overlap(3, 4, meanA: 100, spreadA: 12, meanB: 100, spreadB: 10),
        ]
        let from = ToneMatch.solve(sheets: 6, overlaps: overlaps, anchor: nil).gainFrom
        let (s, m, n) = (ToneMatch.GainBasis.spreads, ToneMatch.GainBasis.means, ToneMatch.GainBasis.none)
        #expect(from == [[s, s, s], [s, s, s], [m, s, s], [m, m, m], [m, m, m], [n, n, n]], "\(from)")
        // Anchored on the island, the island's gains are the spreads' and the rest the guesses.
        let anchored = ToneMatch.solve(sheets: 6, overlaps: overlaps, anchor: 4).gainFrom
        #expect(anchored == [[m, m, m], [m, m, m], [m, m, m], [s, s, s], [s, s, s], [n, n, n]], "\(anchored)")
    }

    @Test func aShardedToneMatchedRunEqualsTheSingleRunByteForByte() throws {
        let folder = try TemporaryFolder.make("tone-shards").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let series = try TestSeries(in: folder)
        let file = try SeamTests.pipeline(series, "toned", composite: "  seam: {feather: 12}\n  tone: match\n")
        #expect(try runPipeline(file).error == nil)
        let output = folder + "/out/toned.pmtiles"
        let single = try TilesetDigest.of(output)
        let index = try Data(contentsOf: URL(fileURLWithPath: folder + "/out/toned.index.geojson"))
        let pipeline = try Pipeline.load(path: file)
        let stored = pipeline.workFolder + "/.composite/tone.json"
        #expect(FileManager.default.fileExists(atPath: stored))
        for n in [2, 3] {
            try FileManager.default.removeItem(atPath: output)
            // Each shard solves the tone itself (none stored): the same corrections in every one.
            try? FileManager.default.removeItem(atPath: stored)
            for i in (0..<n).reversed() {
                let runner = PipelineRunner(
                    pipeline: try Pipeline.load(path: file),
                    options: RunOptions(jobs: 2, shard: Shard(index: i, count: n)), log: { _ in })
                try runner.run()
            }
            try PipelineRunner(pipeline: try Pipeline.load(path: file), options: RunOptions(jobs: 2), log: { _ in }).reduce(shards: nil)
            let sharded = try TilesetDigest.of(output)
            #expect(sharded.digest == single.digest && sharded.tiles == single.tiles, "\(n) shards")
            #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/out/toned.index.geojson")) == index, "\(n) shards")
        }
    }

    @Test func toneOffIsTheCompositeOfBeforeAndMatchIsAnother() throws {
        let folder = try TemporaryFolder.make("tone-off").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let series = try TestSeries(in: folder)
        let file = try SeamTests.pipeline(series, "off")
        #expect(try runPipeline(file).error == nil)
        let before = try TilesetDigest.of(folder + "/out/off.pmtiles")
        // `tone: off` is the default: the same plan, so nothing reruns, and no tone in the index.
        try (try String(contentsOfFile: file, encoding: .utf8) + "  tone: off\n").write(toFile: file, atomically: true, encoding: .utf8)
        let again = try runPipeline(file)
        #expect(again.log.contains { $0.hasPrefix("composite:  skipped (unchanged)") }, "\(again.log)")
        #expect(!again.log.contains { $0.hasPrefix("tone:") })
        #expect(try Self.indexTones(folder + "/out/off.index.geojson").isEmpty)
        try expectRebuilt(file, replacing: "tone: off", with: "tone: match", output: folder + "/out/off.pmtiles", before: before.digest)
    }

    @Test func badTonesAreOneLineNamingWhatWouldBeRight() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        let load = f.compositeLoadError
        let word = try load("  tone: bright\n")
        #expect(word.contains("composite.tone") && word.contains("'bright' is not a tone; expected off, match or {anchor: MAP}"), "\(word)")
        #expect(!word.contains("\n"))
        let anchor = try load("  tone: {anchor: b}\n")
        #expect(anchor.contains("composite.tone.anchor") && anchor.contains("anchor 'b' is not a map of this pipeline"), "\(anchor)")
        // A name near none of the maps: the line lists them, as the ties' errors do.
        let far = try load("  tone: {anchor: nowhere}\n")
        #expect(far.contains("anchor 'nowhere' is not a map of this pipeline (its maps: "), "\(far)")
        let key = try load("  tone: {sheet: a}\n")
        #expect(key.contains("'sheet' is not a key of tone"), "\(key)")
    }
}
