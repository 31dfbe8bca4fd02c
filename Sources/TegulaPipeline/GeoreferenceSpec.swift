import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference

/// The `georeference:` section of a map: how the scan's pixels find the ground. Either GCPs
/// (a file in any format ``GCPReader`` reads, or an inline list) with a transform and fitting CRS,
/// or `bounds` for a scan that is already plate carrée (or any CRS's regular grid).
public struct GeoreferenceSpec: Sendable, Hashable {
    /// Where the GCPs come from.
    public enum GCPSource: Sendable, Hashable {
        /// A GCP file (.points, .vrt, .csv, Allmaps .json); absolute after loading.
        case file(String)
        /// Points written in the pipeline file.
        case inline([InlineGCP])
        /// Points proposed by matching the scan against a georeferenced reference (`match:`: an
        /// image, a tileset, an annotation; a path, absolute after loading, or a URL):
        /// ``ReferenceMatch``.
        case match(String)
        /// `gcps: none`: no GCPs of its own; a sheet of a series placed by its ties
        /// (``SeriesStep``, ``TiePlacement``).
        case tiesOnly
    }

    /// A neatline polygon in scan pixels.
    public enum MaskSource: Sendable, Hashable {
        /// A mask file (SVG polygon, WKT or x,y lines); absolute after loading.
        case file(String)
        /// Vertices written in the pipeline file.
        case inline([PixelPoint])
    }

    /// The GCPs (given, matched, or none: placed by ties), or nil when `bounds` georeference the
    /// scan. A section that names neither decodes with both nil; loading makes it `gcps: none`
    /// for a tied map and refuses it otherwise (``missingGCPs``).
    public var gcps: GCPSource?
    /// Which map of an Allmaps AnnotationPage holding several (`map`: its id or the id's last
    /// path component), as `--map` on the command line; nil for a file of one map.
    public var mapID: String?
    /// CRS of the GCPs' ground coordinates when the file does not say (`gcp_srs`).
    public var gcpCRS: CRS?
    /// Transform to fit; nil = chosen by the georeference stage.
    public var transform: TransformKind?
    /// CRS to fit in (`fit_srs`): EPSG:3857 by default, `gcp` for the GCPs' own.
    public var fitCRS: FitCRS?
    /// The neatline: only what lies inside is warped.
    public var mask: MaskSource?
    /// [west, south, east, north] of the whole image in `srs` units, for scans without GCPs.
    public var bounds: [Double]?
    /// CRS of `bounds`; nil = EPSG:4326.
    public var srs: CRS?
    /// The area the scan shows, in degrees, when `match:` is a bare XYZ URL template
    /// (`match: {reference: URL, reference_bounds: [w, s, e, n]}`, as `--reference-bounds`).
    public var matchBounds: GeoBounds?

    /// Why a section that names neither GCPs nor bounds is refused, for a map that no tie places.
    static let missingGCPs =
        "needs gcps (a GCP file or a list; none for a sheet of a series placed by its ties), match (a georeferenced reference) or bounds ([west, south, east, north]); leave georeference out for an already georeferenced input"

    enum CodingKeys: String, CodingKey, CaseIterable {
        case gcps, match, mapID = "map", gcpCRS = "gcp_srs", transform, fitCRS = "fit_srs", mask, bounds, srs
    }
}

/// One GCP written in a pipeline file: `{id: A, pixel: [x, y], ground: [lon, lat]}`.
public struct InlineGCP: Sendable, Hashable, Codable, StrictDecodable {
    public var id: String?
    /// Pixel position (GDAL convention: (0, 0) is the top-left corner of the top-left pixel).
    public var pixel: [Double]
    /// Ground position in `gcp_srs` (x = easting/longitude first).
    public var ground: [Double]
    /// False to keep the point in the file but out of the fit.
    public var enabled: Bool?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, pixel, ground, enabled
    }
}

extension GeoreferenceSpec: Decodable, StrictDecodable {
    /// YAML's null spelled out (`~`, `null`) or an empty string: a key given no value.
    static func isEmptyValue(_ s: String) -> Bool {
        ["", "~", "null", "Null", "NULL"].contains(s.trimmingCharacters(in: .whitespaces))
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if c.contains(.gcps) {
            if (try? c.decodeNil(forKey: .gcps)) == true || (try? c.decode(String.self, forKey: .gcps)).map(Self.isEmptyValue) == true {
                throw DecodingError.dataCorruptedError(
                    forKey: .gcps, in: c,
                    debugDescription:
                        "no GCP file given (an empty or null value): name a GCP file, or write none for a sheet placed by its ties alone")
            } else if let path = try? c.decode(String.self, forKey: .gcps) {
                if path != "none", path.lowercased() == "none" {
                    throw DecodingError.dataCorruptedError(
                        forKey: .gcps, in: c, debugDescription: "'\(path)' is not a GCP file; did you mean none (a sheet placed by its ties alone)?")
                }
                gcps = path == "none" ? .tiesOnly : .file(path)
            } else {
                let list = try c.decode([Strict<InlineGCP>].self, forKey: .gcps).map(\.value)
                for (i, g) in list.enumerated() where g.pixel.count != 2 || g.ground.count != 2 {
                    throw DecodingError.dataCorrupted(
                        .init(
                            codingPath: c.codingPath + [CodingKeys.gcps, AnyKey(intValue: i)],
                            debugDescription: "pixel and ground must each be two numbers, e.g. {pixel: [1200, 340], ground: [4.9, 52.4]}"))
                }
                gcps = .inline(list)
            }
        }
        if c.contains(.match) {
            let reference = try c.decode(MatchSpec.self, forKey: .match)
            guard gcps == nil else {
                throw DecodingError.dataCorruptedError(
                    forKey: .match, in: c,
                    debugDescription:
                        "give either gcps or match, not both: match proposes the GCPs from a reference")
            }
            gcps = .match(reference.reference)
            matchBounds = reference.bounds
        }
        mapID = try c.decodeIfPresent(String.self, forKey: .mapID)
        if case .match? = gcps {
            for (key, present) in [(CodingKeys.mapID, mapID != nil), (.gcpCRS, try c.decodeIfPresent(CRS.self, forKey: .gcpCRS) != nil)] where present
            {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: c,
                    debugDescription:
                        "\(key.stringValue) applies to a GCP file; matched GCPs are in the reference's CRS")
            }
        }
        if mapID != nil, case .inline = gcps {
            throw DecodingError.dataCorruptedError(
                forKey: .mapID, in: c,
                debugDescription:
                    "map chooses one map of an Allmaps AnnotationPage file; inline gcps need none")
        }
        gcpCRS = try c.decodeIfPresent(CRS.self, forKey: .gcpCRS)
        transform = try c.decodeIfPresent(TransformKind.self, forKey: .transform)
        fitCRS = try c.decodeIfPresent(FitCRS.self, forKey: .fitCRS)
        if c.contains(.mask) {
            if let path = try? c.decode(String.self, forKey: .mask) {
                mask = .file(path)
            } else {
                let pairs = try c.decode([[Double]].self, forKey: .mask)
                guard pairs.count >= 3, pairs.allSatisfy({ $0.count == 2 }) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .mask, in: c,
                        debugDescription:
                            "a mask is a file path or at least 3 [x, y] pixel pairs")
                }
                mask = .inline(pairs.map { PixelPoint(x: $0[0], y: $0[1]) })
            }
        }
        bounds = try c.decodeIfPresent([Double].self, forKey: .bounds)
        if let b = bounds, b.count != 4 || !(b[0] < b[2] && b[1] < b[3]) {
            throw DecodingError.dataCorruptedError(
                forKey: .bounds, in: c,
                debugDescription:
                    "bounds must be [west, south, east, north] with west < east and south < north, e.g. [-180, -90, 180, 90]")
        }
        srs = try c.decodeIfPresent(CRS.self, forKey: .srs)
        if gcps != nil && bounds != nil {
            throw DecodingError.dataCorruptedError(
                forKey: .bounds, in: c,
                debugDescription:
                    "give either gcps or bounds, not both")
        }
        if bounds != nil {
            for (key, present) in [
                (CodingKeys.transform, transform != nil), (.fitCRS, fitCRS != nil), (.gcpCRS, gcpCRS != nil),
                (.mapID, mapID != nil),
            ] where present {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: c, debugDescription: "\(key.stringValue) applies to gcps only; bounds need none")
            }
        } else if srs != nil {
            throw DecodingError.dataCorruptedError(forKey: .srs, in: c, debugDescription: "srs is the CRS of bounds; for GCPs use gcp_srs")
        } else if gcps == nil, mapID != nil {
            throw DecodingError.dataCorruptedError(
                forKey: .mapID, in: c, debugDescription: "map chooses one map of an Allmaps AnnotationPage given as gcps; give gcps too")
        }
    }
}

extension GeoreferenceSpec: Encodable {
    /// Encode (for the stage hash): files by path, inline values as written.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch gcps {
        case .file(let p): try c.encode(p, forKey: .gcps)
        case .inline(let list): try c.encode(list, forKey: .gcps)
        case .match(let reference): try c.encode(MatchSpec(reference: reference, bounds: matchBounds), forKey: .match)
        case .tiesOnly: try c.encode("none", forKey: .gcps)
        case nil: break
        }
        try c.encodeIfPresent(mapID, forKey: .mapID)
        try c.encodeIfPresent(gcpCRS, forKey: .gcpCRS)
        try c.encodeIfPresent(transform, forKey: .transform)
        try c.encodeIfPresent(fitCRS, forKey: .fitCRS)
        switch mask {
        case .file(let p): try c.encode(p, forKey: .mask)
        case .inline(let pts): try c.encode(pts.map { [$0.x, $0.y] }, forKey: .mask)
        case nil: break
        }
        try c.encodeIfPresent(bounds, forKey: .bounds)
        try c.encodeIfPresent(srs, forKey: .srs)
    }
}
