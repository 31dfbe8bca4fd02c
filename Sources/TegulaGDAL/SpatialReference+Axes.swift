import CGDAL
import Foundation

/// What a tile matrix set needs to know of its CRS and only PROJ can tell: the axes in the
/// authority's order, the metres in one unit, and the OGC URI (TMS 2.0 §6.2; morecantile's
/// `crs_axis_inverted`, `meters_per_unit` and `CRS_to_uri`).
extension SpatialReference {
    /// The axes' abbreviations in the authority's order (`["E", "N"]` for EPSG:27700, `["Lat",
    /// "Lon"]` for EPSG:4326), from the CRS's PROJJSON (`OSRExportToPROJJSON`); this handle's
    /// traditional GIS data order does not change them.
    public var axisAbbreviations: [String] {
        var out: UnsafeMutablePointer<CChar>? = nil
        guard OSRExportToPROJJSON(handle, &out, nil) == OGRERR_NONE, let out else { return [] }
        defer { tegula_cpl_free(out) }
        let json = try? JSONSerialization.jsonObject(with: Data(String(cString: out).utf8)) as? [String: Any]
        let system = (json?["coordinate_system"] ?? (json?["base_crs"] as? [String: Any])?["coordinate_system"]) as? [String: Any]
        let axes = system?["axis"] as? [[String: Any]] ?? []
        return axes.compactMap { $0["abbreviation"] as? String }
    }

    /// Metres in one unit of the CRS's axes: the linear unit's factor (`OSRGetLinearUnits`) for a
    /// projected CRS, 2πa/360 for a geographic one (a the semi-major axis, `OSRGetSemiMajor`),
    /// as TMS 2.0 defines metersPerUnit.
    public var metersPerUnit: Double {
        if isGeographic {
            var err = OGRERR_NONE
            return 2 * Double.pi * OSRGetSemiMajor(handle, &err) / 360
        }
        return OSRGetLinearUnits(handle, nil)
    }

    /// The OGC URI of the CRS's authority code (`http://www.opengis.net/def/crs/EPSG/0/27700`),
    /// nil when PROJ identifies none.
    public var ogcURI: String? {
        guard let code = authorityCode, let colon = code.firstIndex(of: ":") else { return nil }
        return "http://www.opengis.net/def/crs/\(code[..<colon])/0/\(code[code.index(after: colon)...])"
    }
}
