import Foundation
import TegulaSupport
import Testing

/// One rule names what the servers serve. Each row is an answer one of the five rules it replaced
/// gave (the catalogue's tileset ids, a remote PMTiles' name, a scan's id on demand, a remote
/// annotation's or IIIF image's id in `tegula serve`, the editor's scan pane), so the ids served
/// before are the ids served now.
struct ServedIDTests {
    @Test func aScanOrAnnotationIsNamedByItsLastSegmentWithoutExtension() {
        for (location, id) in [
            ("scans/1689.tif", "1689"), ("/data/Old Map.jpg", "Old Map"), ("a.b.tif", "a.b"), ("scan", "scan"),
            ("annotation.json", "annotation"), ("https://annotations.allmaps.org/maps/a1db818f", "a1db818f"),
            ("https://iiif.example.org/images/scan/info.json", "scan"), ("work/scan/info.json", "scan"),
            ("https://iiif.example.org/images/scan", "scan"), ("info.json", "info"),
        ] {
            #expect(ServedID.of(location) == id, "\(location)")
        }
    }

    @Test func aTilesetKeepsAnExtensionItsCallerSaysIsPartOfTheName() {
        let tilesetFile: (String) -> Bool = { !["mbtiles", "pmtiles"].contains($0.lowercased()) }
        for (location, id) in [
            ("maps/Old Map.pmtiles", "Old Map"), ("relief.PMTiles", "relief"), ("out/tiles", "tiles"),
            ("out/maps.v2", "maps.v2"), ("out/tiles/", "tiles"), ("scan.tif", "scan.tif"),
            ("https://host/a.pmtiles?X-Amz-Expires=60", "a"), ("https://host/dir/b.pmtiles", "b"),
        ] {
            #expect(ServedID.of(location, keepsExtension: tilesetFile) == id, "\(location)")
        }
    }

    @Test func theCurrentFolderIsNamedAfterItself() {
        let here = (FileManager.default.currentDirectoryPath as NSString).lastPathComponent
        for location in [".", "", "./"] {
            #expect(ServedID.of(location) == here, "'\(location)'")
        }
    }
}
