import Foundation

/// The package's root folder, found from this file's path: where the tests find the committed
/// inputs (pipelines/, Fuzz/, Tests/Goldens/), the scripts and `.venv/` (scripts/setup).
public enum PackageRoot {
    /// The root.
    public static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The path of `relative` under the root.
    public static func path(_ relative: String) -> String { url.appendingPathComponent(relative).path }
}
