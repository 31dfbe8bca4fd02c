import Foundation

/// A map series made by `scripts/make-series`: sheets cut from Blue Marble warped to
/// EPSG:3857 at the max zoom's resolution, GCPs moved by a stated error, ties at the shared
/// corners, and `truth.json`.
public enum MadeSeries {
    /// Generate a `cols` × `rows` series into `folder`; `extra` are further make-series options.
    /// Returns the path of `series.yml`.
    @discardableResult
    public static func make(
        in folder: String, cols: Int = 4, rows: Int = 4, cell: Int = 160, gcpError: Double = 4,
        maxZoom: Int = 7, extra: [String] = []
    ) throws -> String {
        try ProgramRun.output(
            TestCollection.python,
            [
                PackageRoot.path("scripts/make-series"), folder, "--cols", "\(cols)", "--rows", "\(rows)",
                "--cell", "\(cell)", "--overlap", "12", "--collar", "10", "--gcp-error", "\(gcpError)",
                "--max-zoom", "\(maxZoom)",
            ] + extra)
        return folder + "/series.yml"
    }

    /// Append `text` (YAML) to a generated pipeline.
    public static func append(_ text: String, to file: String) throws {
        let h = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        try h.seekToEnd()
        try h.write(contentsOf: Data(text.utf8))
        try h.close()
    }

    /// The pipeline file with its `ties:` (and `tie_weight:`) removed: every sheet fitted alone.
    public static func untied(_ file: String) throws -> String {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let kept = text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("ties:") && !$0.hasPrefix("tie_weight:") && !$0.hasPrefix("  - [") }
        let out = (file as NSString).deletingPathExtension + "-untied.yml"
        try kept.joined(separator: "\n").write(toFile: out, atomically: true, encoding: .utf8)
        return out
    }
}
