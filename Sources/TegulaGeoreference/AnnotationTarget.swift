import Foundation

/// The image a Georeference Annotation or GeoreferencedMap is drawn on: its IIIF image service
/// and the size the georeference was made at. Read in the four forms Allmaps' own inputs use:
/// `target.source` an image URL string with the service in `target.service[0]` (`@id` or `id`);
/// `target.source` an object `{id, type: ImageService2|ImageService3, width, height}`;
/// a GeoreferencedMap's `resource` (version 2) or `image` (version 1, `uri`) of that shape.
/// A width or height missing there is taken from the SVG selector's `<svg width height>`.
public struct AnnotationTarget: Sendable, Hashable {
    /// The map's id (the annotation's or map's `id`), when it has one.
    public var mapID: String?
    /// The IIIF image service's id (no `/info.json`); nil when the target names no service. A
    /// GeoreferencedMap's `resource` id is taken as it is, whether a URL or not.
    public var service: String?
    /// The service's Allmaps type, `ImageService2` or `ImageService3`, as the annotation names it
    /// (its `type`, else its `profile`'s API version); nil when it does not say.
    public var serviceType: String?
    /// The image size the GCPs are in, when the annotation says.
    public var width: Int?
    public var height: Int?

    /// The map's name: the last path component of its id (`…/maps/a1db818f` → `a1db818f`).
    public var name: String? {
        mapID.flatMap { $0.split(separator: "/").last.map(String.init) }
    }

    /// The targets of every map in the file at `path` (one for an annotation or a map, one per
    /// item of an AnnotationPage), in order.
    public static func read(path: String) throws -> [AnnotationTarget] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw GeoreferenceError(.unreadableFile, at: path, "cannot read the annotation (no such file or no permission)")
        }
        return try parse(data, source: path)
    }

    /// The targets of every map in `data` (see ``read(path:)``); `source` names it in errors.
    public static func parse(_ data: Data, source: String) throws -> [AnnotationTarget] {
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw GeoreferenceError(.unknownFormat, at: source, "not a JSON object; expected a Georeference Annotation or GeoreferencedMap")
        }
        let maps = (root["items"] as? [[String: Any]]) ?? [root]
        return maps.map(target(of:))
    }

    static func target(of map: [String: Any]) -> AnnotationTarget {
        var t = AnnotationTarget(mapID: map["id"] as? String ?? map["@id"] as? String)
        let target = map["target"] as? [String: Any]
        if let resource = (map["resource"] ?? map["image"]) as? [String: Any] {
            t.service = resource["id"] as? String ?? resource["@id"] as? String ?? resource["uri"] as? String
            t.serviceType = serviceType(of: resource)
            (t.width, t.height) = (int(resource["width"]), int(resource["height"]))
        } else if let source = target?["source"] as? [String: Any] {
            let type = source["type"] as? String ?? source["@type"] as? String ?? ""
            if type.hasPrefix("ImageService") || type.hasPrefix("iiif:Image") {
                t.service = source["id"] as? String ?? source["@id"] as? String
                t.serviceType = serviceType(of: source)
            }
            (t.width, t.height) = (int(source["width"]), int(source["height"]))
        } else if target?["source"] is String, let services = target?["service"] as? [[String: Any]], let first = services.first {
            t.service = first["@id"] as? String ?? first["id"] as? String
            t.serviceType = serviceType(of: first)
        }
        if t.width == nil || t.height == nil,
            let selector = target?["selector"] as? [String: Any], let svg = selector["value"] as? String
        {
            t.width = t.width ?? attribute("width", in: svg)
            t.height = t.height ?? attribute("height", in: svg)
        }
        return t
    }

    /// `ImageService2` or `ImageService3` from a service's `type` (`@type`) or its `profile`'s
    /// API version (`…/image/2/level1.json`); nil when neither says.
    static func serviceType(of service: [String: Any]) -> String? {
        let type = service["type"] as? String ?? service["@type"] as? String ?? ""
        if type.hasSuffix("ImageService2") || type.hasSuffix("ImageService3") { return String(type.suffix(13)) }
        let profiles = (service["profile"] as? [Any] ?? [service["profile"] as Any]).compactMap { $0 as? String }
        if profiles.contains(where: { $0.contains("/image/2/") }) { return "ImageService2" }
        if profiles.contains(where: { $0.contains("/image/3/") }) { return "ImageService3" }
        return nil
    }

    static func int(_ v: Any?) -> Int? {
        (v as? NSNumber).map { $0.intValue }
    }

    /// `name="123"` of the first `<svg …>` tag.
    static func attribute(_ name: String, in svg: String) -> Int? {
        guard let open = svg.range(of: "<svg"), let close = svg[open.upperBound...].firstIndex(of: ">") else { return nil }
        let tag = svg[open.upperBound..<close]
        for quote in ["\"", "'"] {
            if let r = tag.range(of: " \(name)=\(quote)") {
                let rest = tag[r.upperBound...]
                if let end = rest.firstIndex(of: Character(quote)) { return Int(rest[..<end]) }
            }
        }
        return nil
    }
}
