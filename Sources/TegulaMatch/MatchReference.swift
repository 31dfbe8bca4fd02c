import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference
import TegulaScan
import TegulaTileset
import TegulaWarp

/// A georeferenced image of a map to match a scan against: its pixels (a ``ScanReader``) and
/// where each pixel lies on the ground, in ``crs``. The one home of the kinds of reference
/// `tegula match` takes: an image with a geotransform or GCPs (``image(at:gcpFile:reader:)``), and
/// a tileset of Web Mercator tiles read at one zoom (``tileset(at:scanWidth:scanHeight:zoom:)``).
public struct MatchReference {
    /// Its pixels, as the matcher reads them.
    public let reader: any ScanReader
    /// The CRS of its ground positions (where a fit of the proposed points is made, as gdalwarp
    /// fits GCPs): the image's own, or EPSG:3857 for a tileset.
    public let crs: CRS
    /// What was read, in a few words for a report; nil for an image, which is read as it is.
    public let summary: String?
    private let name: String
    private let toGround: ([PixelPoint]) throws -> [GroundPoint]

    /// A reference from its parts: `toGround` maps its pixels (GDAL's convention) into `crs`.
    public init(
        reader: any ScanReader, crs: CRS, summary: String? = nil, name: String,
        toGround: @escaping ([PixelPoint]) throws -> [GroundPoint]
    ) {
        self.reader = reader
        self.crs = crs
        self.summary = summary
        self.name = name
        self.toGround = toGround
    }

    /// The ground positions of reference pixels (GDAL's convention), in ``crs``; throws when the
    /// georeference maps one nowhere.
    public func groundPoints(_ pixels: [PixelPoint]) throws -> [GroundPoint] {
        let grounds = try toGround(pixels)
        if let bad = grounds.firstIndex(where: { !$0.x.isFinite || !$0.y.isFinite }) {
            throw MatchError(.unmappedPixel, at: name, "its georeference does not map pixel (\(pixels[bad].x), \(pixels[bad].y)) to \(crs.label)")
        }
        return grounds
    }

    /// An image read through `reader`, georeferenced by its geotransform with a CRS, else by the
    /// fit of its GCPs (stored in it, or `gcpFile`) in their CRS, the one way `tegula georef`
    /// fits them (TegulaWarp's `WarpInput.georeference`).
    public static func image(at path: String, gcpFile: String?, reader: any ScanReader) throws -> MatchReference {
        let ds = try Dataset(path: path)
        if gcpFile == nil, let gt = ds.geoTransform, !gt.isIdentity, let srs = ds.spatialReference {
            return MatchReference(reader: reader, crs: CRS(srs), name: path) { pixels in
                pixels.map { p in
                    let g = gt.apply(pixel: p.x, line: p.y)
                    return GroundPoint(x: g.x, y: g.y)
                }
            }
        }
        guard let fitted = try WarpInput(path: path, gcpFile: gcpFile).georeference() else {
            throw MatchError(
                .noGeoreference, at: path,
                "the reference has no georeference (no geotransform with a CRS, no GCPs); "
                    + "give a georeferenced GeoTIFF or VRT, a tileset, or the image's GCP file (--reference-gcps FILE)")
        }
        return MatchReference.fitted(fitted, reader: reader, name: path)
    }

    /// An image read through `reader` (a local file, an IIIF image) and georeferenced by the fit
    /// of its GCPs, `georeference`, in their CRS; `name` names it in errors.
    public static func fitted(_ georeference: Georeference, reader: any ScanReader, name: String) -> MatchReference {
        let crs = georeference.gcps.crs
        return MatchReference(reader: reader, crs: crs, name: name) { try georeference.pixelsToGround($0, crs: crs) }
    }

    /// A tileset at `path` (a tile folder with `tiles.json`, an MBTiles or a PMTiles, through
    /// TegulaTileset's readers), read at `zoom` or else at ``bestZoom(bounds:tilePixels:zooms:scanPixels:)``
    /// for a scan of `scanWidth` × `scanHeight`.
    public static func tileset(at path: String, scanWidth: Int, scanHeight: Int, zoom: Int? = nil) throws -> MatchReference {
        try tileset(Tileset.openReader(at: path), name: path, scanWidth: scanWidth, scanHeight: scanHeight, zoom: zoom)
    }

    /// The tiles of `tiles` at one zoom covering its bounds, read as one image
    /// (``TileScanReader``), georeferenced as that zoom's Web Mercator pixel grid
    /// (``PixelWindow``, EPSG:3857).
    public static func tileset(_ tiles: any TileReader, name: String, scanWidth: Int, scanHeight: Int, zoom: Int? = nil) throws -> MatchReference {
        let m = tiles.metadata
        let zooms = m.zooms.levels
        let tilePixels = m.tileSize * m.scale
        let bounds = WebMercator.project(m.bounds)
        let z = zoom ?? bestZoom(bounds: bounds, tilePixels: tilePixels, zooms: zooms, scanPixels: Double(scanWidth) * Double(scanHeight))
        guard zooms.contains(z) else {
            throw MatchError(
                .unreadableReference, at: name, "zoom \(z) is not in the tileset, which holds zooms \(zooms.lowerBound)–\(zooms.upperBound)")
        }
        guard let window = PixelWindow(covering: bounds, zoom: z, tileSize: tilePixels) else {
            throw MatchError(.unreadableReference, at: name, "the tileset's bounds (\(m.bounds)) hold no pixel at zoom \(z)")
        }
        let reader = TileScanReader(tiles: tiles, window: window, minZoom: m.zooms.min, name: name)
        let summary = String(format: "zoom %d of the tileset, %d × %d px at %.3f m/px", z, window.width, window.height, window.resolution)
        let left = window.left, top = window.top, res = window.resolution
        return MatchReference(reader: reader, crs: .webMercator, summary: summary, name: name) { pixels in
            pixels.map { GroundPoint(x: left + $0.x * res, y: top - $0.y * res) }
        }
    }

    /// The zoom whose pixels best match the scan's: the one at which the tileset's bounds are
    /// nearest the scan's pixel count (a tileset of the same map shows about the same area), on
    /// a log scale; the finer of two equally near.
    public static func bestZoom(bounds: ProjectedBounds, tilePixels: Int, zooms: ClosedRange<Int>, scanPixels: Double) -> Int {
        var best = zooms.upperBound, bestDistance = Double.infinity
        for z in zooms.reversed() {
            let res = WebMercator.resolution(zoom: z, tileSize: tilePixels)
            let distance = abs(log((bounds.width / res) * (bounds.height / res) / max(1, scanPixels)))
            if distance < bestDistance - 1e-12 {
                best = z
                bestDistance = distance
            }
        }
        return best
    }
}
