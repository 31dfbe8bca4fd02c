import Foundation

/// The id under which Tegula's servers serve what they opened — a tileset, a scan, an annotation
/// or a IIIF image — from the path or URL it was opened from: the one rule behind `tegula serve`'s
/// catalogue, tiles on demand, the editor's scan pane and the IIIF Image server.
///
/// The id is the location's last path segment: of a URL its path's (percent-decoded, the query
/// left out), a final `info.json` skipped (a IIIF image is named by its folder), `.` or nothing
/// naming the current folder; then its extension goes, unless `keepsExtension` says it is part
/// of the name (a tileset folder called `maps.v2` keeps it).
public enum ServedID {
    /// The id of `location`: `maps/Old Map.pmtiles` → `Old Map`, `scans/1689.tif` → `1689`,
    /// `https://annotations.allmaps.org/maps/a1db818f` → `a1db818f`, `…/scan/info.json` → `scan`,
    /// `https://host/a.pmtiles?X-Amz-Expires=60` → `a`.
    public static func of(_ location: String, keepsExtension: (String) -> Bool = { _ in false }) -> String {
        var segments = pathSegments(of: location)
        if segments.count > 1, segments.last == "info.json" { segments.removeLast() }
        guard let last = segments.last, last != "." else { return currentFolderName }
        let ext = (last as NSString).pathExtension
        return ext.isEmpty || keepsExtension(ext) ? last : (last as NSString).deletingPathExtension
    }

    /// The non-empty segments of a path, or of a URL's path (of the whole URL when its path has none).
    static func pathSegments(of location: String) -> [String] {
        let whole = location.split(separator: "/").map(String.init)
        guard Location(location).isURL, let path = URLComponents(string: location)?.path else { return whole }
        let segments = path.split(separator: "/").map(String.init)
        return segments.isEmpty ? whole : segments
    }

    /// The current folder's name, for a location that is `.` or empty.
    static var currentFolderName: String {
        (FileManager.default.currentDirectoryPath as NSString).lastPathComponent
    }
}
