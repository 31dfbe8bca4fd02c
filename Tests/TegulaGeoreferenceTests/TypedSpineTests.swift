import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference
import TegulaSupport
import Testing

/// The typed values the georeference stage shares with the CLI and pipeline files: one parser
/// each, round trips through their stored forms.
struct TypedSpineTests {
    @Test func transformNamesHaveOneParserAndOneSpelling() throws {
        #expect(try TransformKind.parse("affine") == .polynomial1)
        #expect(try TransformKind.parse("thinPlateSpline") == .tps)
        #expect(try TransformKind.parse("Helmert") == .helmert)
        let error = #expect(throws: NamedValueError.self) { try TransformKind.parse("spline") }
        #expect(error?.description.hasPrefix("unknown transform 'spline': expected one of helmert") == true)
        let json = try JSONEncoder().encode([TransformKind.tps, .polynomial2])
        #expect(String(decoding: json, as: UTF8.self) == #"["tps","polynomial2"]"#)
        #expect(try JSONDecoder().decode([TransformKind].self, from: Data(#"["affine"]"#.utf8)) == [.polynomial1])
    }

    @Test func aCRSIsParsedOnceAndComparedByWhatItIs() throws {
        let a = try CRS("EPSG:4326"), b = try CRS(" EPSG:4326 ")
        #expect(a == b && a.definition == "EPSG:4326" && a.isGeographic && a.label == "EPSG:4326")
        #expect(!CRS.webMercator.isGeographic && CRS.webMercator.label == "EPSG:3857")
        // A PROJ string for the same sphere-based Mercator is the same CRS to PROJ.
        let proj = try CRS("+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +wktext +no_defs")
        #expect(proj.isSame(as: .webMercator))
        #expect(!a.isSame(as: .webMercator))
        #expect(throws: GDALError.self) { try CRS("EPSG:999999") }
        let e = #expect(throws: GeoreferenceError.self) { try CRS.parse("nonsense", at: "f.points:1") }
        #expect(e?.reason == .unknownCRS && e?.description.hasPrefix("f.points:1: unknown CRS 'nonsense'") == true)
        // Safe across threads: many threads convert with their own handles from one value.
        let shared = try CRS("EPSG:28992")
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let r = shared.makeReference()
            #expect(r.isProjected)
        }
    }

    @Test func theFitCRSIsGcpOrACRS() throws {
        #expect(try FitCRS(parsing: "GCP") == .gcp)
        #expect(try FitCRS(parsing: "EPSG:3035").description == "EPSG:3035")
        #expect(FitCRS.gcp.resolved(gcpCRS: .wgs84) == .wgs84)
        // The fit CRS: given, else the file's hint, else EPSG:3857.
        #expect(GCPSet(gcps: [], crs: .wgs84).fitCRS(given: nil) == .webMercator)
        #expect(GCPSet(gcps: [], crs: .wgs84, fitCRSHint: .gcp).fitCRS(given: nil) == .wgs84)
        #expect(GCPSet(gcps: [], crs: .wgs84, fitCRSHint: .gcp).fitCRS(given: .webMercator) == .webMercator)
        #expect(throws: GeoreferenceError.self) { try FitCRS(parsing: "EPSG:999999") }
    }

    @Test func aStoredFitRoundTripsThroughItsMetadata() throws {
        let stored = StoredFit(
            transform: .projective, fitCRS: .gcp,
            mask: [PixelPoint(x: 1, y: 2), PixelPoint(x: 30, y: 2), PixelPoint(x: 30, y: 40)])
        let back = try StoredFit(metadata: stored.metadataItems, source: "x.vrt")
        #expect(back == stored)
        #expect(try StoredFit(metadata: [:], source: "x.vrt") == StoredFit(transform: nil, fitCRS: nil, mask: nil))
        let bad = #expect(throws: GeoreferenceError.self) {
            try StoredFit(metadata: [StoredFit.transformKey: "wobbly"], source: "x.vrt")
        }
        #expect(bad?.location == "x.vrt: TEGULA_TRANSFORM")
    }

    @Test func aSummaryRoundTripsThroughItsMetadata() throws {
        let summary = GeoreferenceSummary(
            pins: [GCPPin(name: "Cape Horn", longitude: -67.27, latitude: -55.98, residualMetres: 4985.83)],
            footprint: [[0, 0], [10, 0], [10, 10], [0, 0]])
        let back = try #require(try GeoreferenceSummary(metadata: summary.metadataItems, source: "w.tif"))
        #expect(back == summary)
        #expect(try GeoreferenceSummary(metadata: ["OTHER": "1"], source: "w.tif") == nil)
        #expect(throws: GeoreferenceError.self) {
            try GeoreferenceSummary(metadata: [GeoreferenceSummary.pinsKey: "[{"], source: "w.tif")
        }
    }
}
