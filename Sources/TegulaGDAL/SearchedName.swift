/// A CRS text as PROJ 9.1's `createFromUserInput` (what `proj_create` and GDAL's
/// `OSRSetFromUserInput` call) sorts it, to tell in advance the texts it could only look up by
/// name and that no name in `proj.db` could match.
///
/// PROJ reads a text as PROJJSON, WKT, a PROJ string, an OGC URL, `AUTO:…`, `AUTH:CODE`,
/// `AUTH:CODE+AUTH:CODE` or an OGC URN; anything else it searches for among every object name
/// and alias in `proj.db`, in four passes, the last two by substring over all 28 000 of them
/// (`AuthorityFactory::createObjectsFromName`). That costs 0.18 s a text here, 0.9–1.3 s in the
/// address-sanitized fuzz targets (`Fuzz/Crashes/gcp-points/unknown-crs-name-searched-for-a-second`),
/// and GDAL 3.6 hands such texts to PROJ whole when they start `EPSG:` and hold a `+`, or start
/// `urn:` (seen with gdb on `proj_create`). Passes compare case-folded names that keep `:`,
/// and no name or alias in `proj.db` (PROJ 9.1.1) has two colons
/// (`SELECT … WHERE name LIKE '%:%:%'`: 0 rows in `object_view` and `alias_name`), so a text with
/// two colons that reaches the search is found by none of them.
///
/// Read as bytes, as PROJ does, up to the first NUL (where GDAL's C string ends).
struct SearchedName {
    let bytes: [UInt8]

    init(_ text: String) {
        // PROJ skips leading spaces, tabs and line ends; nothing else.
        bytes = Array(text.utf8.prefix { $0 != 0 }.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A })
    }

    /// True when PROJ would search `proj.db` for the text by name and could find nothing.
    var isUnmatchable: Bool {
        let fields = bytes.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard fields.count >= 3, !isParsedWithoutSearch else { return false }
        let urn = Array("urn".utf8)
        if fields.count == 3, fields[1].split(separator: UInt8(ascii: "+"), omittingEmptySubsequences: false).count == 2 {
            return false  // AUTH:CODE+AUTH:CODE
        }
        if fields.count == 7, fields[0].map(lower).elementsEqual(urn) { return false }  // urn:ogc:def:crs:EPSG::4326
        if fields.count == 6, fields[0].elementsEqual(urn) { return false }  // urn:opengis:crs:EPSG:0:4326
        if fields.count > 7, fields[0].elementsEqual(urn), fields[4].elementsEqual("OGC".utf8),
            fields[6].map(lower).starts(with: "auto".utf8)
        {
            return false  // urn:ogc:def:crs:OGC::AUTO42001:-117:33
        }
        return true
    }

    /// Forms PROJ parses before it splits at colons: PROJJSON, WKT, PROJ strings, OGC CRS URLs,
    /// WMS `AUTO:` and the comma-joined OGC URNs.
    var isParsedWithoutSearch: Bool {
        if bytes.first == UInt8(ascii: "{") { return true }
        if isWKT { return true }
        let plain = bytes.first == UInt8(ascii: "+") ? bytes.dropFirst() : bytes[...]
        if ["proj=", "init=", "title="].contains(where: { plain.starts(with: $0.utf8) })
            || [" +proj=", " proj=", " +init=", " init="].contains(where: { bytes.holds($0) })
        {
            return true
        }
        if [
            "http://opengis.net/def/crs", "https://opengis.net/def/crs", "http://www.opengis.net/def/crs",
            "https://www.opengis.net/def/crs", "www.opengis.net/def/crs", "urn:ogc:def:crs,",
            "urn:ogc:def:coordinateOperation,",
        ].contains(where: { bytes.starts(with: $0.utf8) }) {
            return true
        }
        return bytes.map(lower).starts(with: "auto:".utf8)
    }

    /// A keyword (letters, digits, `_`), then optional white space, then `[`: at least as much
    /// as PROJ asks of a WKT (one of its keywords), so no text PROJ parses as WKT is refused.
    var isWKT: Bool {
        let word = bytes.prefix { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }
        guard !word.isEmpty else { return false }
        return bytes.dropFirst(word.count).first { !(0x09...0x0D).contains($0) && $0 != 0x20 } == UInt8(ascii: "[")
    }

    private func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b + 0x20 : b }
}

extension Collection<UInt8> {
    /// Whether the bytes hold `needle`'s UTF-8 anywhere, compared byte for byte as C's `strstr`
    /// does (a `String` search compares characters, and a combining mark after the last byte
    /// would hide it).
    func holds(_ needle: String) -> Bool {
        let n = Array(needle.utf8)
        var rest = self[...]
        while !rest.isEmpty {
            if rest.starts(with: n) { return true }
            rest = rest.dropFirst()
        }
        return n.isEmpty
    }
}
