import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaMatch
import TegulaScan
import TegulaWarp

/// The georeferenced image of the same map that `tegula edit SCAN --reference REF` was started
/// with: what is matched against the scan (TegulaMatch's ``Matcher``, the engine of `tegula match`)
/// and how it is shown on the map (``Layer``). Suggest proposes the match's pairs; snap finds the
/// twin of one scan pixel (``TwinFinder``). The match is made once, on first use, and kept; the
/// readers are used by one request at a time.
public final class EditorReference: @unchecked Sendable {
    /// How the reference is shown on the map.
    public enum Layer: Sendable {
        /// A local tileset (a folder with `tiles.json`, an MBTiles, a PMTiles), served as it is.
        case tileset(String)
        /// An image georeferenced by its geotransform or GCPs (a GCP file beside a scan, an
        /// annotation's GCPs beside its IIIF image), warped into Web Mercator tiles on demand as
        /// `tegula serve` serves it.
        case warped(WarpInput)
        /// A tileset on a server (a TileJSON's or a bare XYZ template's tiles), shown by the page
        /// from that server: its template (`{z}/{x}/{y}` or `{-y}`, 256-pixel tiles), zooms and bounds.
        case remote(template: String, zooms: ZoomRange, bounds: GeoBounds)
        /// Not shown: matched against, but no layer is made of it (a tileset on a server whose
        /// tiles are not 256 pixels).
        case none
    }

    /// The reference as it was named.
    public let name: String
    /// How it is shown.
    public let layer: Layer
    let settings: MatchSettings
    private let reference: MatchReference
    private let scan: any ScanReader
    private let lock = NSLock()
    private var verdict: MatchVerdict?
    private var finder: TwinFinder?

    /// A reference named `name`, opened for matching as `reference` (as `tegula match` opens it),
    /// matched against the scan read through `scan`, and shown as `layer`.
    public init(name: String, reference: MatchReference, scan: any ScanReader, layer: Layer, settings: MatchSettings = MatchSettings()) {
        self.name = name
        self.reference = reference
        self.scan = scan
        self.layer = layer
        self.settings = settings
    }

    /// The pairs the match proposes, their ground in longitude and latitude (the session's);
    /// none, and why, when the scan and the reference do not show the same map surely enough.
    func suggestions() throws -> Suggestions {
        try locked {
            let verdict = try matched()
            guard case .matched(let points, let figures) = verdict else {
                guard case .noMatch(let why, _) = verdict else { return Suggestions(matched: false, message: "", pairs: []) }
                return Suggestions(
                    matched: false, message: "no suggestion: the scan and \(shownName) do not show the same map surely enough: \(why)",
                    pairs: [])
            }
            let grounds = try lonLat(points.map(\.reference))
            let pairs = zip(points, grounds).map { p, g in Suggestions.Pair(pixel: [p.scan.x, p.scan.y], ground: [g.x, g.y], score: p.score) }
            let scores = points.map(\.score)
            let message = String(
                format: "%d pairs proposed (scores %.2f–%.2f); the reference covers %.0f%% of the scan",
                pairs.count, scores.min() ?? 0, scores.max() ?? 0, 100 * (figures.coverage ?? 0))
            return Suggestions(matched: true, message: message, pairs: pairs)
        }
    }

    /// The twin of scan pixel `p` on the reference, its ground in longitude and latitude; not
    /// matched, and why, when the scan and the reference do not match or the window around `p`
    /// finds no sure twin.
    func twin(of p: PixelPoint) throws -> Twin {
        try locked {
            guard case .matched = try matched(), let finder else {
                return Twin(matched: false, message: "no twin: the scan and \(shownName) do not show the same map surely enough (Suggest says why)")
            }
            guard let found = try finder.twin(of: p) else {
                return Twin(
                    matched: false,
                    message: String(
                        format: "no sure twin of pixel (%.1f, %.1f) on the reference: the window around it is "
                            + "flat, leaves an image or correlates below %.2f", p.x, p.y, settings.verdict.minimumCorrelation))
            }
            let g = try lonLat([found.reference])[0]
            return Twin(
                matched: true, message: String(format: "snapped to its twin on the reference (score %.3f)", found.score),
                pixel: [p.x, p.y], ground: [g.x, g.y], score: found.score)
        }
    }

    /// The verdict, made on first use (the lock held).
    private func matched() throws -> MatchVerdict {
        if let verdict { return verdict }
        let v = try Matcher.match(scan: scan, reference: reference.reader, settings: settings)
        if case .matched(let points, _) = v {
            finder = TwinFinder(scan: scan, reference: reference.reader, points: points, settings: settings)
        }
        verdict = v
        return v
    }

    /// Reference pixels as longitude and latitude (the page's and the session's ground), through
    /// the reference's own georeference and PROJ.
    private func lonLat(_ pixels: [PixelPoint]) throws -> [GroundPoint] {
        let g = try reference.groundPoints(pixels)
        guard !reference.crs.isSame(as: .wgs84) else { return g }
        var xs = g.map(\.x), ys = g.map(\.y)
        try EditorSession.toLonLat(from: reference.crs, x: &xs, y: &ys, at: name)
        return zip(xs, ys).map { GroundPoint(x: $0, y: $1) }
    }

    /// The reference's file name, as messages name it.
    private var shownName: String { (name as NSString).lastPathComponent }

    private func locked<T>(_ body: () throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}

/// The answer of `GET /api/suggest`: the proposed pairs (scan pixel, ground longitude and
/// latitude, the match score 0–1) and a sentence for the page; `matched` false with no pairs when the
/// match is not sure.
struct Suggestions: Encodable {
    struct Pair: Encodable {
        var pixel: [Double]
        var ground: [Double]
        var score: Double
    }

    var matched: Bool
    var message: String
    var pairs: [Pair]
}

/// The answer of `GET /api/snap`: the twin of a scan pixel on the reference, as a ground
/// longitude and latitude with its score; `matched` false and why otherwise.
struct Twin: Encodable {
    var matched: Bool
    var message: String
    var pixel: [Double]?
    var ground: [Double]?
    var score: Double?
}
