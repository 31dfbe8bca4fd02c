import Foundation
import TegulaGeoreference
import TegulaIIIF
import TegulaIIIFSource
import TegulaScan
import TegulaSupport

/// A scan argument with annotations looked through (``InputResolver/resolve(_:gcps:mapID:)``):
/// the scan to read (a local path or an IIIF image service URL), the GCP file (an annotation,
/// perhaps fetched to the cache) and the image opened, for a URL.
public struct ResolvedInput: Sendable {
    /// The scan to read, a path or a URL as given.
    public var scan: String
    /// The GCP file, if any.
    public var gcps: String?
    /// The IIIF image ``scan`` names, opened; nil for a local scan.
    public var image: (any RemoteScan)?

    /// An input from its parts.
    public init(scan: String, gcps: String?, image: (any RemoteScan)? = nil) {
        self.scan = scan
        self.gcps = gcps
        self.image = image
    }
}

extension InputResolver {
    /// `input` as given beside `--gcps` and `--map`: a local raster stays as it is (a local scan
    /// beside an annotation wins); an annotation (a file, or an http(s) URL that is no IIIF image)
    /// without `gcps` becomes its target's IIIF image with itself as the GCPs, its size checked
    /// against the image's info.json; an IIIF image URL is opened, and `gcps` checked against it.
    public func resolve(_ input: String, gcps: String?, mapID: String?) async throws -> ResolvedInput {
        var annotation: String? = nil
        if case .url(let url) = Location(input) {
            if gcps == nil, !url.hasSuffix("/info.json"), let path = try await annotationFile(url) {
                annotation = path
            } else {
                let image = try await open(url: url)
                if let gcps { try Self.checkSize(annotation: gcps, mapID: mapID, image: image) }
                return ResolvedInput(scan: input, gcps: gcps, image: image)
            }
        } else if gcps == nil, Self.isJSON(input) {
            annotation = input
        }
        guard let annotation else { return ResolvedInput(scan: input, gcps: gcps) }
        let target = try Self.chosen(annotation, mapID: mapID)
        guard let service = target.service else {
            throw InputError(
                .noImageService, at: annotation,
                "the annotation's target is no IIIF image service; give the scan itself: SCAN --gcps \(annotation)")
        }
        guard Location(service).isURL else {
            throw InputError(
                .noImageService, at: annotation,
                "the annotation's image '\(service)' is named by no URL, so its pixels cannot be fetched; give the scan itself: SCAN --gcps \(annotation)"
            )
        }
        let image = try await open(url: service)
        try Self.checkSize(annotation: annotation, mapID: mapID, image: image)
        return ResolvedInput(scan: service, gcps: annotation, image: image)
    }

    /// The same, waited for on this thread (the synchronous commands' and the pipeline's).
    public func resolveBlocking(_ input: String, gcps: String?, mapID: String?) throws -> ResolvedInput {
        try Blocking.run { try await self.resolve(input, gcps: gcps, mapID: mapID) }
    }

    /// The JSON document at `url` (an AnnotationPage) saved in the cache folder, waited for on
    /// this thread: its path.
    public func document(_ url: String) throws -> String {
        let client = try client(for: url)
        return try Blocking.run { try Self.saved(try await client.document(url), of: url, client: client) }
    }

    /// A URL's JSON saved in the cache folder when it is an annotation or georeferenced map (not
    /// an image description), for the GCP reader; nil when it is an image's.
    func annotationFile(_ url: String) async throws -> String? {
        let client = try client(for: url)
        let body: [UInt8]
        do { body = try await client.document(url) } catch {
            // Not a document: an image service's id (its info.json is read next).
            return nil
        }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] else { return nil }
        if object["protocol"] as? String == "http://iiif.io/api/image" || (object["type"] as? String)?.hasPrefix("ImageService") == true {
            return nil
        }
        return try Self.saved(body, of: url, client: client)
    }

    /// A document fetched from `url` saved in the cache folder's `annotations/` (named by a
    /// digest of the URL), for the GCP reader: its path.
    static func saved(_ body: [UInt8], of url: String, client: IIIFClient) throws -> String {
        let folder = (client.cache?.folder ?? NSTemporaryDirectory()) + "/annotations"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = "\(folder)/\(FNV1a.hex(url)).json"
        try AtomicFile.write(body, to: path)
        return path
    }

    /// True when the file at `path` is JSON (an annotation, say): by its extension (`.json`,
    /// `.jsonld`, `.geojson`), else by a first character `{`.
    public static func isJSON(_ path: String) -> Bool {
        if ["json", "jsonld", "geojson"].contains((path as NSString).pathExtension.lowercased()) { return true }
        guard let h = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? h.close() }
        let head = String(decoding: h.readData(ofLength: 64), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return head.hasPrefix("{")
    }

    /// The target of the map `mapID` picks (its id or the id's last part), or of the only map.
    static func chosen(_ annotation: String, mapID: String?) throws -> AnnotationTarget {
        let targets = try AnnotationTarget.read(path: annotation)
        if let mapID {
            guard let t = targets.first(where: { $0.mapID == mapID || $0.name == mapID }) else {
                throw InputError(.noSuchMap, at: annotation, "no map '\(mapID)'; it holds \(targets.compactMap(\.mapID).joined(separator: ", "))")
            }
            return t
        }
        guard targets.count == 1 else {
            throw InputError(
                .mapNotChosen, at: annotation,
                "\(targets.count) maps (\(targets.compactMap(\.name).joined(separator: ", "))); choose one with --map ID")
        }
        return targets[0]
    }

    /// The annotation's image size against the image's: a re-scanned image is refused in one line.
    static func checkSize(annotation: String, mapID: String?, image: any RemoteScan) throws {
        guard isJSON(annotation), let target = try? chosen(annotation, mapID: mapID),
            let w = target.width, let h = target.height
        else { return }
        guard w == image.width, h == image.height else {
            throw InputError(
                .sizeMismatch, at: annotation,
                "georeferenced on an image of \(w) × \(h) pixels, but \(IIIFClient.infoURL(image.name)) "
                    + "describes \(image.width) × \(image.height) (re-scanned?); georeference the image again, or give the scan it was made on")
        }
    }
}
