import Foundation
import HTTPTypes
import TegulaBundle
import TegulaIIIF

/// Rasters served as IIIF Image API 3.0 services, level 1 and more (`tegula serve`):
/// `/iiif/{id}` redirects to `/iiif/{id}/info.json`; `/iiif/{id}/{region}/{size}/0/default.{jpg|png|webp}`
/// answers any region (`full`, `square`, `x,y,w,h`, `pct:`) at any size (`max`, `w,`, `,h`,
/// `w,h`, `!w,h`, `pct:`; above the region only after `^`) up to ``ServerConfiguration/imageMaxArea``
/// pixels. The request grammar and `info.json` are ``TegulaIIIF``'s; the pixels are the source's.
extension TileService {
    /// The compliance level claimed: everything level 1 needs, plus what `extraFeatures` lists.
    static let iiifLevel = IIIFComplianceLevel.level1
    /// The features beyond level 1 answered here (Image API 3.0 §5.3).
    static let iiifExtraFeatures: Set<IIIFFeature> = [.regionByPct, .sizeByPct, .sizeByConfinedWh, .sizeUpscaling,
                                                      .profileLinkHeader, .canonicalLinkHeader]
    /// The formats answered: JPEG (level 1's own), PNG and WebP.
    static let iiifFormats: [IIIFFormat] = [.jpg, .png, .webp]
    /// The side of the tiles `info.json` lists (512, as iiif_testserver.py and most servers use).
    static let iiifTileSide = 512
    /// `Link` (RFC 8288), which swift-http-types does not name.
    static let link = HTTPField.Name("Link")!

    /// The synchronous answer to an IIIF route: the window rendered on this thread.
    func iiif(_ id: String, _ path: Route.IIIFPath, _ request: ServerRequest) -> ServerResponse {
        switch iiifWindow(id, path, request) {
        case let .answer(r): return r
        case let .render(source, window, tag, canonical):
            let made: DynamicTile
            let start = Date()
            do { made = .image(try source.render(window), version: source.version, seconds: Date().timeIntervalSince(start)) } catch {
                made = .failed("\(error)")
            }
            return iiifImage(id, window, made, tag: tag, canonical: canonical)
        }
    }

    /// The answer to an IIIF image request with the window made off the event loop, or nil when
    /// the request is not one (``respond(_:isCancelled:)`` answers it as usual).
    func iiifAsync(_ request: ServerRequest, isCancelled: @escaping @Sendable () -> Bool) async -> ServerResponse? {
        // Checked on the raw bytes first: every tile request passes here, and needs no second parse.
        guard request.target.utf8.starts(with: "/iiif/".utf8), request.isRead,
              request.target.utf8.count <= configuration.maxTargetLength,
              case let .iiif(id, path) = Route(target: request.target) else { return nil }
        switch iiifWindow(id, path, request) {
        case let .answer(r): return finish(r, request, .iiif)
        case let .render(source, window, tag, canonical):
            let made = await source.image(window, isCancelled: isCancelled)
            return finish(iiifImage(id, window, made, tag: tag, canonical: canonical), request, .iiif)
        }
    }

    /// What an IIIF request comes to: an answer now (the redirect, `info.json`, a refusal, a
    /// 304), or a window to render with its ETag and canonical URL.
    enum IIIFStep {
        case answer(ServerResponse)
        case render(any IIIFImageSource, ImageWindow, tag: String, canonical: String)
    }

    func iiifWindow(_ id: String, _ path: Route.IIIFPath, _ request: ServerRequest) -> IIIFStep {
        guard let source = images[id] else { return .answer(refuse(.unknownImage(id: id))) }
        let service = iiifServiceID(id, for: request)
        let info = iiifInfo(source, id: service)
        let parts: (String, String, String, String)
        switch path {
        case .base:
            // Image API 3.0 §2.2: the base URI redirects to the image information.
            return .answer(ServerResponse(status: .seeOther, headers: [.location: service + "/info.json", .cacheControl: "no-cache"]))
        case .info:
            // §5.1: application/ld+json with the context as profile when asked for, else application/json.
            let ld = request.headers[.accept]?.contains("application/ld+json") == true
            let type = ld ? "application/ld+json;profile=\"\(IIIFAPIVersion.v3.context)\"" : "application/json"
            var r = cached(info.json(), type: type, request, cacheControl: "no-cache")
            r.headers.append(HTTPField(name: .vary, value: "Accept"))
            return .answer(r)
        case let .image(region, size, rotation, file):
            parts = (region, size, rotation, file)
        }
        let asked: IIIFImageRequest
        do { asked = try IIIFImageRequest(parsing: "\(parts.0)/\(parts.1)/\(parts.2)/\(parts.3)", version: .v3) } catch {
            return .answer(refuse(.badImageRequest(error.description)))
        }
        guard asked.rotation == .none else {
            return .answer(refuse(.badImageRequest("rotation \(parts.2) is not offered; this service rotates by 0 only")))
        }
        guard asked.quality == .default else {
            return .answer(refuse(.badImageRequest("quality \(asked.quality.rawValue) is not offered; ask for default")))
        }
        guard Self.iiifFormats.contains(asked.format) else {
            return .answer(refuse(.badImageRequest("format \(asked.format.rawValue) is not offered; ask for "
                                                   + Self.iiifFormats.map(\.rawValue).joined(separator: ", "))))
        }
        guard let r = asked.region.pixels(inImage: source.width, source.height) else {
            return .answer(refuse(.badImageRequest("region \(parts.0) is outside the \(source.width) × \(source.height) image")))
        }
        guard let s = asked.size.pixels(ofRegion: r.width, r.height, in: info) else {
            return .answer(refuse(.badImageRequest("size \(parts.1) cannot be made of a \(r.width) × \(r.height) region: "
                                                   + "above the region needs ^, and at most \(configuration.imageMaxArea) pixels are made")))
        }
        let format: TileFormat = asked.format == .png ? .png : asked.format == .webp ? .webp : .jpeg
        let window = ImageWindow(x: r.x, y: r.y, width: r.width, height: r.height, outputWidth: s.width, outputHeight: s.height,
                                 format: format)
        // The canonical form (§4.7): full for the whole image, w,h for the size unless it is max.
        let whole = r.x == 0 && r.y == 0 && r.width == source.width && r.height == source.height
        let largest = info.maxSize(ofRegion: r.width, r.height)
        let canonical = "\(service)/\(whole ? "full" : "\(r.x),\(r.y),\(r.width),\(r.height)")/"
            + "\(largest == s ? "max" : "\(s.width > r.width || s.height > r.height ? "^" : "")\(s.width),\(s.height)")/0/default.\(asked.format.rawValue)"
        let tag = "\"\(source.version)-\(window.x)-\(window.y)-\(window.width)-\(window.height)-\(window.outputWidth)-\(window.outputHeight)-\(asked.format.rawValue)\""
        if let inm = request.headers[.ifNoneMatch], EntityTag.matches(ifNoneMatch: inm, tag) {
            return .answer(ServerResponse(status: .notModified, headers: [.eTag: tag, .cacheControl: configuration.cacheControl]))
        }
        return .render(source, window, tag: tag, canonical: canonical)
    }

    /// The answer for a window made: the image with its profile and canonical links, or why not.
    func iiifImage(_ id: String, _ window: ImageWindow, _ made: DynamicTile, tag: String, canonical: String) -> ServerResponse {
        switch made {
        case let .image(bytes, _, seconds):
            if let seconds { metrics?.recordRender(.nanoseconds(Int64(seconds * 1e9)), source: .render) }
            let links = "<http://iiif.io/api/image/3/\(Self.iiifLevel.name).json>;rel=\"profile\", <\(canonical)>;rel=\"canonical\""
            return ServerResponse(status: .ok, headers: [.contentType: window.format.contentType, .eTag: tag,
                                                         .cacheControl: configuration.cacheControl, .xContentTypeOptions: "nosniff",
                                                         Self.link: links],
                                  body: bytes)
        case .cancelled:
            return refuse(ServerError(.clientGone, "the client went away before \(window) of '\(id)' was made"))
        case let .failed(why), let .unavailable(why, _):
            logger.error("tegula: IIIF image '\(id)': \(why)")
            return refuse(ServerError(.renderFailed, "making \(window) of '\(id)' failed; see the server log"))
        case .empty, .outside:
            return refuse(ServerError(.renderFailed, "making \(window) of '\(id)' gave no image"))
        }
    }

    /// The URI of image `id`'s service as this server names it to the client of `request`
    /// (`info.json`'s `id`, Image API 3.0 §5.2): `--public-url` or the `Host` header, then
    /// `/iiif/` and the id percent-encoded. What a Georeference Annotation's target names.
    public func iiifServiceID(_ id: String, for request: ServerRequest) -> String {
        baseURL(request) + "/iiif/" + Self.percentEncoded(id)
    }

    /// The image's `info.json` under the service URI `id`: 512-px tiles at the source's scale
    /// factors, the whole image at each of them as `sizes` (within ``ServerConfiguration/imageMaxArea``).
    func iiifInfo(_ source: any IIIFImageSource, id: String) -> IIIFImageInfo {
        let sizes = source.scaleFactors.reversed().map { f in
            IIIFSize(width: (source.width + f - 1) / f, height: (source.height + f - 1) / f)
        }.filter { $0.width * $0.height <= configuration.imageMaxArea }
        return IIIFImageInfo(version: .v3, id: id, width: source.width, height: source.height, level: Self.iiifLevel,
                             tiles: [IIIFTileSet(width: Self.iiifTileSide, scaleFactors: source.scaleFactors)], sizes: sizes,
                             maxArea: configuration.imageMaxArea, formats: Self.iiifFormats, features: Self.iiifExtraFeatures)
    }

    /// A path segment percent-encoded: an id with reserved characters stays one segment.
    public static func percentEncoded(_ segment: String) -> String {
        segment.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? segment
    }
}
