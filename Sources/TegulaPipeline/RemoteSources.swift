import Foundation

/// How a pipeline reaches maps that live on servers, given by the program that loads it (the
/// CLI's IIIF client with its cache, User-Agent and politeness): an `input:` that is an IIIF image
/// URL or a Georeference Annotation (a file or URL), and a `maps_from:` AnnotationPage by URL.
/// A pipeline loaded without it refuses such inputs in one line.
public struct RemoteSources: Sendable {
    /// The scan to read and the GCP file: an IIIF image URL with the map's own GCP file (checked
    /// against the image's size), or an annotation (with `mapID` choosing one map of a page) as
    /// its target's image service and itself (a URL's copy saved locally) as the GCPs.
    public var resolve: @Sendable (_ input: String, _ gcps: String?, _ mapID: String?) throws -> (scan: String, gcps: String?)
    /// The JSON document at `url` (an AnnotationPage), saved locally: its path.
    public var document: @Sendable (_ url: String) throws -> String

    /// Sources from the program's two functions.
    public init(resolve: @escaping @Sendable (_ input: String, _ gcps: String?, _ mapID: String?) throws -> (scan: String, gcps: String?),
                document: @escaping @Sendable (_ url: String) throws -> String) {
        self.resolve = resolve
        self.document = document
    }

    /// True when `path` is an http:// or https:// URL.
    public static func isURL(_ path: String) -> Bool {
        let lower = path.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// True when a local `input:` is a Georeference Annotation by its name (`.json`, `.jsonld`).
    static func isAnnotationFile(_ path: String) -> Bool {
        ["json", "jsonld"].contains((path as NSString).pathExtension.lowercased())
    }
}
