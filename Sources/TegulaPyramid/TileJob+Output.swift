import TegulaGDAL
import TegulaGeometry
import TegulaTileset

/// Where a job's tiles go: the one choice of writer by OUT's form (a folder, `*.mbtiles`,
/// `*.pmtiles` or `*.gpkg`, ``Tileset/form(of:)``), for the cut in Web Mercator and in any
/// other tile matrix set alike.
extension TileJob {
    /// Opens OUT's writer with the job's encoding, layout, scale, grid and resume; a GeoPackage
    /// gets its grid's CRS as PROJ defines it (``GeoPackageTileWriter/SpatialReference/init(crsOf:)``).
    public func openOutput() throws -> TileWriter {
        let geoPackage = Tileset.form(of: output) == .geopackage
        return try Tileset.openWriter(
            at: output, format: settings.encoding.format, layout: settings.layout, scale: settings.scale, resume: resume,
            waitForOtherWriter: waitForOtherWriter, tms: tms, tilePixels: settings.tilePixels,
            geoPackageCRS: geoPackage ? try GeoPackageTileWriter.SpatialReference(crsOf: tms) : nil)
    }
}

extension GeoPackageTileWriter.SpatialReference {
    /// The `gpkg_spatial_ref_sys` row of `tms`'s CRS from PROJ (through GDAL): its name, its
    /// authority and code (`srs_id` is the EPSG code; a CRS without one, such as
    /// OGC's CRS84, is `NONE` with GeoPackage's first free id, 100000) and its WKT as GDAL writes it.
    public init(crsOf tms: TileMatrixSet) throws {
        let reference = try CRS(tms.crs).makeReference()
        let parts = reference.authorityCode?.split(separator: ":").map(String.init) ?? []
        let epsg = parts.count == 2 && parts[0] == "EPSG" ? Int(parts[1]) : nil
        self.init(
            id: epsg ?? 100_000, name: reference.name, organization: epsg == nil ? "NONE" : "EPSG",
            code: epsg ?? 100_000, definition: reference.wkt)
    }
}
