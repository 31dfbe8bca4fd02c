import Foundation
import TegulaFetch
import TegulaGeometry
import TegulaGeoreference
import TegulaIIIFSource
import TegulaMatch
import TegulaScan
import TegulaSupport
import TegulaTileset
import TegulaWarp

/// What a match reference is given with besides its name: the GCP file of a plain scan, and the
/// area a bare XYZ template is read over.
public struct ReferenceOptions: Sendable, Hashable {
    /// The reference's GCP file, when it is a plain scan.
    public var gcpFile: String?
    /// The area the scan shows, in degrees, for a bare XYZ URL template (which says no bounds).
    public var bounds: GeoBounds?

    /// Options from their parts.
    public init(gcpFile: String? = nil, bounds: GeoBounds? = nil) {
        self.gcpFile = gcpFile
        self.bounds = bounds
    }
}

/// What is wrong with the bounds given with a reference, if anything: a bare XYZ URL template
/// says no bounds, so it needs them; any other reference (a file, a tileset, a TileJSON, an
/// annotation) carries its own georeference, so bounds given with it would go unused. The one
/// rule both front ends word in their own terms (`--reference-bounds`, `reference_bounds`).
public enum ReferenceBoundsProblem: Sendable, Equatable {
    /// A bare template without bounds.
    case missing
    /// Bounds with a reference that is no bare template.
    case unused

    /// The problem of `reference` given with `bounds`; nil when there is none.
    public init?(reference: String, bounds: GeoBounds?) {
        let template = Location(reference).isURL && TemplateTiles.isTemplate(reference)
        switch (template, bounds != nil) {
        case (true, false): self = .missing
        case (false, true): self = .unused
        default: return nil
        }
    }
}

extension InputResolver {
    /// The reference `ref` names, opened for matching a scan of `scanWidth` × `scanHeight`
    /// pixels: the one place the kinds of reference are told apart (`tegula match --reference`,
    /// a pipeline's `georeference.match`). A tileset (a folder with `tiles.json`, an MBTiles, a
    /// PMTiles, a TileJSON URL, a bare XYZ URL template over ``ReferenceOptions/bounds``) is read
    /// at the zoom nearest the scan's pixels; a Georeference Annotation (a file or URL) as its
    /// IIIF image with its GCPs; anything else as an image GDAL reads, with a geotransform or GCPs.
    public func reference(_ ref: String, options: ReferenceOptions = ReferenceOptions(), scanWidth: Int, scanHeight: Int) throws -> MatchReference {
        try checkBounds(ref, options)
        if let annotation = try annotation(of: ref, options) { return try fittedReference(ref, annotation: annotation) }
        switch Location(ref) {
        case .url(let url):
            if TemplateTiles.isTemplate(url), let bounds = options.bounds {
                let zoom = MatchReference.bestZoom(
                    bounds: WebMercator.project(bounds), tilePixels: 256, zooms: 0...TemplateTiles.deepestZoom,
                    scanPixels: Double(scanWidth) * Double(scanHeight))
                let template = try TemplateTiles.template(url, bounds: bounds, zoom: zoom, fetcher: try fetcher(for: ref))
                return try tiles(template, ref, options, scanWidth, scanHeight)
            }
            return try tiles(TemplateTiles.tileJSON(url, fetcher: try fetcher(for: ref)), ref, options, scanWidth, scanHeight)
        case .file(let path):
            if Tileset.isReadable(at: path) {
                return try tiles(try Tileset.openReader(at: path), ref, options, scanWidth, scanHeight)
            }
            return try MatchReference.image(at: path, gcpFile: options.gcpFile, reader: try open(path).reader())
        }
    }

    /// The IIIF image and the GCP file of a reference that is a Georeference Annotation (a file
    /// or URL, resolved as ``resolve(_:gcps:mapID:)`` resolves an input); nil for any other kind
    /// of reference. What `tegula edit --reference` warps to show such a reference as a layer.
    public func annotatedImage(_ ref: String, options: ReferenceOptions = ReferenceOptions()) throws -> ResolvedInput? {
        guard let annotation = try annotation(of: ref, options) else { return nil }
        let resolved = try resolveBlocking(annotation, gcps: nil, mapID: nil)
        return resolved.gcps == nil ? nil : resolved
    }

    /// The annotation file `ref` is (a URL's saved in the cache), when it is one: a JSON file
    /// given without a GCP file that is no tileset, or a URL that is neither a template nor a
    /// TileJSON.
    func annotation(of ref: String, _ options: ReferenceOptions) throws -> String? {
        switch Location(ref) {
        case .url(let url):
            return TemplateTiles.isTemplate(url) ? nil : try annotationReference(url)
        case .file(let path):
            return options.gcpFile == nil && !Tileset.isReadable(at: path) && Self.isJSON(path) ? path : nil
        }
    }

    /// Refuses a bare template without `--reference-bounds`, and the bounds with any other
    /// reference (``ReferenceBoundsProblem``).
    func checkBounds(_ ref: String, _ options: ReferenceOptions) throws {
        switch ReferenceBoundsProblem(reference: ref, bounds: options.bounds) {
        case .missing?:
            throw InputError(
                .badReference, at: ref,
                "a URL template says no bounds; give the area the scan shows "
                    + "(--reference-bounds WEST,SOUTH,EAST,NORTH in degrees), or the tileset's TileJSON URL")
        case .unused?:
            throw InputError(
                .badReference, at: ref,
                "--reference-bounds is only for a bare XYZ URL template ({z}/{x}/{y}); this reference carries its own georeference: leave it out")
        case nil: return
        }
    }

    /// A tileset reference, read at its best zoom; GCPs beside it are refused.
    func tiles(_ tiles: any TileReader, _ ref: String, _ options: ReferenceOptions, _ scanWidth: Int, _ scanHeight: Int) throws -> MatchReference {
        if let gcps = options.gcpFile {
            throw InputError(.badReference, at: ref, "a tileset, georeferenced by its tile grid; GCPs (\(gcps)) are for a plain scan only")
        }
        return try MatchReference.tileset(tiles, name: ref, scanWidth: scanWidth, scanHeight: scanHeight)
    }

    /// The annotation a reference URL is, saved in the cache; nil for a URL that is no annotation
    /// (a TileJSON, an image's info.json).
    func annotationReference(_ url: String) throws -> String? {
        guard readsRemote, !url.hasSuffix("/info.json"),
            let saved = try Blocking.run({ try await self.annotationFile(url) })
        else { return nil }
        // A TileJSON is JSON too, and no annotation.
        let tileJSON = (try? JSONValue.parse(Array(FileManager.default.contents(atPath: saved) ?? Data())))?.objectValue?["tiles"] != nil
        return tileJSON ? nil : saved
    }

    /// A Georeference Annotation's IIIF image (``resolve(_:gcps:mapID:)``) as the reference, its
    /// pixels through this resolver and its ground through the fit of the annotation's GCPs.
    func fittedReference(_ ref: String, annotation: String) throws -> MatchReference {
        let resolved = try resolveBlocking(annotation, gcps: nil, mapID: nil)
        guard let gcps = resolved.gcps,
            let fitted = try WarpInput(path: resolved.scan, gcpFile: gcps).georeference(opening: self)
        else {
            throw InputError(.badReference, at: ref, "the annotation holds no GCPs; give a georeferenced annotation, image or tileset")
        }
        return MatchReference.fitted(fitted, reader: try open(resolved.scan).reader(), name: ref)
    }
}
