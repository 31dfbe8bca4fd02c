import TegulaSupport

/// An input that cannot be looked through to a scan: an annotation whose target is no IIIF image,
/// a map that is not there or not chosen, an annotation made on another size of image; one line
/// naming the annotation, what was wrong and what would be right.
public typealias InputError = LocatedError<InputErrorReason>

/// The kinds of ``InputError``.
public enum InputErrorReason: String, Sendable, Hashable {
    /// The annotation's target is no IIIF image service.
    case noImageService
    /// `--map` (`georeference.map`) names no map of the annotation.
    case noSuchMap
    /// The annotation holds several maps and none was chosen.
    case mapNotChosen
    /// The annotation was made on an image of another size than the service describes.
    case sizeMismatch
    /// A URL given as a tileset answers no TileJSON (or a tile of it fails).
    case notATileset
    /// A match reference that cannot be used as given (a bare URL template without bounds, GCPs
    /// beside a tileset, an IIIF image without an annotation).
    case badReference
}
