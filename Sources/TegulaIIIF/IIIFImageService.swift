/// An opened IIIF image: its description and the plan of requests it can answer — the tile grid
/// and scale factors the server lists, in the best format it offers — fetched through the
/// client's transport and cache.
public struct IIIFImageService: Sendable {
    /// The description.
    public let info: IIIFImageInfo
    /// Where it was read.
    public let infoURL: String
    /// A digest of the info.json's bytes: cached images are kept under it, so a changed
    /// description never mixes with images of the old one.
    public let version: String
    /// The tile grid requests follow: the info's first grid with scale factor 1; at level 1 and
    /// above without one, 1024-pixel tiles within the server's size limits.
    public let grid: IIIFTileSet
    /// The format asked for: PNG where offered (lossless), else the server's preferred of
    /// JPEG and WebP, else JPEG.
    public let format: IIIFFormat
    let client: IIIFClient

    init(info: IIIFImageInfo, infoURL: String, version: String, client: IIIFClient) throws(IIIFError) {
        self.info = info
        self.infoURL = infoURL
        self.version = version
        self.client = client
        format = Self.bestFormat(info)
        if let g = info.tiles.first(where: { $0.scaleFactors.contains(1) }) {
            grid = g
        } else if info.level >= .level1 {
            // 1024² tiles, or the largest square the limits allow.
            var side = 1024
            if let m = info.maxWidth { side = min(side, m) }
            if let m = info.maxHeight { side = min(side, m) }
            if let m = info.maxArea { side = min(side, Int(Double(m).squareRoot())) }
            var factors = [1]
            while factors.last! * side < max(info.width, info.height) { factors.append(factors.last! * 2) }
            grid = IIIFTileSet(width: max(1, side), scaleFactors: factors)
        } else if info.sizes.contains(IIIFSize(width: info.width, height: info.height)) {
            grid = IIIFTileSet(width: info.width, height: info.height, scaleFactors: [1])  // one request: the full image
        } else {
            throw IIIFError(
                .outOfBounds, at: infoURL,
                "a level 0 service without tiles at scale factor 1 or a full-size entry in sizes; "
                    + "its full resolution cannot be fetched")
        }
    }

    /// PNG where offered, else the first of `preferredFormats` that is JPEG or WebP, else JPEG.
    public static func bestFormat(_ info: IIIFImageInfo) -> IIIFFormat {
        if info.formats.contains(.png) { return .png }
        return info.preferredFormats.first { ($0 == .jpg || $0 == .webp) && info.formats.contains($0) } ?? .jpg
    }

    /// The scale factors the grid is offered at, finest first.
    public var scaleFactors: [Int] { grid.scaleFactors.sorted() }

    /// Every tile of scale factor `s` (one the grid lists), edge tiles included.
    public func tiles(scaleFactor s: Int) throws(IIIFError) -> [IIIFTile] {
        guard grid.scaleFactors.contains(s) else {
            throw IIIFError(.outOfBounds, at: infoURL, "scale factor \(s) is not offered; the service lists \(scaleFactors)")
        }
        return grid.tiles(scaleFactor: s, imageWidth: info.width, imageHeight: info.height)
    }

    /// The URL of `tile`.
    public func url(of tile: IIIFTile) -> String {
        tile.request(in: info, format: format).url(service: info.id, version: info.version)
    }

    /// The bytes of `tile`, from the cache or the server, checked: an image in the format asked
    /// for, of the tile's size (2.x `w,` answers may round the height by 1), else one line naming the URL.
    public func fetch(_ tile: IIIFTile) async throws(IIIFError) -> [UInt8] {
        let url = url(of: tile), format = format, v2 = info.version == .v2
        return try await client.fetch(url, key: "\(version) \(url)", maxBytes: client.limits.maxResponseBytes) { (bytes, type) throws(IIIFError) in
            guard let h = ImageHeader(bytes) else {
                let what = type.map { "a \($0) answer" } ?? "an answer"
                throw IIIFError(.badImage, at: url, "\(what) that is not a PNG, JPEG or WebP image; expected \(format.mediaType)")
            }
            guard h.format == format else {
                throw IIIFError(.badImage, at: url, "a \(h.format.mediaType) image; expected \(format.mediaType), as asked")
            }
            guard h.width == tile.size.width, h.height == tile.size.height || (v2 && abs(h.height - tile.size.height) <= 1) else {
                throw IIIFError(.badImage, at: url, "an image of \(h.width) × \(h.height) pixels; expected \(tile.size.width) × \(tile.size.height)")
            }
        }
    }

    /// Fetches every tile of scale factor `s`, up to the client's connections at once, handing
    /// each to `body` as it arrives; the first failure ends the run and is thrown.
    public func fetchAll(scaleFactor s: Int, _ body: @Sendable @escaping (IIIFTile, [UInt8]) async throws -> Void) async throws {
        let tiles = try tiles(scaleFactor: s)
        let width = max(1, client.politeness.connectionsPerHost)
        try await withThrowingTaskGroup(of: Void.self) { group in
            var next = 0
            for _ in 0..<min(width, tiles.count) {
                let t = tiles[next]
                next += 1
                group.addTask { try await body(t, try await self.fetch(t)) }
            }
            while try await group.next() != nil {
                if next < tiles.count {
                    let t = tiles[next]
                    next += 1
                    group.addTask { try await body(t, try await self.fetch(t)) }
                }
            }
        }
    }
}
