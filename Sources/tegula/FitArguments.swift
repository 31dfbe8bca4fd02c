import ArgumentParser
import TegulaGDAL
import TegulaGeoreference

/// How a GCP fit is made: the transform, the GCPs' CRS and the CRS the fit is made in. Shared by
/// every command that fits GCPs (`georef`, `transform`, `warp`, `tile`). The words are parsed
/// here, once, into ``FitOptions`` and a ``CRS``, with one-line errors.
struct FitArguments: ParsableArguments {
    @Option(
        help:
            "Transform: helmert, polynomial1 (affine), polynomial2, polynomial3, projective, tps, straight (Allmaps': scale and shift, no rotation). Default: the GCP file's own, else chosen by lowest leave-one-out RMSE (never straight)."
    )
    var transform: String?

    @Option(help: "CRS of the GCP coordinates when the file does not say (e.g. EPSG:4326).")
    var gcpSrs: String?

    @Option(
        help:
            "CRS to fit the transform in: `gcp` (the GCPs' own CRS, as gdalwarp), or any CRS PROJ knows. Default: the GCP file's own (an Allmaps resourceCrs), else the GCPs' CRS when it is projected (as QGIS, GDAL and Allmaps), else EPSG:3857."
    )
    var fitSrs: String?

    /// The transform and fitting CRS.
    func options() throws -> FitOptions {
        FitOptions(
            transform: try transform.map { try TransformKind.parse($0) },
            fitCRS: try fitSrs.map { try FitCRS(parsing: $0) })
    }

    /// The GCPs' CRS, when given.
    func gcpCRS() throws -> CRS? {
        try gcpSrs.map { try CRS.parse($0) }
    }
}
