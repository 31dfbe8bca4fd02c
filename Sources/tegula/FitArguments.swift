import ArgumentParser

/// How a GCP fit is made: the transform, the GCPs' CRS and the CRS the fit is made in. Shared by
/// every command that fits GCPs (`georef`, `transform`, `warp`, `tile`).
struct FitArguments: ParsableArguments {
    @Option(help: "Transform: helmert, polynomial1 (affine), polynomial2, polynomial3, projective, tps. Default: chosen by lowest leave-one-out RMSE.")
    var transform: String?

    @Option(help: "CRS of the GCP coordinates when the file does not say (e.g. EPSG:4326).")
    var gcpSrs: String?

    @Option(help: "CRS to fit the transform in: EPSG:3857 (default), `gcp` (the GCPs' own CRS, as gdalwarp), or any CRS PROJ knows.")
    var fitSrs: String?
}
