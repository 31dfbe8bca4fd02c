import Foundation
import TegulaGeometry
import TegulaGeoreference
import TegulaTestSupport
import TegulaWarp
import Testing

@testable import TegulaMatch

/// `tegula match` run as a user runs it: the points it writes, what it prints, and its refusals.
@Suite struct MatchCommandTests {
    @Test func matchedPointsAreWrittenWithScoresAndTheirGroundAgreesWithTheTruth() throws {
        let folder = try TemporaryFolder.make("match-cli")
        let reference = try MatchFixtures.reference(in: folder)
        let rescan = try MatchFixtures.rescan(.init(name: "rescan", degrees: -20, scale: 1.3, jpegQuality: 40), in: folder)
        let out = folder.appendingPathComponent("proposed.points").path
        let run = try ProgramRun.run(try BuiltTegula.path(), ["match", rescan.path, "--reference", reference, "-o", out])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("the reference covers"), "\(run.stderr)")
        #expect(run.stderr.contains("leave-one-out RMSE"), "the fit report of tegula georef: \(run.stderr)")
        let set = try GCPReader.read(path: out)
        #expect((12...40).contains(set.gcps.count), "\(set.gcps.count) points")
        for g in set.gcps {
            let score = try #require(g.id.split(separator: "=").last.flatMap { Double($0) }, "\(g.id) carries no score")
            #expect(score >= 0.6 && score <= 1, "\(g.id)")
            // Ground written = the reference pixel the truth gives the scan pixel, within 0.3 reference px.
            let truth = rescan.truth.apply(g.pixel), written = MatchFixtures.referencePixel(g.ground)
            #expect(hypot(truth.x - written.x, truth.y - written.y) < 0.3, "\(g.id): \(g.pixel) → \(written), truth \(truth)")
        }
    }

    @Test func theReferenceCanBeAnotherScanWithItsGCPFile() throws {
        let folder = try TemporaryFolder.make("match-cli-gcps")
        // A re-scan of the plain JPEG; the reference is the JPEG with the project's GCPs.
        _ = try MatchFixtures.reference(in: folder)
        let rescan = try MatchFixtures.rescan(.init(name: "rescan", degrees: 12, scale: 0.8, crop: 0.6), in: folder)
        let out = folder.appendingPathComponent("proposed.csv").path
        let run = try ProgramRun.run(
            try BuiltTegula.path(),
            [
                "match", rescan.path, "--reference", Schagen1689.scan,
                "--reference-gcps", Schagen1689.points, "-o", out,
            ])
        #expect(run.status == 0, "\(run.stderr)")
        let written = try GCPReader.read(path: out)
        // Where the reference's own fit puts each scan point's true twin.
        let fit = try #require(try WarpInput(path: Schagen1689.scan, gcpFile: Schagen1689.points).georeference())
        let twins = written.gcps.map { rescan.truth.apply($0.pixel) }
        let expected = try fit.pixelsToGround(twins, crs: written.crs)
        let pixelEast = try fit.pixelsToGround(twins.map { PixelPoint(x: $0.x + 1, y: $0.y) }, crs: written.crs)
        for (i, g) in written.gcps.enumerated() {
            let metresPerPixel = hypot(pixelEast[i].x - expected[i].x, pixelEast[i].y - expected[i].y)
            let off = hypot(g.ground.x - expected[i].x, g.ground.y - expected[i].y) / metresPerPixel
            #expect(off < 0.3, "\(g.id): \(off) reference px from the reference fit's ground")
        }
    }

    @Test func aScanMatchedAgainstAGeoTIFFGDALWarpedFromItAgreesWithTheFitThatMadeIt() throws {
        let folder = try TemporaryFolder.make("match-cli-real")
        let tegula = try BuiltTegula.path()
        let vrt = folder.appendingPathComponent("fitted.vrt").path, tif = folder.appendingPathComponent("warped.tif").path
        let out = folder.appendingPathComponent("proposed.points").path
        try ProgramRun.output(tegula, ["georef", Schagen1689.scan, "--gcps", Schagen1689.points, "-o", vrt])
        // GDAL's own first-order fit of the project's GCPs, in their CRS (WGS 84), as another tool would.
        try ProgramRun.output("gdalwarp", ["-q", "-order", "1", "-r", "cubic", vrt, tif])
        let run = try ProgramRun.run(tegula, ["match", Schagen1689.scan, "--reference", tif, "-o", out])
        #expect(run.status == 0, "\(run.stderr)")
        let written = try GCPReader.read(path: out)
        let info = try JSONSerialization.jsonObject(with: Data(try ProgramRun.output("gdalinfo", ["-json", tif]).utf8)) as? [String: Any]
        let pixelSize = try #require((info?["geoTransform"] as? [Double])?[1])
        // gdalwarp placed each GeoTIFF pixel by the fit's ground → scan polynomial (GDAL fits each
        // direction on its own): where it takes each written ground position, and one GeoTIFF
        // pixel east and south of it, so the scan-pixel miss is measured in GeoTIFF pixels.
        let lines =
            written.gcps.flatMap { g in
                [(0.0, 0.0), (pixelSize, 0.0), (0.0, -pixelSize)].map { "\(g.ground.x + $0.0) \(g.ground.y + $0.1)" }
            }.joined(separator: "\n") + "\n"
        let scanPixels = try ProgramRun.output("gdaltransform", ["-i", "-order", "1", vrt], stdin: lines).split(separator: "\n")
            .map { $0.split(separator: " ").compactMap { Double($0) } }
        try #require(scanPixels.count == 3 * written.gcps.count && scanPixels.allSatisfy { $0.count >= 2 })
        for (i, g) in written.gcps.enumerated() {
            let p = scanPixels[3 * i], east = scanPixels[3 * i + 1], south = scanPixels[3 * i + 2]
            let (ax, ay) = (east[0] - p[0], east[1] - p[1]), (bx, by) = (south[0] - p[0], south[1] - p[1])
            let (ex, ey) = (g.pixel.x - p[0], g.pixel.y - p[1])
            let det = ax * by - ay * bx
            let off = hypot((ex * by - ey * bx) / det, (ax * ey - ay * ex) / det)
            #expect(off < 1, "\(g.id): \(off) GeoTIFF pixels from GDAL's fit")
        }
    }

    @Test func anAllmapsAnnotationNamesTheScanAndCarriesEachScoreAsANote() throws {
        let folder = try TemporaryFolder.make("match-cli-json")
        let reference = try MatchFixtures.reference(in: folder)
        let rescan = try MatchFixtures.rescan(.init(name: "rescan", degrees: 8, scale: 0.9), in: folder)
        let out = folder.appendingPathComponent("proposed.json").path
        let run = try ProgramRun.run(try BuiltTegula.path(), ["match", rescan.path, "--reference", reference, "-o", out])
        #expect(run.status == 0, "\(run.stderr)")
        #expect((12...40).contains(try GCPReader.read(path: out).gcps.count), "read back as a GCP file")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any])
        let source = (json["target"] as? [String: Any])?["source"] as? [String: Any]
        #expect((source?["id"] as? String)?.hasSuffix("/rescan.jpg") == true, "\(String(describing: source))")
        #expect(source?["width"] as? Int == rescan.width && source?["height"] as? Int == rescan.height)
        let features = try #require((json["body"] as? [String: Any])?["features"] as? [[String: Any]])
        for f in features {
            let note = (f["properties"] as? [String: Any])?["note"] as? String ?? ""
            let score = Double(note.replacingOccurrences(of: "match score ", with: "")) ?? -1
            #expect(score >= 0.6 && score <= 1, "\(f["id"] ?? "?"): note '\(note)'")
        }
    }

    @Test func aPairThatDoesNotMatchExitsThreeWithOneLineAndWritesNothing() throws {
        let folder = try TemporaryFolder.make("match-cli-none")
        let reference = try MatchFixtures.reference(in: folder)
        let out = folder.appendingPathComponent("proposed.points").path
        let run = try ProgramRun.run(try BuiltTegula.path(), ["match", BlueMarble.path, "--reference", reference, "-o", out])
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains("no match"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func aReferenceWithoutGeoreferenceIsRefusedInOneLine() throws {
        let folder = try TemporaryFolder.make("match-cli-plain")
        let out = folder.appendingPathComponent("proposed.points").path
        let run = try ProgramRun.run(try BuiltTegula.path(), ["match", Schagen1689.scan, "--reference", Schagen1689.scan, "-o", out])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("--reference-gcps"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
