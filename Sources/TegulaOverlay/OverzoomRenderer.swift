import Foundation
import TegulaCodec

/// Decodes an ancestor tile, applies an `OverzoomCrop`, and encodes the result as PNG.
enum OverzoomRenderer {
    /// The enlarged tile as PNG bytes: RGB when the crop is fully opaque, RGBA otherwise (as
    /// `tegula tile` writes them). Any PNG the decoder reads is accepted as the ancestor.
    static func render(_ ancestor: Data, crop: OverzoomCrop, path: TileOverlayPath) throws(TileOverlayError) -> Data {
        let image: RGBAImage
        do {
            image = try PNGDecoder.decode(Array(ancestor)).rgba
        } catch {
            throw .imageFailed(path: path, reason: "decoding the ancestor tile \(crop.ancestor) failed: \(error)")
        }
        let w = image.width, h = image.height
        let rgba = crop.upscale(image.pixels, width: w, height: h)
        return Data(PNGEncoder().encodeDroppingOpaqueAlpha(RGBAImage(width: w, height: h, channels: 4, pixels: rgba)))
    }
}
