import TegulaGDAL

/// How to fit a georeference: which transform, and in which CRS.
public struct FitOptions: Sendable, Hashable, Codable {
    /// The transform to fit; nil = the file's hint (Allmaps), else chosen by ``Georeferencer/choiceRule``.
    public var transform: TransformKind?
    /// The CRS to fit in; nil = EPSG:3857.
    public var fitCRS: FitCRS?

    /// Options from their parts; all defaults = choose the transform, fit in EPSG:3857.
    public init(transform: TransformKind? = nil, fitCRS: FitCRS? = nil) {
        self.transform = transform
        self.fitCRS = fitCRS
    }

    /// The fitting CRS for GCPs in `gcpCRS`.
    public func resolvedFitCRS(gcpCRS: CRS) -> CRS {
        (fitCRS ?? .webMercator).resolved(gcpCRS: gcpCRS)
    }
}
