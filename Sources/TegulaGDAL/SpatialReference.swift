import CGDAL

#if canImport(Glibc)
    import Glibc
#endif

/// A coordinate reference system known to PROJ, owning its OGR handle.
///
/// Axis order is always the traditional GIS one (longitude/easting first), whatever the
/// authority says (OAMS_TRADITIONAL_GIS_ORDER). Not `Sendable`: PROJ handles are not thread-safe
/// (even ``authorityCode`` changes the handle); share a ``CRS`` and make a handle per thread.
public final class SpatialReference {
    let handle: OGRSpatialReferenceH
    /// The text the user gave (e.g. "EPSG:4326"), or the WKT it was read from.
    public let definition: String

    /// Parse anything `OSRSetFromUserInput` understands: "EPSG:n", WKT, PROJ strings, names
    /// such as "WGS84".
    public convenience init(_ definition: String) throws {
        try self.init(definition, definition: definition)
    }

    /// Parse `text` as ``init(_:)`` does, remembering `definition` as what the user gave.
    init(_ text: String, definition: String) throws {
        GDALRuntime.initialize()
        guard let h = OSRNewSpatialReference(nil) else {
            throw GDALError.last("OSRNewSpatialReference", path: nil, fallback: "out of memory")
        }
        let trimmed = text.trimmingWhitespace
        if let why = SpatialReference.refusal(trimmed) {
            OSRDestroySpatialReference(h)
            throw GDALError(call: "OSRSetFromUserInput", path: nil, message: "CRS '\(trimmed.prefix(80))' \(why)")
        }
        if trimmed.isEmpty || OSRSetFromUserInput(h, trimmed) != OGRERR_NONE {
            OSRDestroySpatialReference(h)
            CPLErrorReset()
            throw GDALError(
                call: "OSRSetFromUserInput", path: nil,
                message: "unknown CRS '\(trimmed.prefix(80))': expected e.g. EPSG:4326, EPSG:3857, a WKT or a PROJ string")
        }
        OSRSetAxisMappingStrategy(h, OAMS_TRADITIONAL_GIS_ORDER)
        handle = h
        self.definition = definition.trimmingWhitespace
    }

    /// Why GDAL must not be given `text`, or nil. GDAL 3.6's `OSRSetFromUserInput` GETs any
    /// `scheme://` URL, reads `/vsicurl/`-like paths (both seen against a local HTTP server) and
    /// opens any file the text names (`#CRS: @EPSG:4326` in a fuzzed GCP file was opened as a
    /// path; a FIFO blocks it for good). So a CRS named by a stranger's GCP file or an editor
    /// request could make Tegula call any host or hang. The OGC's `opengis.net/def/crs/` URLs are
    /// resolved from PROJ's database, not fetched, and stay allowed. `lstat` never opens the file.
    ///
    /// A text PROJ could only look up by name, and no name it holds could match, is refused too
    /// (``SearchedName``). The answer is the rest of a one-line message after "CRS '…' ".
    static func refusal(_ text: String) -> String? {
        let t = text.lowercased()
        let source: String?
        if t.hasPrefix("/vsi") {
            source = "is a GDAL virtual file to read"
        } else if let scheme = t.range(of: "://"), scheme.lowerBound > t.startIndex,
            t[..<scheme.lowerBound].allSatisfy({ $0.isLetter || $0 == "+" || $0 == "-" || $0 == "." }),
            ![
                "http://www.opengis.net/def/crs/", "https://www.opengis.net/def/crs/", "http://opengis.net/def/crs/",
                "https://opengis.net/def/crs/",
            ].contains(where: { t.hasPrefix($0) })
        {
            source = "is a URL to fetch"
        } else {
            var st = stat()
            source = !text.isEmpty && text.count < 4096 && lstat(text, &st) == 0 ? "names a file" : nil
        }
        if let source {
            return "\(source); Tegula never reads a CRS from one (a GCP file or editor request could name any host, a device "
                + "or a FIFO): give EPSG:n, a WKT or a PROJ string"
        }
        return SearchedName(text).isUnmatchable ? unmatchable : nil
    }

    /// Why a text PROJ would search `proj.db` for in vain is refused (``SearchedName``).
    static let unmatchable =
        "is no CRS PROJ knows: not AUTH:CODE, AUTH:CODE+AUTH:CODE, an OGC URN or URL, a WKT or a "
        + "PROJ string, and no CRS name has two colons: give e.g. EPSG:4326, a WKT or a PROJ string"

    /// Why GDAL must not open the VRT at `path`, or nil (also for any file that is no VRT).
    /// GDAL's VRT driver parses the `<SRS>` and `<GCPList Projection="…">` of a VRT itself, not
    /// through ``init(_:)``, with file and network access off but PROJ's name search on: a
    /// stranger's GCP VRT whose Projection is `EPSG:4326 EPSG:+0` took 0.93 s to open in the
    /// gcp-vrt fuzz target. Such texts are refused before GDAL reads the file.
    static func refusal(vrtAt path: String) -> String? {
        var st = stat()
        guard stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG, let file = fopen(path, "rb") else { return nil }
        // GDAL's VRT driver takes a file whose first 1024 bytes hold "<VRTDataset".
        var head = [UInt8](repeating: 0, count: 1024)
        let read = fread(&head, 1, head.count, file)
        fclose(file)
        guard head.prefix(read).holds("<VRTDataset") else { return nil }
        guard let tree = CPLParseXMLFile(path) else { CPLErrorReset(); return nil }
        defer { CPLDestroyXMLNode(tree) }
        guard let root = CPLGetXMLNode(tree, "=VRTDataset") else { return nil }
        for (name, key) in [("<SRS>", "SRS"), ("<GCPList Projection>", "GCPList.Projection")] {
            guard let value = CPLGetXMLValue(root, key, nil) else { continue }
            let text = String(cString: value)
            if SearchedName(text).isUnmatchable { return "its \(name) '\(text.prefix(80))' \(unmatchable)" }
        }
        return nil
    }

    /// Take ownership of a clone of `h` (used for handles owned by datasets).
    init(cloning h: OGRSpatialReferenceH, definition: String) {
        handle = OSRClone(h)
        OSRSetAxisMappingStrategy(handle, OAMS_TRADITIONAL_GIS_ORDER)
        self.definition = definition
    }

    deinit { OSRDestroySpatialReference(handle) }

    /// EPSG:4326, longitude first.
    public static func wgs84() -> SpatialReference { CRS.wgs84.makeReference() }
    /// EPSG:3857, spherical Web Mercator.
    public static func webMercator() -> SpatialReference { CRS.webMercator.makeReference() }

    /// The CRS as WKT (WKT1, GDAL's default for GeoTIFF and VRT).
    public var wkt: String {
        var out: UnsafeMutablePointer<CChar>? = nil
        OSRExportToWkt(handle, &out)
        defer { tegula_cpl_free(out) }
        return out.map { String(cString: $0) } ?? ""
    }

    /// The CRS's name, e.g. "WGS 84 / Pseudo-Mercator".
    public var name: String {
        OSRGetName(handle).map { String(cString: $0) } ?? "unnamed"
    }

    /// "EPSG:n" when the CRS has an EPSG code (after auto-identification), else nil.
    public var authorityCode: String? {
        _ = OSRAutoIdentifyEPSG(handle)
        for key in [nil, "PROJCS", "GEOGCS"] as [String?] {
            if let a = OSRGetAuthorityName(handle, key), let c = OSRGetAuthorityCode(handle, key) {
                let auth = String(cString: a), code = String(cString: c)
                if key == nil || (key == "PROJCS" && isProjected) || (key == "GEOGCS" && isGeographic) {
                    return "\(auth):\(code)"
                }
            }
        }
        return nil
    }

    /// A short label: the authority code when known, else the name.
    public var label: String { authorityCode ?? name }

    /// True for latitude/longitude CRSs.
    public var isGeographic: Bool { OSRIsGeographic(handle) != 0 }
    /// True for projected CRSs.
    public var isProjected: Bool { OSRIsProjected(handle) != 0 }

    /// True when both describe the same CRS (OSRIsSame, ignoring axis order differences).
    public func isSame(as other: SpatialReference) -> Bool {
        OSRIsSame(handle, other.handle) != 0
    }

    /// The axis mapping of this handle as GDAL writes it in VRTs ("1,2" or "2,1").
    public var dataAxisToSRSAxisMapping: [Int] {
        var count: Int32 = 0
        guard let p = OSRGetDataAxisToSRSAxisMapping(handle, &count) else { return [] }
        return (0..<Int(count)).map { Int(p[$0]) }
    }
}

extension String {
    var trimmingWhitespace: String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}
