/// The stages of a map, in order.
public enum Stage: String, Sendable, CaseIterable, Codable {
    case georeference, warp, tile
}
