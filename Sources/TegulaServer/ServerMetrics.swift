import Prometheus
import TegulaHTTP

/// Where a tile not in memory came from, as the render-time histogram labels it.
public enum TileSource: String, CaseIterable, Sendable {
    /// Read from a tileset file (folder, MBTiles, PMTiles).
    case tileset
    /// Rendered on request from a georeferenced scan.
    case render
}

/// What `tegula serve --metrics` reports at `/metrics`, in Prometheus's text format: requests by
/// route and status, body bytes sent, tile-cache hits and misses, the time to produce a tile not
/// in memory, and open connections.
///
/// Counting is cheap enough for the event-loop fast path: every counter a request can touch is
/// made once here, so a request costs a table lookup and relaxed atomic additions, no lock and no
/// allocation. Only the render-time histogram takes a lock, on the cold path.
public final class ServerMetrics: ConnectionCounter, Sendable {
    /// The registry `/metrics` writes out; other metrics may be added to it.
    public let registry: PrometheusCollectorRegistry
    /// Requests by route and status, made up front for the statuses each route can answer.
    private let requests: [[Counter?]]
    private let bytesSent: Counter
    private let cacheHits: Counter
    private let cacheMisses: Counter
    /// Tile-production times by source, in `TileSource` order.
    private let renderTime: [DurationHistogram]
    private let openConnections: Gauge

    /// The statuses the service answers with: the columns of the request table.
    static let statuses = [200, 204, 303, 304, 400, 404, 405, 414, 500, 501]
    /// The statuses each route can answer with, made up front (any other is still counted,
    /// through the registry's own lookup).
    static let expected: [RouteLabel: [Int]] = [
        .tile: [200, 204, 304, 404, 405, 500], .tileJSON: [200, 304, 404, 405], .sheetIndex: [200, 304, 404, 405], .viewer: [200, 304, 405],
        .asset: [200, 304, 404, 405], .maps: [200, 405], .health: [200, 405], .metrics: [200, 404, 405],
        .iiif: [200, 303, 304, 400, 404, 405, 500],
        .wmts: [200, 204, 304, 400, 404, 405, 500, 501], .ogcAPI: [200, 204, 304, 400, 404, 405, 500],
        .other: [400, 404, 405, 414],
    ]
    static var requestsName: MetricNameDescriptor { name("http", "requests", "total", "HTTP requests answered, by route and status.") }
    /// Upper bounds of the render-time buckets: a tile read from a tileset takes well under a
    /// millisecond; a tile rendered on demand from a scan, tens to hundreds.
    static let renderBuckets: [Duration] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]
        .map { .nanoseconds(Int64($0 * 1e9)) }

    /// Metrics registered in `registry` (a new one unless given).
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        requests = RouteLabel.allCases.map { route in
            Self.statuses.map { status in
                Self.expected[route]!.contains(status) ? Self.requestCounter(registry, route, status) : nil
            }
        }
        bytesSent = registry.makeCounter(
            descriptor: Self.name(
                "http", "response_body", "bytes_total",
                "Bytes of response bodies sent (headers not included)."))
        cacheHits = registry.makeCounter(
            descriptor: Self.name(
                "tile_cache", "hits", "total",
                "Tile requests answered from the in-memory tile cache."))
        cacheMisses = registry.makeCounter(
            descriptor: Self.name(
                "tile_cache", "misses", "total",
                "Tile requests that had to read their tileset."))
        renderTime = TileSource.allCases.map { source in
            registry.makeDurationHistogram(
                descriptor: Self.name(
                    "tile", "render", "seconds",
                    "Time to produce a tile that was not in memory: "
                        + "read from its tileset (source=tileset) or rendered from its scan (source=render)."),
                labels: [("source", source.rawValue)], buckets: Self.renderBuckets)
        }
        openConnections = registry.makeGauge(
            descriptor: Self.name(
                "http", "open", "connections",
                "HTTP connections open now."))
    }

    private static func requestCounter(_ registry: PrometheusCollectorRegistry, _ route: RouteLabel, _ status: Int) -> Counter {
        registry.makeCounter(descriptor: requestsName, labels: [("route", route.name), ("status", String(status))])
    }

    private static func name(_ subsystem: String, _ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "tegula", subsystem: subsystem, metricName: metric, unitName: unit, helpText: help)
    }

    /// Counts one answered request and its body bytes.
    func recordRequest(route: RouteLabel, status: Int, bodyBytes: Int) {
        if let i = Self.statuses.firstIndex(of: status), let counter = requests[route.rawValue][i] {
            counter.increment()
        } else {
            Self.requestCounter(registry, route, status).increment()
        }
        if bodyBytes > 0 { bytesSent.increment(by: Int64(bodyBytes)) }
    }

    /// Counts a tile request answered from memory.
    func cacheHit() { cacheHits.increment() }
    /// Counts a tile request that read its tileset.
    func cacheMiss() { cacheMisses.increment() }
    /// Records the time taken to produce one tile from `source`.
    func recordRender(_ duration: Duration, source: TileSource) {
        renderTime[TileSource.allCases.firstIndex(of: source)!].record(duration)
    }
    /// Counts a connection opened.
    public func connectionOpened() { openConnections.increment() }
    /// Counts a connection closed.
    public func connectionClosed() { openConnections.decrement() }

    /// The exposition: every metric in Prometheus's text format 0.0.4.
    public func exposition() -> [UInt8] { registry.emitToBuffer() }
}
