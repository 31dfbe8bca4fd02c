import Foundation

/// A tile grid in any CRS: an OGC Two Dimensional Tile Matrix Set 2.0 (OGC 17-083r4), decoded from
/// and encoded to its JSON form (`tileMatrixSet.json`). Its levels (``TileMatrix``) are indexed by
/// zoom; tiles are numbered from each level's corner of origin, columns left to right.
///
/// The grid functions (tile of a point, bounds of a tile, tiles covering a box, parent and
/// children) are in `TileMatrixSet+Tiles.swift` and work in the set's CRS (``GridPoint``, x/y
/// order); the built-in sets are in `TileMatrixSet+BuiltIn.swift`. morecantile is the oracle.
public struct TileMatrixSet: Codable, Hashable, Sendable {
    /// The set's identifier, e.g. `WebMercatorQuad`.
    public var id: String
    /// A title for people.
    public var title: String?
    /// The set's registered URI, for the OGC's well-known sets.
    public var uri: String?
    /// The CRS, as a URI (`http://www.opengis.net/def/crs/EPSG/0/3857`, `urn:ogc:def:crs:EPSG::2193`).
    public private(set) var crs: String
    /// The CRS's axes in order (`["Lat", "Lon"]`): says whether points are given northing first.
    public private(set) var orderedAxes: [String]?
    /// The well-known scale set it follows, if any.
    public var wellKnownScaleSet: String?
    /// The levels, sorted by zoom, consecutive.
    public private(set) var tileMatrices: [TileMatrix]
    /// The first zoom (the first level's id), kept so that the grid functions parse no id.
    public let minZoom: Int
    /// True when the CRS gives the northing (or latitude) first: `orderedAxes` starting with Y,
    /// Lat or N (morecantile `ordered_axis_inverted`), or, with none, an EPSG:4326 CRS. Kept, like
    /// ``minZoom``, so that the grid functions compare no text.
    public let northingFirst: Bool
    /// Each level's numbers as the grid functions read them (``LevelGrid``), worked out once here.
    let levelGrids: [LevelGrid]

    /// The document's keys (``minZoom`` is derived, not written).
    enum CodingKeys: String, CodingKey {
        case id, title, uri, crs, orderedAxes, wellKnownScaleSet, tileMatrices
    }

    /// Why a document is not a tile matrix set Tegula can use, in one line. Self-contained, as a
    /// type of a library product (like ``ZoomSpec/Failure``).
    public struct Failure: Error, CustomStringConvertible, Sendable, Equatable {
        /// The kinds of Failure.
        public enum Reason: String, Sendable, Hashable {
            /// Not JSON, or not a TMS 2.0 document.
            case malformed
            /// A level whose id is not an integer zoom, or zooms that are not consecutive.
            case zoomIdentifiers
            /// A built-in name that does not exist (and, for an argument, no such file either).
            case unknownName
            /// A file named as a set that cannot be read.
            case unreadableFile
            /// A zoom the set does not have.
            case zoomOutOfRange
        }

        /// Which kind of failure.
        public var reason: Reason
        /// What was wrong and what would be right.
        public var description: String
    }

    /// A set from its fields; the levels are sorted by zoom and checked as ``init(json:)`` does.
    public init(
        id: String, title: String? = nil, uri: String? = nil, crs: String, orderedAxes: [String]? = nil,
        wellKnownScaleSet: String? = nil, tileMatrices: [TileMatrix]
    ) throws {
        self.id = id
        self.title = title
        self.uri = uri
        self.crs = crs
        self.orderedAxes = orderedAxes
        self.wellKnownScaleSet = wellKnownScaleSet
        self.tileMatrices = try Self.sortedByZoom(tileMatrices)
        minZoom = Int(self.tileMatrices[0].id)!
        northingFirst = Self.northingFirst(orderedAxes: orderedAxes, crs: crs)
        levelGrids = LevelGrid.all(self.tileMatrices, northingFirst: northingFirst)
    }

    /// A set read from a TMS 2.0 JSON document; the `crs` must be a URI string or `{"uri": …}`.
    public init(json: Data) throws {
        do {
            self = try JSONDecoder().decode(TileMatrixSet.self, from: json)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(
                reason: .malformed,
                description: "not a TMS 2.0 tile matrix set (\(Self.decodingSummary(error))): "
                    + "expected an object with id, crs (a URI) and tileMatrices")
        }
    }

    /// Decodes the JSON form (a set without an id, which TMS 2.0 allows, is called `Custom`), checking the levels as ``init(id:title:uri:crs:orderedAxes:wellKnownScaleSet:tileMatrices:)`` does.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            id: try c.decodeIfPresent(String.self, forKey: .id) ?? "Custom", title: try c.decodeIfPresent(String.self, forKey: .title),
            uri: try c.decodeIfPresent(String.self, forKey: .uri), crs: try c.decode(CRSField.self, forKey: .crs).uri,
            orderedAxes: try c.decodeIfPresent([String].self, forKey: .orderedAxes),
            wellKnownScaleSet: try c.decodeIfPresent(String.self, forKey: .wellKnownScaleSet),
            tileMatrices: try c.decode([TileMatrix].self, forKey: .tileMatrices))
    }

    /// The document's `crs`: a URI, or an object holding one (`{"uri": …}`); a CRS given only as
    /// WKT or PROJJSON is refused, since this module has no PROJ to read it.
    struct CRSField: Decodable {
        var uri: String
        private struct Object: Decodable { var uri: String }

        init(from decoder: Decoder) throws {
            if let text = try? decoder.singleValueContainer().decode(String.self) {
                uri = text
            } else {
                uri = try Object(from: decoder).uri
            }
        }
    }

    // MARK: Zooms and axes

    /// The last zoom.
    public var maxZoom: Int { minZoom + tileMatrices.count - 1 }
    /// Every zoom the set has.
    public var zooms: ClosedRange<Int> { minZoom...maxZoom }

    /// The level at `zoom`, or a ``Failure`` naming the zooms there are.
    public func matrix(zoom: Int) throws -> TileMatrix {
        guard zooms.contains(zoom) else {
            throw Failure(reason: .zoomOutOfRange, description: "\(id) has zooms \(minZoom)–\(maxZoom), not \(zoom)")
        }
        return tileMatrices[zoom - minZoom]
    }

    /// The level at `zoom`, which the caller knows the set has.
    func level(_ zoom: Int) -> TileMatrix {
        precondition(zooms.contains(zoom), "\(id) has zooms \(minZoom)–\(maxZoom), not \(zoom)")
        return tileMatrices[zoom - minZoom]
    }

    /// Whether axes so ordered (or, with none, this CRS) give the northing first.
    static func northingFirst(orderedAxes: [String]?, crs: String) -> Bool {
        guard let first = orderedAxes?.first else { return crs.hasSuffix("/EPSG/0/4326") || crs.hasSuffix("EPSG::4326") }
        return ["Y", "LAT", "N"].contains(first.uppercased())
    }

    /// A level's point of origin in x/y order (the document holds it in the CRS's axis order).
    public func origin(of m: TileMatrix) -> GridPoint {
        let p = m.pointOfOrigin
        return northingFirst ? GridPoint(x: p[1], y: p[0]) : GridPoint(x: p[0], y: p[1])
    }

    // MARK: Checks

    /// The levels sorted by zoom, each id an integer and the zooms consecutive.
    static func sortedByZoom(_ levels: [TileMatrix]) throws -> [TileMatrix] {
        guard !levels.isEmpty else { throw Failure(reason: .malformed, description: "tileMatrices is empty: a set needs at least one level") }
        for m in levels where Int(m.id) == nil || m.pointOfOrigin.count != 2 {
            throw Failure(
                reason: .zoomIdentifiers, description: "tile matrix '\(m.id)' needs an integer id (its zoom) and a two-number pointOfOrigin")
        }
        let sorted = levels.sorted { Int($0.id)! < Int($1.id)! }
        for (a, b) in zip(sorted, sorted.dropFirst()) where Int(b.id)! != Int(a.id)! + 1 {
            throw Failure(reason: .zoomIdentifiers, description: "tile matrices \(a.id) and \(b.id) are not consecutive zooms")
        }
        return sorted
    }

    /// A decoding error in a few words (the key path and what was wrong).
    static func decodingSummary(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "no '\(key.stringValue)'"
        case DecodingError.typeMismatch(_, let c), DecodingError.valueNotFound(_, let c):
            return "'\(c.codingPath.map(\.stringValue).joined(separator: "."))': \(c.debugDescription)"
        case DecodingError.dataCorrupted(let c): return c.debugDescription
        default: return "\(error)"
        }
    }
}
