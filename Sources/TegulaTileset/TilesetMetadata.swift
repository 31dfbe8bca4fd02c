import TegulaGeometry

/// Where a map opens: a position and a zoom (TileJSON `center`, MBTiles `center`).
public struct MapCenter: Hashable, Sendable {
    public var longitude: Double
    public var latitude: Double
    public var zoom: Int

    /// A centre in degrees and a zoom level.
    public init(longitude: Double, latitude: Double, zoom: Int) {
        self.longitude = longitude
        self.latitude = latitude
        self.zoom = zoom
    }
}

/// What a tileset is: the TileJSON 3.0.0 fields every bundle carries (folder `tiles.json`,
/// MBTiles `metadata` rows + `json`, PMTiles JSON metadata), plus free-form extras.
///
/// Its JSON form is the TileJSON document without `tilejson`, `tiles` and `scheme`; extra keys sit
/// at the top level beside the standard ones (see `footprintKey`, `gcpsKey`).
public struct TilesetMetadata: Hashable, Sendable, Codable {
    /// Human-readable name (TileJSON `name`, MBTiles required `name`).
    public var name: String
    /// Tile image format.
    public var format: TileFormat
    /// Area covered, degrees.
    public var bounds: GeoBounds
    /// Where a viewer opens.
    public var center: MapCenter
    /// The zoom levels with tiles (TileJSON `minzoom` and `maxzoom`).
    public var zooms: ZoomRange
    /// Tile width and height in pixels (256 or 512).
    public var tileSize: Int
    /// Pixel ratio: 2 for `@2x` tiles.
    public var scale: Int
    /// HTML attribution shown by viewers.
    public var attribution: String?
    /// Longer description.
    public var description: String?
    /// MBTiles `type`: "overlay" or "baselayer".
    public var type: String
    /// Free-form extra members (e.g. `footprint` GeoJSON polygon, `gcps` pins).
    public var extra: [String: JSONValue]

    /// Extra key holding the scan's footprint as a GeoJSON Polygon geometry (lon, lat).
    public static let footprintKey = "footprint"
    /// Extra key holding GCP pins: `[{"name", "lon", "lat", "residual_m"}]`.
    public static let gcpsKey = "gcps"

    /// Metadata with the centre defaulting to the middle of `bounds` at the lowest zoom.
    public init(
        name: String, format: TileFormat = .png, bounds: GeoBounds = .world, center: MapCenter? = nil,
        zooms: ZoomRange, tileSize: Int = 256, scale: Int = 1,
        attribution: String? = nil, description: String? = nil, type: String = "overlay",
        extra: [String: JSONValue] = [:]
    ) {
        self.name = name
        self.format = format
        self.bounds = bounds
        let c = bounds.center
        self.center = center ?? MapCenter(longitude: c.longitude, latitude: c.latitude, zoom: zooms.min)
        self.zooms = zooms
        self.tileSize = tileSize
        self.scale = scale
        self.attribution = attribution
        self.description = description
        self.type = type
        self.extra = extra
    }

    /// A GeoJSON Polygon geometry of one ring of `[lon, lat]` pairs, as ``footprintKey`` holds it.
    public static func polygon(_ ring: [[Double]]) -> JSONValue {
        .object(["type": .string("Polygon"), "coordinates": .array([.array(ring.map { .array($0.map(JSONValue.double)) })])])
    }

    /// The outer ring of the footprint polygon from `extra`, or nil when there is none.
    public var footprint: [Coordinate]? {
        guard let ring = extra[Self.footprintKey]?["coordinates"]?.arrayValue?.first?.arrayValue else { return nil }
        let pts = ring.compactMap { p -> Coordinate? in
            guard let a = p.arrayValue, a.count >= 2, let lon = a[0].doubleValue, let lat = a[1].doubleValue else { return nil }
            return Coordinate(longitude: lon, latitude: lat)
        }
        return pts.count >= 3 ? pts : nil
    }

    // MARK: JSON form

    static let reservedKeys: Set<String> = ["tilejson", "tiles", "scheme"]

    /// The JSON object form (TileJSON members without `tilejson`/`tiles`/`scheme`).
    public var jsonObject: [String: JSONValue] {
        var o = extra
        o["name"] = .string(name)
        o["format"] = .string(format.stored.rawValue)
        o["bounds"] = .array([bounds.west, bounds.south, bounds.east, bounds.north].map(JSONValue.double))
        o["center"] = .array([.double(center.longitude), .double(center.latitude), .int(center.zoom)])
        o["minzoom"] = .int(zooms.min)
        o["maxzoom"] = .int(zooms.max)
        o["tile_size"] = .int(tileSize)
        o["scale"] = .int(scale)
        o["type"] = .string(type)
        if let attribution { o["attribution"] = .string(attribution) }
        if let description { o["description"] = .string(description) }
        return o
    }

    /// Reads the JSON object form; `source` names the file in error messages.
    public init(jsonObject o: [String: JSONValue], source: String) throws {
        func bad(_ key: String, _ expected: String) -> TilesetError {
            .badMetadata(path: source, key: key, expected: expected)
        }
        guard let format = o["format"]?.stringValue.flatMap(TileFormat.init(name:)) else {
            throw bad("format", "png, jpg, webp or auto")
        }
        guard let min = o["minzoom"]?.intValue, let max = o["maxzoom"]?.intValue, let zooms = ZoomRange(min: min, max: max) else {
            throw bad("minzoom/maxzoom", "integers with 0 ≤ minzoom ≤ maxzoom ≤ \(WebMercator.maxZoom)")
        }
        var bounds = GeoBounds.world
        if let b = o["bounds"] {
            guard let a = b.arrayValue?.compactMap(\.doubleValue), a.count == 4 else {
                throw bad("bounds", "[west, south, east, north] in degrees")
            }
            bounds = GeoBounds(west: a[0], south: a[1], east: a[2], north: a[3])
        }
        var center: MapCenter?
        if let c = o["center"] {
            // `Int(exactly:)`: a zoom of 4e96 trapped `Int(_:)` (Fuzz/Crashes/tilejson/center-zoom-past-int-max).
            guard let a = c.arrayValue?.compactMap(\.doubleValue), a.count == 3,
                let zoom = Int(exactly: a[2].rounded()), (0...WebMercator.maxZoom).contains(zoom)
            else {
                throw bad("center", "[longitude, latitude, zoom], the zoom 0…\(WebMercator.maxZoom)")
            }
            center = MapCenter(longitude: a[0], latitude: a[1], zoom: zoom)
        }
        var extra = o
        for k in [
            "name", "format", "bounds", "center", "minzoom", "maxzoom", "tile_size", "scale", "type",
            "attribution", "description",
        ] { extra[k] = nil }
        for k in Self.reservedKeys { extra[k] = nil }
        self.init(
            name: o["name"]?.stringValue ?? "", format: format, bounds: bounds, center: center,
            zooms: zooms, tileSize: o["tile_size"]?.intValue ?? 256,
            scale: o["scale"]?.intValue ?? 1, attribution: o["attribution"]?.stringValue,
            description: o["description"]?.stringValue, type: o["type"]?.stringValue ?? "overlay",
            extra: extra)
    }

    /// Decodes the JSON object form.
    public init(from decoder: Decoder) throws {
        guard let o = try JSONValue(from: decoder).objectValue else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "expected an object"))
        }
        try self.init(jsonObject: o, source: "JSON")
    }

    /// Encodes the JSON object form.
    public func encode(to encoder: Encoder) throws { try JSONValue.object(jsonObject).encode(to: encoder) }

    /// The TileJSON 3.0.0 document for this tileset with the given tile URL templates.
    public func tileJSON(tiles: [String], scheme: TileOrigin = .topLeft) -> [UInt8] {
        var o = jsonObject
        o["tilejson"] = .string("3.0.0")
        o["tiles"] = .array(tiles.map(JSONValue.string))
        o["scheme"] = .string(scheme.name)
        return JSONValue.object(o).serialized()
    }
}

extension TilesetMetadata {
    /// The lowest zoom with tiles, as apps read it before ``zooms`` held the range.
    @available(*, deprecated, message: "use zooms.min")
    public var minZoom: Int { zooms.min }

    /// The highest zoom with tiles, as apps read it before ``zooms`` held the range.
    @available(*, deprecated, message: "use zooms.max")
    public var maxZoom: Int { zooms.max }
}
