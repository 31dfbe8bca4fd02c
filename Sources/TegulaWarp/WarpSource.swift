import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference
import TegulaScan

/// A scan ready to warp: the scan (a file, or a remote scan already opened), its mapping,
/// footprint in EPSG:3857 and, for small scans, its pixels held once in memory for all workers.
public struct WarpSource: Sendable {
    /// The scan the workers read.
    public let scan: OpenedScan
    /// Its path or URL, as given.
    public var path: String { scan.path }
    public let mapping: SourceMapping
    /// The area the scan covers (mask or border), EPSG:3857, densified.
    public let footprint: [ProjectedPoint]
    /// The mask polygon in EPSG:3857 when the scan has one.
    public let maskFootprint: [ProjectedPoint]?
    /// Whole-scan pixels when they fit ``sharedLimitBytes``.
    public let shared: SourceWindow?
    /// Larger scans mapped from their file when they can be (uncompressed RGB or RGBA), shared
    /// by the workers for their full-resolution windows (``MappedScan``).
    public let mapped: MappedScan?
    /// Other scans' blocks decoded once into a cache shared by the workers, when their file is a
    /// GeoTIFF or JPEG (``DecodedScan``).
    public let decoded: DecodedScan?
    /// The GCP fit's pins and outline: from the fit, or stored in a warped raster; nil when the
    /// source has no GCPs behind it.
    public let summary: GeoreferenceSummary?
    /// The paper colour taken out of the scan's pixels as they are read (``removingColor(_:)``).
    public let removal: ColorRemoval?

    /// Scans up to this many RGBA bytes are read once and shared; larger ones are read in
    /// windows per block, so memory stays flat whatever the input size.
    public static let sharedLimitBytes = 96 << 20

    /// - Parameter sharePixels: false to read no pixels (a plan needs only the footprint);
    ///   ``withSharedPixels()`` reads them later.
    public init(scan: OpenedScan, mapping: SourceMapping, summary: GeoreferenceSummary? = nil, sharePixels: Bool = true) throws {
        self.scan = scan
        self.mapping = mapping
        self.summary = summary
        removal = nil
        let evaluator = try mapping.makeEvaluator()
        let ring = evaluator.footprint(of: mapping, stepsPerEdge: 128)
        guard ring.count >= 3 else { throw WarpError(.outsideWorld, at: scan.path, "the georeference maps no part of the scan into EPSG:3857") }
        footprint = ring
        maskFootprint = mapping.mask == nil ? nil : ring
        shared = sharePixels ? try WarpSource.sharedPixels(scan: scan, mapping: mapping) : nil
        mapped = sharePixels && shared == nil && !scan.isRemote ? MappedScan(path: scan.path) : nil
        decoded = sharePixels && shared == nil && mapped == nil && !scan.isRemote ? DecodedScan(path: scan.path) : nil
    }

    /// A local file at `path` (``init(scan:mapping:summary:sharePixels:)``).
    public init(path: String, mapping: SourceMapping, summary: GeoreferenceSummary? = nil, sharePixels: Bool = true) throws {
        try self.init(scan: OpenedScan(file: path), mapping: mapping, summary: summary, sharePixels: sharePixels)
    }

    private init(
        _ other: WarpSource, shared: SourceWindow?, mapped: MappedScan?, decoded: DecodedScan?,
        removal: ColorRemoval? = nil, mapping: SourceMapping? = nil, footprint: [ProjectedPoint]? = nil
    ) {
        scan = other.scan
        self.removal = removal ?? other.removal
        self.mapping = mapping ?? other.mapping
        summary = other.summary
        self.footprint = footprint ?? other.footprint
        maskFootprint = other.maskFootprint == nil ? nil : footprint ?? other.maskFootprint
        self.shared = shared
        self.mapped = mapped
        self.decoded = decoded
    }

    /// This source warped into `crs` instead of EPSG:3857 (a tile matrix set's CRS): its mapping a
    /// ``ReprojectedMapping``, its footprint and mask in `crs` (x/y order), its pixels shared as
    /// before. Its ``bounds`` and ``nativeResolution()`` then speak of `crs`.
    public func reprojected(to crs: CRS) throws -> WarpSource {
        let mapping = try ReprojectedMapping(self.mapping, crs: crs)
        let ring = try mapping.makeEvaluator().footprint(of: mapping, stepsPerEdge: 128)
        guard ring.count >= 3 else { throw WarpError(.outsideWorld, at: path, "the georeference maps no part of the scan into \(crs.label)") }
        return WarpSource(self, shared: shared, mapped: mapped, decoded: decoded, mapping: mapping, footprint: ring)
    }

    /// This source with its whole-scan pixels in memory when it is small enough (see
    /// ``sharedLimitBytes``), else mapped when it can be (``mapped``), else its blocks decoded
    /// into a shared cache when it can be (``decoded``); itself when any is already there.
    public func withSharedPixels() throws -> WarpSource {
        guard shared == nil, mapped == nil, decoded == nil else { return self }
        if let pixels = try WarpSource.sharedPixels(scan: scan, mapping: mapping, removal: removal) {
            return WarpSource(self, shared: pixels, mapped: nil, decoded: nil)
        }
        guard !scan.isRemote else { return self }
        if let mapped = MappedScan(path: path) { return WarpSource(self, shared: nil, mapped: mapped, decoded: nil) }
        guard let decoded = DecodedScan(path: path) else { return self }
        return WarpSource(self, shared: nil, mapped: nil, decoded: decoded)
    }

    /// This source with `options`' paper colour taken out of its pixels (``ColorRemoval``),
    /// `auto` measured on the scan now; itself when `options` is nil.
    public func removingColor(_ options: RemoveColorOptions?) throws -> WarpSource {
        guard let options else { return self }
        let removal = try options.resolve(scan: scan, mapping: mapping)
        var pixels: SourceWindow?
        if let shared {
            let copy = SourceWindow(
                originX: shared.originX, originY: shared.originY, scaleX: shared.scaleX, scaleY: shared.scaleY,
                width: shared.width, height: shared.height)
            copy.pixels.update(from: shared.pixels, count: shared.width * shared.height * 4)
            removal.apply(to: copy.pixels, count: shared.width * shared.height)
            pixels = copy
        }
        return WarpSource(self, shared: pixels, mapped: mapped, decoded: decoded, removal: removal)
    }

    static func sharedPixels(scan: OpenedScan, mapping: SourceMapping, removal: ColorRemoval? = nil) throws -> SourceWindow? {
        // A remote scan is read window by window: only the tiles the output touches are fetched.
        guard !scan.isRemote, mapping.sourceWidth * mapping.sourceHeight * 4 <= WarpSource.sharedLimitBytes else { return nil }
        let raster = try scan.reader(removal: removal)
        return try SourceWindow.read(raster, x0: 0, y0: 0, x1: raster.width, y1: raster.height, step: 1)
    }

    /// The footprint's bounding box in metres, clipped to the Web Mercator square.
    public var bounds: ProjectedBounds? {
        guard let first = footprint.first else { return nil }
        var b = ProjectedBounds(left: first.x, bottom: first.y, right: first.x, top: first.y)
        for p in footprint {
            b.left = min(b.left, p.x); b.right = max(b.right, p.x)
            b.bottom = min(b.bottom, p.y); b.top = max(b.top, p.y)
        }
        return b.intersection(.world)
    }

    /// True when the footprint reaches beyond ±85.0511° (and will be clipped).
    public var exceedsMercatorLimit: Bool {
        footprint.contains { abs($0.y) > WebMercator.halfCircumference }
    }

    /// Source pixels per metre near the footprint's centre: the native resolution in metres.
    public func nativeResolution() throws -> Double {
        guard let b = bounds else { throw WarpError(.outsideWorld, at: path, "empty footprint") }
        let e = try mapping.makeEvaluator()
        let cx = (b.left + b.right) / 2, cy = (b.bottom + b.top) / 2, d = 1000.0
        var xs = [cx, cx + d, cx], ys = [cy, cy, cy + d]
        e.sourcePixels(x: &xs, y: &ys)
        let dx = ((xs[1] - xs[0]) * (xs[1] - xs[0]) + (ys[1] - ys[0]) * (ys[1] - ys[0])).squareRoot()
        let dy = ((xs[2] - xs[0]) * (xs[2] - xs[0]) + (ys[2] - ys[0]) * (ys[2] - ys[0])).squareRoot()
        let pixelsPerMetre = (dx * dy).squareRoot() / d
        guard pixelsPerMetre.isFinite, pixelsPerMetre > 0 else { throw WarpError(.badGeoreference, at: path, "cannot measure the native resolution") }
        return 1 / pixelsPerMetre
    }

    /// The zoom whose resolution is nearest the native one in log scale (`auto`): never loses
    /// more than a factor √2 of resolution, where gdal2tiles's rule (next coarser) can lose 2×.
    public func autoZoom(tileSize: Int = 256) throws -> Int {
        let native = try nativeResolution()
        let z = (WebMercator.resolution(zoom: 0, tileSize: tileSize) / native).log2Rounded
        return min(max(z, 0), WebMercator.maxZoom)
    }
}

extension Double {
    var log2Rounded: Int { Int((Foundation.log2(self)).rounded()) }
}
