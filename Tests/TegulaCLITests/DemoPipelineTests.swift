import Foundation
import TegulaTestSupport
import Testing

/// The demo pipeline end to end, at zooms 0–1: both maps, the composite, then nothing to redo.
@Suite(.timeLimit(.minutes(20)))
struct DemoPipelineTests {
    @Test func demoPipelineRunsAndThenSkips() throws {
        let dir = try TemporaryFolder.make("demo")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pipelines = TegulaBinary.packageRoot.appendingPathComponent("pipelines")
        let demo = try String(contentsOf: pipelines.appendingPathComponent("demo.yml"), encoding: .utf8)
            .replacingOccurrences(of: "max_zoom: 3", with: "max_zoom: 1")
            .replacingOccurrences(of: "gcps: schagen1689.points", with: "gcps: \(pipelines.path)/schagen1689.points")
        #expect(demo.contains("max_zoom: 1") && !demo.contains("max_zoom: 3"))
        let file = dir.appendingPathComponent("demo.yml").path
        try demo.write(toFile: file, atomically: true, encoding: .utf8)

        let r = try TegulaBinary.run(["run", file, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        for name in ["bluemarble", "schagen1689", "world"] {
            let info = try ProgramRun.run(
                "python3",
                [
                    "-c",
                    """
                    import sys; from pmtiles.reader import Reader, MmapSource
                    r = Reader(MmapSource(open(sys.argv[1], 'rb'))); h = r.header()
                    print(h['min_zoom'], h['max_zoom'], r.get(1, 1, 0) is not None)
                    """, dir.appendingPathComponent("out/demo/\(name).pmtiles").path,
                ])
            #expect(info.stdout == "0 1 True\n", "\(name): \(info.stdout) \(info.stderr)")
        }
        // The composite, tile by tile, against Schagen's tile drawn over Blue Marble's by
        // Porter–Duff "over" in numpy (straight alpha), every tile decoded by Pillow: the same
        // tiles; opaque (Blue Marble covers the world); Blue Marble's pixels exactly where
        // Schagen's tile is empty; and a PSNR over RGBA. Not exact: the composite warps each scan
        // itself (TegulaComposite's block warper, Schagen's JPEG read in memory), not from the
        // maps' warped.tif, and its zoom 0 is reduced after the blend, not before.
        let composite = try ProgramRun.output(
            PackageRoot.path(".venv/bin/python3"),
            [
                "-c",
                """
                import sys, io, json, numpy
                from PIL import Image
                from pmtiles.reader import MmapSource, all_tiles
                def tiles(name):
                    with open(f"{sys.argv[1]}/{name}.pmtiles", 'rb') as f:
                        return {(z, x, y): numpy.asarray(Image.open(io.BytesIO(b)).convert('RGBA')).astype(float)
                                for (z, x, y), b in all_tiles(MmapSource(f))}
                world, under, over = tiles('world'), tiles('bluemarble'), tiles('schagen1689')
                se = n = covered = uncovered = differing = translucent = 0
                for t, got in world.items():
                    b = under.get(t, numpy.zeros_like(got)) / 255
                    a = over.get(t, numpy.zeros_like(got)) / 255
                    ta, ba = a[..., 3:], b[..., 3:]
                    oa = ta + ba * (1 - ta)
                    rgb = numpy.where(oa > 0, (a[..., :3] * ta + b[..., :3] * ba * (1 - ta)) / numpy.maximum(oa, 1e-12), 0)
                    want = numpy.concatenate([rgb, oa], axis=-1) * 255
                    se += ((got - want) ** 2).sum()
                    n += got.size
                    bare = a[..., 3] == 0
                    covered += int((~bare).sum())
                    uncovered += int(bare.sum())
                    differing += int((got[bare] != b[bare] * 255).any(axis=-1).sum())
                    translucent += int((got[..., 3] != 255).sum())
                print(json.dumps({"tiles": sorted(world), "expected": sorted(set(under) | set(over)), "covered": covered, "uncovered": uncovered,
                                  "differing": differing, "translucent": translucent,
                                  "psnr": 0 if n == 0 else 99 if se == 0 else 10 * numpy.log10(255 ** 2 / (se / n))}))
                """, dir.appendingPathComponent("out/demo").path,
            ])
        struct Composite: Decodable { var tiles, expected: [[Int]], covered, uncovered, differing, translucent: Int, psnr: Double }
        let c = try JSONDecoder().decode(Composite.self, from: Data(composite.utf8))
        print(
            "demo composite vs Schagen over Blue Marble: \(c.tiles.count) tiles, \(c.covered) px of Schagen, \(c.uncovered) px of Blue Marble alone "
                + "(\(c.differing) differing), \(c.translucent) px not opaque, PSNR \(c.psnr) dB")
        #expect(c.tiles.count == 5 && c.tiles == c.expected, "\(c.tiles) vs \(c.expected)")
        #expect(c.covered > 100_000 && c.uncovered > 100_000 && c.differing == 0 && c.translucent == 0, "\(composite)")
        #expect(c.psnr >= 52.7, "\(composite)")  // measured 53.68 dB, the same in 3 runs
        #expect(r.stderr.contains("schagen1689: georeference GCPs from schagen1689.points, transform tps"), "\(r.stderr)")
        #expect(r.stderr.contains("composite:  2 maps"), "\(r.stderr)")
        let work = dir.appendingPathComponent(".tegula/demo/schagen1689")
        for f in ["georef.vrt", "report.json", "residuals.svg", "warped.tif", "manifest.json"] {
            #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent(f).path), "\(f)")
        }

        let again = try TegulaBinary.run(["run", file, "--quiet"])
        #expect(again.status == 0, "\(again.stderr)")
        let ran = again.stderr.split(separator: "\n").filter { !$0.contains("skipped") && !$0.contains("warning") }
        #expect(ran.isEmpty, "\(again.stderr)")
    }
}
