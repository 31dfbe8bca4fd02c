import Foundation

/// A generated collection of map sheets (`scripts/make-collection`): scans cut from Blue Marble,
/// rotated and scaled, with perturbed GCPs, masks, `sheets.csv` and `collection.yml`.
public enum TestCollection {
    /// Debian's Python: make-collection needs python3-gdal, built against Debian's numpy 1.x; the
    /// project's `.venv` (first on PATH under scripts/test) has numpy 2 from titiler-core, with
    /// which `osgeo.gdal_array` fails to import.
    static let python = "/usr/bin/python3"

    /// Generate `sheets` sheets into `folder` (created), scans `upsample` × Blue Marble's
    /// resolution, pipeline zooms up to `maxZoom`. Returns the path of `collection.yml`.
    @discardableResult
    public static func make(in folder: String, sheets: Int, upsample: Double = 1, maxZoom: Int = 4, seed: Int = 1) throws -> String {
        try ProgramRun.output(
            python,
            [
                PackageRoot.path("scripts/make-collection"), folder, "--sheets", "\(sheets)",
                "--upsample", "\(upsample)", "--max-zoom", "\(maxZoom)", "--seed", "\(seed)",
            ])
        return folder + "/collection.yml"
    }

    /// A plan-only collection of `count` quadrangles: sparse scans (headers, no pixels).
    @discardableResult
    public static func synthetic(in folder: String, count: Int) throws -> String {
        try ProgramRun.output(python, [PackageRoot.path("scripts/make-collection"), folder, "--synthetic", "\(count)"])
        return folder + "/collection.yml"
    }
}
