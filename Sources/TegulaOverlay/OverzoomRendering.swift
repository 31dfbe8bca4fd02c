import Foundation

/// Makes an overzoomed tile from its native ancestor's bytes: decode, ``OverzoomCrop/upscale(_:width:height:)``,
/// encode. Image codecs live outside this module, so an overlay on a URL template links none:
/// TegulaTilesetOverlay's `PNGOverzoomRenderer` is one, set as ``TileOverlay/overzoomRenderer``.
public protocol OverzoomRendering: Sendable {
    /// The enlarged tile's bytes for `crop` of the `ancestor` tile's bytes; a failure throws a
    /// ``TileOverlayError`` for `path` with the reason ``TileOverlayErrorReason/imageFailed``.
    func render(_ ancestor: Data, crop: OverzoomCrop, path: TileOverlayPath) throws(TileOverlayError) -> Data
}
