/// How to fit a georeference: which transform, and in which CRS.
public struct FitOptions: Sendable, Hashable, Codable {
    /// The transform to fit; nil = the file's hint (Allmaps), else chosen by ``Georeferencer/choiceRule``.
    public var transform: TransformKind?
    /// The CRS to fit in; nil = the file's hint, else the GCPs' own CRS when projected, else EPSG:3857 (``GCPSet/fitCRSChoice(given:)``).
    public var fitCRS: FitCRS?

    /// Options from their parts; all defaults = the file's hints, else choose the transform and fit in EPSG:3857.
    public init(transform: TransformKind? = nil, fitCRS: FitCRS? = nil) {
        self.transform = transform
        self.fitCRS = fitCRS
    }
}
