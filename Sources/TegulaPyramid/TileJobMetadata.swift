import TegulaBundle
import TegulaGeoreference

extension TileJob {
    /// Store GCP pins in the tileset metadata (`gcps`: name, lon, lat, residual_m) for viewers.
    public mutating func addGCPPins(_ pins: [GCPPin]) {
        guard !pins.isEmpty else { return }
        extra[TilesetMetadata.gcpsKey] = .array(pins.map { p in
            .object(["name": .string(p.name), "lon": .double(p.longitude), "lat": .double(p.latitude),
                     "residual_m": .double(p.residualMetres)])
        })
    }

    /// Use this outline (`[lon, lat]` ring, e.g. a GCP fit's mask footprint) as the tileset's
    /// footprint instead of the source raster's border.
    public mutating func setFootprint(_ ring: [[Double]]) {
        guard ring.count >= 4 else { return }
        extra[TilesetMetadata.footprintKey] = .object(["type": .string("Polygon"),
                                                       "coordinates": .array([.array(ring.map { .array($0.map(JSONValue.double)) })])])
    }
}
