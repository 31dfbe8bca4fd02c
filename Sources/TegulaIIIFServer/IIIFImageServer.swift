import Foundation
import HTTPTypes
import Logging
import TegulaHTTP
import TegulaIIIF
import TegulaTileset

/// Rasters served as IIIF Image API 3.0 services, level 1 and more (`tegula serve`, the editor's
/// scan pane): `/iiif/{id}` redirects to `/iiif/{id}/info.json`;
/// `/iiif/{id}/{region}/{size}/0/default.{jpg|png|webp}` answers any region (`full`, `square`,
/// `x,y,w,h`, `pct:`) at any size (`max`, `w,`, `,h`, `w,h`, `!w,h`, `pct:`; above the region only
/// after `^`) up to ``IIIFServerConfiguration/maxArea`` pixels. The request grammar and
/// `info.json` are ``TegulaIIIF``'s; the pixels are the source's (``IIIFImageSource``).
///
/// A service of its own on the HTTP core (``respond(_:isCancelled:)``), and the pieces the tile
/// server answers its `/iiif/` routes with (``routes``, ``step(_:_:_:)``, ``response(_:_:_:tag:canonical:)``),
/// so both give the same answers.
public struct IIIFImageServer: HTTPService {
    /// The rasters served, by id.
    public let images: [String: any IIIFImageSource]
    /// The HTTP core's options: CORS, the base URL, the longest target.
    public let configuration: ServerConfiguration
    /// The image answers' own: `Cache-Control`, ``IIIFServerConfiguration/maxArea``.
    public let imageConfiguration: IIIFServerConfiguration
    /// Where requests (debug level: one line each) and failed renders (error level) are logged.
    public let logger: Logger

    /// A service over `images`, by id. Without `logger`, logs go to swift-log's default handler
    /// under `tegula.serve`.
    public init(
        images: [String: any IIIFImageSource], configuration: ServerConfiguration = ServerConfiguration(),
        imageConfiguration: IIIFServerConfiguration = IIIFServerConfiguration(),
        logger: Logger = Logger(label: "tegula.serve")
    ) {
        self.images = images
        self.configuration = configuration
        self.imageConfiguration = imageConfiguration
        self.logger = logger
    }

    /// The compliance level claimed: everything level 1 needs, plus what `extraFeatures` lists.
    public static let level = IIIFComplianceLevel.level1
    /// The features beyond level 1 answered here (Image API 3.0 §5.3).
    public static let extraFeatures: Set<IIIFFeature> = [
        .regionByPct, .sizeByPct, .sizeByConfinedWh, .sizeUpscaling,
        .profileLinkHeader, .canonicalLinkHeader,
    ]
    /// The formats answered: JPEG (level 1's own), PNG and WebP.
    public static let formats: [IIIFFormat] = [.jpg, .png, .webp]
    /// The side of the tiles `info.json` lists (512, as iiif_testserver.py and most servers use).
    public static let tileSide = 512
    /// `Link` (RFC 8288), which swift-http-types does not name.
    static let link = HTTPField.Name("Link")!

    /// What follows `/iiif/{id}` (``IIIFImagePath``).
    public typealias Path = IIIFImagePath

    /// The image server's routes (``IIIFImagePath/routes``).
    public static var routes: RouteTable<(id: String, path: Path)> { IIIFImagePath.routes }

    /// Answers one request: an IIIF route's answer with the window made off the event loop (the
    /// source's `isCancelled` says whether the client has gone), or the refusal of anything else,
    /// with the headers every answer carries (``ServerResponse/finished(for:corsOrigin:)``).
    public func respond(_ request: ServerRequest, isCancelled: @escaping @Sendable () -> Bool) async -> ServerResponse {
        let r = await answer(request, isCancelled: isCancelled).finished(for: request, corsOrigin: configuration.corsOrigin)
        logger.debug("\(request.method.rawValue) \(request.target) \(r.status.code) \(r.bodyCount)")
        return r
    }

    private func answer(_ request: ServerRequest, isCancelled: @escaping @Sendable () -> Bool) async -> ServerResponse {
        guard request.target.utf8.count <= configuration.maxTargetLength else {
            return refuse(.targetTooLong(limit: configuration.maxTargetLength))
        }
        let methods = Self.routes.methods
        guard methods.contains(request.method) else {
            var r = refuse(.methodNotAllowed(method: request.method, allowed: methods))
            r.headers[.allow] = RouteTable<Path>.allow(methods)
            return r
        }
        let route: (id: String, path: Path)?
        do { route = try Self.routes.answer(try RequestTarget(request.target), raw: request.target) } catch {
            return refuse(.malformedTarget(reason: error.message))
        }
        guard let (id, path) = route else { return refuse(.noRoute) }
        switch step(id, path, request) {
        case let .answer(r): return r
        case let .render(source, window, tag, canonical):
            return response(id, window, await source.image(window, isCancelled: isCancelled), tag: tag, canonical: canonical)
        }
    }

    /// The plain-text refusal every Tegula server but the editor's API gives (``ServerResponse/refusal(_:)``).
    public func refuse(_ error: ServerError) -> ServerResponse { .refusal(error) }

    /// The plain-text refusal of an image request (``ServerResponse/refusal(_:)``).
    public func refuse(_ error: IIIFServerError) -> ServerResponse { .refusal(error) }

    /// What an IIIF request comes to: an answer now (the redirect, `info.json`, a refusal, a
    /// 304), or a window to render with its ETag and canonical URL.
    public enum Step {
        /// The answer, made without pixels.
        case answer(ServerResponse)
        /// The window to make of the source, the answer's strong ETag and canonical URL.
        case render(any IIIFImageSource, ImageWindow, tag: String, canonical: String)
    }

    /// What request `path` of image `id` comes to: an answer now, or a window to render.
    public func step(_ id: String, _ path: Path, _ request: ServerRequest) -> Step {
        guard let source = images[id] else { return .answer(refuse(.unknownImage(id: id))) }
        let service = serviceID(id, for: request)
        let info = info(source, id: service)
        let parts: (String, String, String, String)
        switch path {
        case .base:
            // Image API 3.0 §2.2: the base URI redirects to the image information.
            return .answer(ServerResponse(status: .seeOther, headers: [.location: service + "/info.json", .cacheControl: "no-cache"]))
        case .info:
            // §5.1: application/ld+json with the context as profile when asked for, else application/json.
            let ld = request.headers[.accept]?.contains("application/ld+json") == true
            let type = ld ? "application/ld+json;profile=\"\(IIIFAPIVersion.v3.context)\"" : "application/json"
            var r = ServerResponse.cached(info.json(), type: type, request, cacheControl: "no-cache")
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
        guard Self.formats.contains(asked.format) else {
            return .answer(
                refuse(
                    .badImageRequest(
                        "format \(asked.format.rawValue) is not offered; ask for "
                            + Self.formats.map(\.rawValue).joined(separator: ", "))))
        }
        guard let r = asked.region.pixels(inImage: source.width, source.height) else {
            return .answer(refuse(.badImageRequest("region \(parts.0) is outside the \(source.width) × \(source.height) image")))
        }
        guard let s = asked.size.pixels(ofRegion: r.width, r.height, in: info) else {
            return .answer(
                refuse(
                    .badImageRequest(
                        "size \(parts.1) cannot be made of a \(r.width) × \(r.height) region: "
                            + "above the region needs ^, and at most \(imageConfiguration.maxArea) pixels are made")))
        }
        let format: TileFormat = asked.format == .png ? .png : asked.format == .webp ? .webp : .jpeg
        let window = ImageWindow(
            x: r.x, y: r.y, width: r.width, height: r.height, outputWidth: s.width, outputHeight: s.height,
            format: format)
        // The canonical form (§4.7): full for the whole image, w,h for the size unless it is max.
        let whole = r.x == 0 && r.y == 0 && r.width == source.width && r.height == source.height
        let largest = info.maxSize(ofRegion: r.width, r.height)
        let canonical =
            "\(service)/\(whole ? "full" : "\(r.x),\(r.y),\(r.width),\(r.height)")/"
            + "\(largest == s ? "max" : "\(s.width > r.width || s.height > r.height ? "^" : "")\(s.width),\(s.height)")/0/default.\(asked.format.rawValue)"
        let tag =
            "\"\(source.version)-\(window.x)-\(window.y)-\(window.width)-\(window.height)-\(window.outputWidth)-\(window.outputHeight)-\(asked.format.rawValue)\""
        if let inm = request.headers[.ifNoneMatch], EntityTag.matches(ifNoneMatch: inm, tag) {
            return .answer(ServerResponse(status: .notModified, headers: [.eTag: tag, .cacheControl: imageConfiguration.cacheControl]))
        }
        return .render(source, window, tag: tag, canonical: canonical)
    }

    /// The window made on the caller's thread, timed (the synchronous path of `tegula serve`'s
    /// `respond(_:)`; servers await ``IIIFImageSource/image(_:isCancelled:)`` instead).
    public func renderNow(_ source: any IIIFImageSource, _ window: ImageWindow) -> DynamicTile {
        let start = Date()
        do { return .image(try source.render(window), version: source.version, seconds: Date().timeIntervalSince(start)) } catch {
            return .failed("\(error)")
        }
    }

    /// The answer for a window made: the image with its profile and canonical links, or why not.
    public func response(_ id: String, _ window: ImageWindow, _ made: DynamicTile, tag: String, canonical: String) -> ServerResponse {
        switch made {
        case let .image(bytes, _, _):
            let links = "<http://iiif.io/api/image/3/\(Self.level.name).json>;rel=\"profile\", <\(canonical)>;rel=\"canonical\""
            return ServerResponse(
                status: .ok,
                headers: [
                    .contentType: window.format.contentType, .eTag: tag,
                    .cacheControl: imageConfiguration.cacheControl, .xContentTypeOptions: "nosniff",
                    Self.link: links,
                ],
                body: bytes)
        case .cancelled:
            return refuse(.clientGone(window, id: id))
        case let .failed(why), let .unavailable(why, _):
            logger.error("tegula: IIIF image '\(id)': \(why)")
            return refuse(.renderFailed(window, id: id, gaveNoImage: false))
        case .empty, .outside:
            return refuse(.renderFailed(window, id: id, gaveNoImage: true))
        }
    }

    /// The URI of image `id`'s service as this server names it to the client of `request`
    /// (`info.json`'s `id`, Image API 3.0 §5.2): `--public-url` or the `Host` header, then
    /// `/iiif/` and the id percent-encoded. What a Georeference Annotation's target names.
    public func serviceID(_ id: String, for request: ServerRequest) -> String {
        configuration.baseURL(request) + "/iiif/" + Self.percentEncoded(id)
    }

    /// The image's `info.json` under the service URI `id`: 512-px tiles at the source's scale
    /// factors, the whole image at each of them as `sizes` (within ``IIIFServerConfiguration/maxArea``).
    public func info(_ source: any IIIFImageSource, id: String) -> IIIFImageInfo {
        let sizes = source.scaleFactors.reversed().map { f in
            IIIFSize(width: (source.width + f - 1) / f, height: (source.height + f - 1) / f)
        }.filter { $0.width * $0.height <= imageConfiguration.maxArea }
        return IIIFImageInfo(
            version: .v3, id: id, width: source.width, height: source.height, level: Self.level,
            tiles: [IIIFTileSet(width: Self.tileSide, scaleFactors: source.scaleFactors)], sizes: sizes,
            maxArea: imageConfiguration.maxArea, formats: Self.formats, features: Self.extraFeatures)
    }

    /// A path segment percent-encoded: an id with reserved characters stays one segment.
    public static func percentEncoded(_ segment: String) -> String {
        segment.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? segment
    }
}
