import Foundation
import TegulaSupport

/// The GCP file forms Tegula reads and writes as text, named once for readers, writers, help
/// and errors (``GCPReader`` also reads GCPs stored in a raster: a GDAL `.vrt` or GeoTIFF).
///
/// GDAL text is the arguments of `gdal_translate -gcp`, one GCP a line; ArcGIS' control-point
/// exports count rows negative (its image y axis points up), as Allmaps' `@allmaps/io` reads
/// and writes them (`gdal`, `arcgis-csv`, `arcgis-tsv`).
public enum GCPFormat: String, CaseIterable, NamedValue {
    /// QGIS `.points`: `#CRS:`, `mapX,mapY,sourceX,sourceY,enable,…`, rows negated.
    case qgis
    /// MapWarper-style CSV with a header: `x,y,lon,lat[,name]` (or `x,y,X,Y` with a CRS given).
    case csv
    /// GDAL text: `PIXEL LINE X Y` a line, separated by spaces, no header, rows counted down.
    case gdal
    /// ArcGIS CSV: `id,x,y,X,Y` a line, no header, rows negative.
    case arcgisCSV = "arcgis-csv"
    /// ArcGIS TSV: `x y X Y` separated by tabs, no header, rows negative.
    case arcgisTSV = "arcgis-tsv"
    /// An Allmaps Georeference Annotation `.json` (read also as a GeoreferencedMap).
    case allmaps

    /// Parse a name: the raw values, `points` for qgis, `mapwarper` for csv, `json` and
    /// `annotation` for allmaps, `arcgis-txt` for arcgis-tsv; any case; nil otherwise.
    public init?(name: String) {
        let n = name.trimmingCharacters(in: .whitespaces).lowercased()
        if let f = GCPFormat(rawValue: n) { self = f; return }
        switch n {
        case "points", ".points": self = .qgis
        case "mapwarper": self = .csv
        case "json", "annotation": self = .allmaps
        case "arcgis-txt", "arcgis_tsv": self = .arcgisTSV
        case "arcgis_csv": self = .arcgisCSV
        default: return nil
        }
    }

    /// The form a file name asks for when none is named: `.points` QGIS, `.csv` MapWarper CSV,
    /// `.txt` GDAL text, `.json` Allmaps; nil otherwise (the ArcGIS forms are named, never
    /// assumed from `.csv` or `.txt`).
    public init?(extensionOf path: String) {
        switch (path as NSString).pathExtension.lowercased() {
        case "points": self = .qgis
        case "csv": self = .csv
        case "txt": self = .gdal
        case "json": self = .allmaps
        default: return nil
        }
    }

    /// What the form looks like, for messages: "GDAL text (PIXEL LINE X Y)".
    public var label: String {
        switch self {
        case .qgis: return "QGIS .points"
        case .csv: return "CSV x,y,lon,lat"
        case .gdal: return "GDAL text (PIXEL LINE X Y)"
        case .arcgisCSV: return "ArcGIS CSV (id,x,y,X,Y, rows negative)"
        case .arcgisTSV: return "ArcGIS TSV (x y X Y tab-separated, rows negative)"
        case .allmaps: return "Allmaps .json"
        }
    }

    /// Whether the form has room for the fit (transform, fitting CRS, mask); the others keep it
    /// in a ``StoredFit`` sidecar.
    public var holdsTheFit: Bool { self == .allmaps }

    /// Whether the form says which CRS its ground coordinates are in (`.points`' `#CRS:`;
    /// Allmaps' are WGS 84); the others are read as longitude/latitude unless told.
    public var holdsTheCRS: Bool { self == .qgis || self == .allmaps }

    /// Every form a GCP file may take, for errors and help: the text forms and GDAL's rasters.
    public static let readable =
        "QGIS .points, GDAL .vrt (or a raster with GCPs), CSV x,y,lon,lat, GDAL text PIXEL LINE X Y, ArcGIS CSV id,x,y,X,Y or TSV x y X Y (rows negative), Allmaps .json"

    /// The canonical name (the raw value).
    public var name: String { rawValue }
    /// The canonical names, for help and error messages.
    public static var names: [String] { allCases.map(\.rawValue) }
    /// "GCP format".
    public static var kind: String { "GCP format" }
}
