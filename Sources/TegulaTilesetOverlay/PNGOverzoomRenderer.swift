import Foundation
import TegulaCodec
import TegulaOverlay

/// Overzoom through Tegula's codecs: decodes an ancestor tile (PNG, JPEG or WebP), applies an
/// `OverzoomCrop` (TegulaOverlay's), and encodes the result as PNG.
public struct PNGOverzoomRenderer: OverzoomRendering {
    /// The renderer.
    public init() {}

    /// The enlarged tile as PNG bytes: RGB when the crop is fully opaque, RGBA otherwise (as
    /// `tegula tile` writes them). Any tile the decoder reads is accepted as the ancestor.
    public func render(_ ancestor: Data, crop: OverzoomCrop, path: TileOverlayPath) throws(TileOverlayError) -> Data {
        let image: RGBAImage
        do {
            image = try TileDecoder.decode(Array(ancestor)).rgba
        } catch {
            throw .imageFailed(path: path, reason: "decoding the ancestor tile \(crop.ancestor) failed: \(error)", underlying: error)
        }
        let w = image.width, h = image.height
        let rgba = crop.upscale(image.pixels, width: w, height: h)
        return Data(PNGEncoder().encodeDroppingOpaqueAlpha(RGBAImage(width: w, height: h, channels: 4, pixels: rgba)))
    }
}
