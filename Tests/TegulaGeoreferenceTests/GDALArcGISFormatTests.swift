import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference
import TegulaTestSupport
import Testing

/// GCP files from GDAL and ArcGIS (issue 45 item 1): GDAL text as `gdal_translate -gcp` takes it,
/// ArcGIS' CSV and TSV exports with their rows negative, told apart by content whatever the
/// extension; a file that could be read two ways is refused naming both.
struct GDALArcGISFormatTests {
    /// ``GeoreferenceFixtures/rows`` in GDAL text.
    static var gdal: String { GeoreferenceFixtures.rows.map { "\($0.0) \($0.1) \($0.2) \($0.3)\n" }.joined() }
    /// ... as ArcGIS' CSV export, ids first, rows negative.
    static var arcgisCSV: String {
        GeoreferenceFixtures.rows.enumerated().map { i, r in "\(i + 1),\(r.0),\(-r.1),\(r.2),\(r.3)\n" }.joined()
    }
    /// ... as ArcGIS' TSV export, rows negative.
    static var arcgisTSV: String { GeoreferenceFixtures.rows.map { "\($0.0)\t\(-$0.1)\t\($0.2)\t\($0.3)\n" }.joined() }

    static func refusal(_ text: String, _ name: String, gcpCRS: CRS? = nil) throws -> GeoreferenceError? {
        let dir = try TemporaryFolder.make("gcpforms")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try GeoreferenceFixtures.write(text, name, in: dir)
        let e = #expect(throws: GeoreferenceError.self) { try GCPReader.read(path: path, gcpCRS: gcpCRS) }
        #expect(e.map { !$0.description.contains("\n") } ?? true, "\(String(describing: e))")
        return e
    }

    @Test(arguments: [("gcps.txt", 0), ("gcps.gcp", 0), ("arcgis.csv", 1), ("arcgis.txt", 2), ("arcgis", 2)])
    func eachFormIsReadByItsContentWhateverItsName(name: String, form: Int) throws {
        let dir = try TemporaryFolder.make("gcpforms")
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = [Self.gdal, Self.arcgisCSV, Self.arcgisTSV][form]
        let set = try GCPReader.read(path: GeoreferenceFixtures.write("\n" + text + "\n", name, in: dir))
        GeoreferenceFixtures.checkRows(set, enabled: [true, true, true, true])
        #expect(set.gcps.map(\.id) == ["1", "2", "3", "4"])
        #expect(set.crs.isSame(as: .wgs84) && set.transformHint == nil && set.mask == nil)
    }

    /// GDAL text means what gdaltransform makes of the same numbers given as `-gcp PIXEL LINE X Y`.
    @Test func gdalTextMeansWhatGdaltransformTakesFromTheSameNumbers() throws {
        let dir = try TemporaryFolder.make("gcpforms")
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = GeoreferenceFixtures.synthetic(9)
        let text = source.gcps.map { "\($0.pixel.x)  \($0.pixel.y)\t\($0.ground.x) \($0.ground.y)" }.joined(separator: "\n")
        let set = try GCPReader.read(path: GeoreferenceFixtures.write(text, "g.txt", in: dir))
        let g = try Georeferencer.fit(
            set, imageWidth: GeoreferenceFixtures.width, imageHeight: GeoreferenceFixtures.height,
            options: FitOptions(transform: .polynomial1, fitCRS: .gcp))
        let probes = GeoreferenceFixtures.widePixels()
        let gdal = try GeoreferenceFixtures.gdaltransform(source, method: ["-order", "1"], points: probes.map { ($0.x, $0.y) })
        for (p, q) in zip(probes, gdal) {
            let q = try #require(q)
            let mine = g.transform.forward(p)
            #expect(abs(mine.x - q.0) < 1e-9 && abs(mine.y - q.1) < 1e-9, "\(p): \(mine) vs \(q)")
        }
    }

    @Test func anArcGISCSVKeepsItsIdsAndQuotedIds() throws {
        let dir = try TemporaryFolder.make("gcpforms")
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = Self.arcgisCSV.replacingOccurrences(of: "\n2,", with: "\n\"Kerk, toren\",")
        let set = try GCPReader.read(path: GeoreferenceFixtures.write(text, "ids.csv", in: dir))
        GeoreferenceFixtures.checkRows(set)
        #expect(set.gcps.map(\.id) == ["1", "Kerk, toren", "3", "4"])
    }

    /// Tabs with rows counted down (GDAL's, or ArcGIS' from a bottom-left origin), spaces with
    /// negative rows, rows of both signs, an ArcGIS CSV with positive rows: refused, both readings
    /// named, nothing guessed.
    @Test func aFileThatCouldBeReadTwoWaysIsRefusedNamingBoth() throws {
        let tabsDown = GeoreferenceFixtures.rows.map { "\($0.0)\t\($0.1)\t\($0.2)\t\($0.3)\n" }.joined()
        let spacesNegative = GeoreferenceFixtures.rows.map { "\($0.0) \(-$0.1) \($0.2) \($0.3)\n" }.joined()
        let bothSigns = Self.arcgisTSV.replacingOccurrences(of: "\t-200.0\t", with: "\t200.0\t")
        #expect(bothSigns != Self.arcgisTSV)
        for (text, name) in [(tabsDown, "tabs.txt"), (spacesNegative, "spaces.txt"), (bothSigns, "both.txt")] {
            let e = try Self.refusal(text, name)
            #expect(e?.reason == .unknownFormat, "\(name)")
            #expect(e?.location?.hasSuffix(name) == true, "\(name): \(String(describing: e))")
            #expect(
                e.map {
                    $0.message.contains("could be read two ways") && $0.message.contains("GDAL text")
                        && $0.message.contains("ArcGIS TSV") && $0.message.contains("does not guess")
                } == true, "\(name): \(String(describing: e))")
        }
        let csvDown = GeoreferenceFixtures.rows.enumerated().map { i, r in "\(i + 1),\(r.0),\(r.1),\(r.2),\(r.3)\n" }.joined()
        let e = try Self.refusal(csvDown, "down.csv")
        #expect(
            e.map {
                $0.reason == .unknownFormat && $0.message.contains("could be read two ways")
                    && $0.message.contains("counted down from the top") && $0.message.contains("bottom-left")
            } == true, "\(String(describing: e))")
    }

    /// A bad row is one line naming the file, the line and the form, and saying what is expected.
    @Test func badRowsNameTheirFileLineAndForm() throws {
        let word = try Self.refusal("100 200 4.5 52.25\n900 150 abc 52.5\n", "word.txt")
        #expect(word?.reason == .unparseableRow && word?.location?.hasSuffix("word.txt:2") == true, "\(String(describing: word))")
        #expect(word?.message.contains("X 'abc' is not a number") == true, "\(String(describing: word))")
        let short = try Self.refusal("100 200 4.5 52.25\n900 150 52.5\n", "short.txt")
        #expect(
            short?.location?.hasSuffix("short.txt:2") == true
                && short?.message.contains("GDAL text (PIXEL LINE X Y): expected 4 numbers PIXEL LINE X Y") == true, "\(String(describing: short))")
        let csv = try Self.refusal("1,100,-200,4.5,52.25\n2,900,-150,6.75\n", "short.csv")
        #expect(
            csv?.location?.hasSuffix("short.csv:2") == true && csv?.message.contains("ArcGIS CSV") == true
                && csv?.message.contains("expected 5 values id,x,y,X,Y") == true, "\(String(describing: csv))")
        let four = try Self.refusal("100,200,4.5,52.25\n", "four.csv")
        #expect(
            four?.reason == .unknownFormat && four?.message.contains("ArcGIS CSV") == true
                && four?.message.contains("x,y,lon,lat") == true, "\(String(describing: four))")
        // Projected numbers and no CRS: asked for, at the line.
        let projected = "853 8548 485163.6699326297 6801653.177644754\n843 6062 485134.3261148566 6801632.687710281\n"
        let crs = try Self.refusal(projected, "webmercator.txt")
        #expect(
            crs?.reason == .unknownCRS && crs?.location?.hasSuffix("webmercator.txt:1") == true
                && crs?.message.contains("--gcp-srs") == true, "\(String(describing: crs))")
        let dir = try TemporaryFolder.make("gcpforms")
        defer { try? FileManager.default.removeItem(at: dir) }
        let read = try GCPReader.read(path: GeoreferenceFixtures.write(projected, "webmercator.txt", in: dir), gcpCRS: .webMercator)
        #expect(
            read.gcps.map(\.ground) == [
                GroundPoint(x: 485163.6699326297, y: 6801653.177644754), GroundPoint(x: 485134.3261148566, y: 6801632.687710281),
            ])
    }

    /// A file in no known form is refused naming every form, the new ones among them.
    @Test func anUnknownFormIsRefusedNamingEveryForm() throws {
        let e = try Self.refusal("some notes about the map\n", "notes.gcp")
        #expect(e?.reason == .unknownFormat, "\(String(describing: e))")
        for form in ["QGIS .points", "GDAL .vrt", "x,y,lon,lat", "GDAL text PIXEL LINE X Y", "ArcGIS CSV id,x,y,X,Y", "TSV x y X Y", "Allmaps .json"]
        {
            #expect(e?.message.contains(form) == true, "\(form): \(String(describing: e))")
        }
    }
}
