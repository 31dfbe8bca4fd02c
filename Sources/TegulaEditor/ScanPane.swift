import Foundation
import Logging
import TegulaGDAL
import TegulaIIIFServer
import TegulaOnDemand
import TegulaScan
import TegulaSupport

/// The scan as the editor's scan pane reads it: an IIIF Image API 3.0 service of the scan at
/// `/iiif/{id}/` (a ``ScanImage`` answered by ``IIIFImageServer``, the same responder and the same
/// id as `tegula serve SCAN`), which reads only the window each request asks for, so no scan is ever
/// held whole. The page cuts it into deep-zoom tiles for Leaflet's `L.CRS.Simple`: at ``maxZoom``
/// one screen pixel is one scan pixel, each zoom below halves it, and a tile is the IIIF region it
/// covers at the size it is drawn (`editor.js`).
public struct ScanPane: Sendable {
    /// Tile side in screen pixels.
    public static let tileSize = 256
    /// The scan served as an IIIF image.
    public let image: ScanImage
    /// The IIIF responder of `tegula serve`, serving ``image`` alone.
    public let service: IIIFImageServer
    /// The zoom at which one screen pixel is one scan pixel: the least number of halvings that
    /// fit the scan's longer side in one tile.
    public let maxZoom: Int

    /// Scan width and height in pixels.
    public var width: Int { image.width }
    public var height: Int { image.height }
    /// The image's id in `/iiif/{id}/` (the scan's file name without its extension, as `tegula serve` names it).
    public var id: String { image.id }

    /// Opens the scan's header (8-bit bands, at most ``RasterLimits/maximumOnDemandPixels``) and
    /// checks that its first pixels decode; an unreadable scan is a ``EditorError`` naming it.
    /// A remote scan (an IIIF image URL, its service id or info.json) is read through its own
    /// service by the same reader the warp uses, and named by its last path component; `id`, when
    /// given, names it instead (the tie editor serves two sheets by their map names). `scans`
    /// opens it (the program's resolver; local files alone by default).
    public init(path: String, id: String? = nil, scans: any ScanOpener = LocalScans(), queue: RenderQueue, logger: Logger) throws {
        let remote = Location(path).isURL
        do {
            if !remote {
                let ds = try Dataset(path: path)
                try RasterLimits.checkBands(ds)
                try ds.verifyReadable()
            }
        } catch let e as GDALError {
            throw EditorError(.unreadableInput, at: path, "cannot read the scan: \(e.message)")
        } catch {
            throw EditorError(.unreadableInput, at: path, "cannot read the scan: \(error)")
        }
        do {
            image = try ScanImage(id: id ?? ServedID.of(path), scan: scans.open(path), queue: queue)
        } catch let e as GDALError {
            throw EditorError(.unreadableInput, at: path, e.message)
        } catch let e as EditorError {
            throw e
        } catch {
            throw EditorError(.unreadableInput, at: path, "\(error)")
        }
        service = IIIFImageServer(images: [image.id: image], logger: logger)
        var z = 0
        while max(image.width, image.height) > Self.tileSize << z { z += 1 }
        maxZoom = z
    }
}
