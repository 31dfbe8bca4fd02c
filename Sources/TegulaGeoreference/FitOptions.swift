/// How to fit a georeference: which transform, and in which CRS.
///
/// The fitting CRS changes the map (reference §3, "Where peers fit"), so it is an explicit,
/// reported choice: EPSG:3857 by default (as Allmaps), `gcp` for the GCPs' own CRS (as gdalwarp).
public struct FitOptions: Sendable, Hashable, Codable {
    /// The transform to fit; nil = the file's hint (Allmaps), else chosen by ``Georeferencer/choiceRule``.
    public var transform: TransformKind?
    /// nil = the GCP file's (Allmaps `resourceCrs`), else "EPSG:3857"; "gcp" = the GCPs' own
    /// CRS; else any definition PROJ reads.
    public var fitSRS: String?

    /// Options from their parts; all defaults = choose the transform, fit in EPSG:3857.
    public init(transform: TransformKind? = nil, fitSRS: String? = nil) {
        self.transform = transform
        self.fitSRS = fitSRS
    }

    /// The fitting CRS definition for GCPs in `gcpSRS`; `fileHint` is the one their file names.
    public func resolvedFitSRS(gcpSRS: String, fileHint: String? = nil) -> String {
        guard let f = fitSRS?.trimmingCharacters(in: .whitespaces), !f.isEmpty else { return fileHint ?? "EPSG:3857" }
        return f.lowercased() == "gcp" ? gcpSRS : f
    }
}
