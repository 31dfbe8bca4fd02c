/// A warning about a source to warp, composed once here and printed by every caller (`tegula
/// warp`, `tegula tile`, a pipeline's warp stage, tiles on demand), each with its own prefix: what
/// is wrong and what the warp does about it. Warnings are not errors: the work goes on.
public enum WarpWarning: Sendable, Hashable, CustomStringConvertible {
    /// The footprint reaches beyond ±85.0511°, where Web Mercator ends; `clipped` is what the
    /// caller makes (``Product``).
    case beyondMercator(clipped: Product)
    /// The fit folds over inside the scan (``WarpSource/foldWarning``'s line).
    case foldsOver(String)

    /// What a caller makes of the source, as the warning names it.
    public enum Product: Sendable, Hashable {
        /// Tiles (`tegula tile`, tiles on demand).
        case tiles
        /// One output raster (`tegula warp`).
        case output
        /// A pipeline's warp stage.
        case warp

        /// `PRODUCT is clipped there`.
        var clippedThere: String {
            switch self {
            case .tiles: "tiles are clipped there"
            case .output: "the output is clipped there"
            case .warp: "the warp is clipped there"
            }
        }
    }

    /// The warning's one line, without a prefix.
    public var description: String {
        switch self {
        case .beyondMercator(let product): "the scan reaches beyond ±85.0511°; \(product.clippedThere)"
        case .foldsOver(let line): line
        }
    }
}

extension WarpSource {
    /// What a warp of this source warns of, in order: beyond ±85.0511°, then a fold.
    public func warnings(making product: WarpWarning.Product) -> [WarpWarning] {
        var warnings: [WarpWarning] = []
        if exceedsMercatorLimit { warnings.append(.beyondMercator(clipped: product)) }
        if let fold = foldWarning { warnings.append(.foldsOver(fold)) }
        return warnings
    }
}
