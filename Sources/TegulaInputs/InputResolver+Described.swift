import Foundation
import TegulaGeoreference
import TegulaIIIFSource
import TegulaSupport

/// An annotation's image as the annotation itself describes it: its id (an IIIF image service's,
/// or a GeoreferencedMap's `resource` id, URL or not), its Allmaps type and the size its GCPs are
/// in. Enough to fit, report and write a georeference without fetching a byte of the image.
public struct DescribedImage: Sendable, Hashable {
    /// The image's id as the annotation gives it.
    public var id: String
    /// `ImageService2` or `ImageService3` (the annotation's word; `ImageService3` when it says none).
    public var type: String
    /// The image size the annotation was made on.
    public var width: Int
    public var height: Int
    /// The annotation file (a path; a URL's document saved in the cache folder).
    public var annotation: String
}

extension InputResolver {
    /// `input` as an annotation whose image need not be fetched: a Georeference Annotation or
    /// GeoreferencedMap (a file, or a URL whose document is one) given without `gcps`, whose
    /// chosen map (`mapID`) names its image and says the image's size (the SVG selector's
    /// width and height, the resource's width and height). Nil for anything else (a scan, an IIIF
    /// image, an annotation that leaves the size out): those are read through
    /// ``resolve(_:gcps:mapID:)``, which fetches the image's description.
    public func described(_ input: String, gcps: String?, mapID: String?) throws -> DescribedImage? {
        guard gcps == nil else { return nil }
        let annotation: String
        switch Location(input) {
        case .url(let url):
            guard !url.hasSuffix("/info.json"), let saved = try Blocking.run({ try await self.annotationFile(url) }) else { return nil }
            annotation = saved
        case .file(let path):
            guard Self.isJSON(path) else { return nil }
            annotation = path
        }
        let target = try Self.chosen(annotation, mapID: mapID)
        guard let id = target.service, let width = target.width, let height = target.height, width > 0, height > 0 else { return nil }
        return DescribedImage(id: id, type: target.serviceType ?? "ImageService3", width: width, height: height, annotation: annotation)
    }

    /// The size the chosen map of the annotation at `path` was made on, when it says (for
    /// `tegula transform`, which reads no image); nil for any other GCP file.
    public static func annotatedSize(_ path: String, mapID: String?) throws -> (width: Int, height: Int)? {
        guard isJSON(path), let t = try? chosen(path, mapID: mapID), let w = t.width, let h = t.height, w > 0, h > 0 else { return nil }
        return (w, h)
    }
}
