import Foundation
import Testing
import TegulaGeometry
import TegulaGeoreference
@testable import TegulaMatch
import TegulaTestSupport
import TegulaWarp

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
        let run = try ProgramRun.run(try BuiltTegula.path(), ["match", rescan.path, "--reference", Schagen1689.scan,
                                                              "--reference-gcps", Schagen1689.points, "-o", out])
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
