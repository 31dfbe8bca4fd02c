import Hummingbird
import NIOCore
import TegulaHTTP

extension HTTPServer {
    /// ``HTTPServer/run(service:host:port:onServerRunning:)`` for `tegula serve`'s ``TileService``,
    /// written out for the concrete type in the module that defines it, so the HTTP core's
    /// `@inlinable` generic path is specialized here once: called with a generic service, every
    /// request ran through witness tables, hot tiles well below the concrete code's req/s
    /// (BENCHMARKS.md, "Figures behind the code"). Overload resolution picks this one for a TileService.
    public static func run(
        service: TileService, host: String, port: Int,
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) async throws {
        try await application(service: service, host: host, port: port, onServerRunning: onServerRunning)
            .runService()
    }
}
