import Foundation

/// Decodes an ancestor tile, applies an `OverzoomCrop`, and encodes the result as PNG.
enum OverzoomRenderer {
    /// The enlarged tile as PNG bytes.
    static func render(_ ancestor: Data, crop: OverzoomCrop, path: TileOverlayPath) throws(TileOverlayError) -> Data {
        throw .imageFailed(path: path, reason: "the PNG codec (TegulaCodec) is not available yet")
    }
}
