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
}
