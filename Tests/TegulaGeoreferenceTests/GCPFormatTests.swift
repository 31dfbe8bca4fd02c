import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference
import TegulaTestSupport
import Testing

/// Every GCP format lands in GDAL's pixel convention with longitude first: QGIS's negated rows,
/// VRT axis mappings, CSV column names, Allmaps resource coordinates (issue item 1).
struct GCPFormatTests {
    @Test func qgisPointsNegateTheRowAndHonourEnable() throws {
        let dir = try TemporaryFolder.make("georef")
        defer { try? FileManager.default.removeItem(at: dir) }
        var text = "#CRS: EPSG:4326\nmapX,mapY,sourceX,sourceY,enable,dX,dY,residual\n"
        for (i, r) in GeoreferenceFixtures.rows.enumerated() { text += "\(r.2),\(r.3),\(r.0),\(-r.1),\(i == 2 ? 0 : 1),0,0,0\n" }
        let set = try GCPReader.read(path: GeoreferenceFixtures.write(text, "a.points", in: dir))
        GeoreferenceFixtures.checkRows(set, enabled: [true, true, false, true])
        #expect(set.crs.definition == "EPSG:4326")
        #expect(set.enabled.count == 3)
    }

    @Test func olderPointsHeaderWithTabs() throws {
        let dir = try TemporaryFolder.make("georef")
        defer { try? FileManager.default.removeItem(at: dir) }
        var text = "mapX\tmapY\tpixelX\tpixelY\n"
        for r in GeoreferenceFixtures.rows { text += "\(r.2)\t\(r.3)\t\(r.0)\t\(-r.1)\n" }
        let set = try GCPReader.read(path: GeoreferenceFixtures.write(text, "old.points", in: dir))
        GeoreferenceFixtures.checkRows(set, enabled: [true, true, true, true])
    }

    @Test func csvLonLatWithNames() throws {
        let dir = try TemporaryFolder.make("georef")
        defer { try? FileManager.default.removeItem(at: dir) }
        var text = "x,y,lon,lat,name\n"
        for (i, r) in GeoreferenceFixtures.rows.enumerated() { text += "\(r.0),\(r.1),\(r.2),\(r.3),corner \(i)\n" }
        let set = try GCPReader.read(path: GeoreferenceFixtures.write(text, "mw.csv", in: dir))
        GeoreferenceFixtures.checkRows(set)
        #expect(set.gcps.map(\.id) == ["corner 0", "corner 1", "corner 2", "corner 3"])
    }

    /// RFC 4180 quoting: a quoted GCP name may hold a comma (and a doubled quote), in CSV and in
    /// a `.points` file's name column.
    @Test func quotedNamesHoldCommas() throws {
        let dir = try TemporaryFolder.make("georef")
        defer { try? FileManager.default.removeItem(at: dir) }
        var csv = "x,y,lon,lat,name\n"
        for (i, r) in GeoreferenceFixtures.rows.enumerated() { csv += "\(r.0),\(r.1),\(r.2),\(r.3),\"Kerk, \"\"toren\"\" \(i)\"\n" }
        let set = try GCPReader.read(path: GeoreferenceFixtures.write(csv, "named.csv", in: dir))
        GeoreferenceFixtures.checkRows(set)
        #expect(set.gcps.map(\.id) == (0..<4).map { "Kerk, \"toren\" \($0)" })
        var points = "#CRS: EPSG:4326\nmapX,mapY,sourceX,sourceY,enable,dX,dY,residual,name\n"
        for (i, r) in GeoreferenceFixtures.rows.enumerated() { points += "\(r.2),\(r.3),\(r.0),\(-r.1),1,0,0,0,\"Cape \(i), south\"\n" }
        let named = try GCPReader.read(path: GeoreferenceFixtures.write(points, "named.points", in: dir))
        GeoreferenceFixtures.checkRows(named)
        #expect(named.gcps.map(\.id) == (0..<4).map { "Cape \($0), south" })
        // An unclosed quote is refused at its line and column.
        let bad = try GeoreferenceFixtures.write("x,y,lon,lat,name\n1,2,3,4,\"open\n", "bad.csv", in: dir)
        let e = #expect(throws: GeoreferenceError.self) { try GCPReader.read(path: bad) }
        #expect(e?.reason == .unparseableRow && e?.description.contains("bad.csv:2:9") == true, "\(String(describing: e))")
    }

    @Test func csvProjectedNeedsItsCRS() throws {
        let dir = try TemporaryFolder.make("georef")
        defer { try? FileManager.default.removeItem(at: dir) }
        var text = "x,y,X,Y\n"
        for r in GeoreferenceFixtures.rows { text += "\(r.0),\(r.1),\(r.2),\(r.3)\n" }
        let path = try GeoreferenceFixtures.write(text, "rd.csv", in: dir)
        let e = #expect(throws: GeoreferenceError.self) { try GCPReader.read(path: path) }
        #expect(e?.reason == .unknownCRS)
        #expect(e?.description.contains("--gcp-srs") == true)
        let set = try GCPReader.read(path: path, gcpCRS: try CRS("EPSG:28992"))
        GeoreferenceFixtures.checkRows(set)
        #expect(set.crs.definition == "EPSG:28992")
    }

    /// A VRT with a GCPList; `latFirst` stores lat as X, with mapping 1,2 (authority order).
    static func vrt(latFirst: Bool) -> String {
        let gcps = GeoreferenceFixtures.rows.enumerated().map { i, r in
            "<GCP Id=\"g\(i)\" Pixel=\"\(r.0)\" Line=\"\(r.1)\" X=\"\(latFirst ? r.3 : r.2)\" Y=\"\(latFirst ? r.2 : r.3)\"/>"
        }.joined(separator: "\n")
        return """
            <VRTDataset rasterXSize="1000" rasterYSize="800">
              <GCPList Projection="EPSG:4326" dataAxisToSRSAxisMapping="\(latFirst ? "1,2" : "2,1")">
            \(gcps)
              </GCPList>
              <VRTRasterBand dataType="Byte" band="1"/>
            </VRTDataset>
            """
    }

    @Test(arguments: [false, true])
    func vrtAxisMappingIsHonoured(latFirst: Bool) throws {
        let dir = try TemporaryFolder.make("georef")
        defer { try? FileManager.default.removeItem(at: dir) }
        let set = try GCPReader.read(path: GeoreferenceFixtures.write(Self.vrt(latFirst: latFirst), "g.vrt", in: dir))
        GeoreferenceFixtures.checkRows(set)
        #expect(set.crs.definition == "EPSG:4326")
    }

    @Test func allmapsAnnotationGivesMaskAndTransform() throws {
        let dir = try TemporaryFolder.make("georef")
        defer { try? FileManager.default.removeItem(at: dir) }
        let features = GeoreferenceFixtures.rows.map { r in
            "{\"type\":\"Feature\",\"properties\":{\"resourceCoords\":[\(r.0),\(r.1)]},\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(r.2),\(r.3)]}}"
        }.joined(separator: ",")
        let json = """
            {"type":"Annotation","motivation":"georeferencing",
             "target":{"type":"SpecificResource","source":{"id":"https://example.org/iiif/scan","type":"ImageService2"},
                       "selector":{"type":"SvgSelector","value":"<svg width=\\"1000\\" height=\\"800\\"><polygon points=\\"10,20 990,20 990,780 10,780\\" /></svg>"}},
             "body":{"type":"FeatureCollection","transformation":{"type":"polynomial","options":{"order":2}},"features":[\(features)]}}
            """
        let set = try GCPReader.read(path: GeoreferenceFixtures.write(json, "annotation.json", in: dir))
        GeoreferenceFixtures.checkRows(set)
        #expect(set.mask == [PixelPoint(x: 10, y: 20), PixelPoint(x: 990, y: 20), PixelPoint(x: 990, y: 780), PixelPoint(x: 10, y: 780)])
        #expect(set.transformHint == .polynomial2)
        let tps = json.replacingOccurrences(of: "{\"type\":\"polynomial\",\"options\":{\"order\":2}}", with: "{\"type\":\"thinPlateSpline\"}")
        #expect(try GCPReader.read(path: GeoreferenceFixtures.write(tps, "tps.json", in: dir)).transformHint == .tps)
    }

    /// An AnnotationPage of several maps (as Allmaps serves for a IIIF manifest) is never read as
    /// one of them without a word: it is refused naming its maps, and `mapID` picks one, by its
    /// id or the id's last path component. A page of one map is read as before.
    @Test func annotationPageOfSeveralMapsIsRefusedUnlessOneIsChosen() throws {
        let dir = try TemporaryFolder.make("georef")
        defer { try? FileManager.default.removeItem(at: dir) }
        func annotation(_ id: String, shift: Double) -> String {
            let features = GeoreferenceFixtures.rows.map { r in
                "{\"type\":\"Feature\",\"properties\":{\"resourceCoords\":[\(r.0),\(r.1)]},\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(r.2 + shift),\(r.3)]}}"
            }.joined(separator: ",")
            return
                "{\"id\":\"https://annotations.allmaps.org/maps/\(id)\",\"type\":\"Annotation\",\"motivation\":\"georeferencing\",\"body\":{\"type\":\"FeatureCollection\",\"features\":[\(features)]}}"
        }
        let page = "{\"type\":\"AnnotationPage\",\"items\":[\(annotation("a1db818f", shift: 0)),\(annotation("77c2d0e1", shift: 1))]}"
        let path = try GeoreferenceFixtures.write(page, "page.json", in: dir)
        do {
            _ = try GCPReader.read(path: path)
            Issue.record("read a page of two maps as one")
        } catch let e as GeoreferenceError {
            #expect(
                e.description.contains("2 maps") && e.description.contains("https://annotations.allmaps.org/maps/a1db818f")
                    && e.description.contains("https://annotations.allmaps.org/maps/77c2d0e1") && e.description.contains("--map"), "\(e)")
        }
        let first = try GCPReader.read(path: path, mapID: "a1db818f")
        GeoreferenceFixtures.checkRows(first)
        let second = try GCPReader.read(path: path, mapID: "https://annotations.allmaps.org/maps/77c2d0e1")
        #expect(second.gcps.map(\.ground.x) == first.gcps.map { $0.ground.x + 1 })
        #expect(throws: GeoreferenceError.self) { try GCPReader.read(path: path, mapID: "nope") }
        let one = try GeoreferenceFixtures.write("{\"type\":\"AnnotationPage\",\"items\":[\(annotation("a1db818f", shift: 0))]}", "one.json", in: dir)
        GeoreferenceFixtures.checkRows(try GCPReader.read(path: one))
    }

    @Test func everyFormatGivesTheSameFit() throws {
        let dir = try TemporaryFolder.make("georef")
        defer { try? FileManager.default.removeItem(at: dir) }
        var points = "#CRS: EPSG:4326\nmapX,mapY,sourceX,sourceY,enable\n", csv = "x,y,lon,lat\n"
        for r in GeoreferenceFixtures.rows {
            points += "\(r.2),\(r.3),\(r.0),\(-r.1),1\n"
            csv += "\(r.0),\(r.1),\(r.2),\(r.3)\n"
        }
        let paths = [
            try GeoreferenceFixtures.write(points, "s.points", in: dir), try GeoreferenceFixtures.write(csv, "s.csv", in: dir),
            try GeoreferenceFixtures.write(Self.vrt(latFirst: true), "s.vrt", in: dir),
        ]
        let fits = try paths.map {
            try Georeferencer.fit(
                GCPReader.read(path: $0), imageWidth: 1000, imageHeight: 800,
                options: FitOptions(transform: .polynomial1))
        }
        let probe = PixelPoint(x: 512.25, y: 333.5)
        let ref = fits[0].transform.forward(probe)
        for f in fits { #expect(f.transform.forward(probe) == ref, "\(f.gcps.source)") }
    }
}
