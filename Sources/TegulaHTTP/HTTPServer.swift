import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import NIOCore

/// The one Hummingbird adapter of every Tegula server (`tegula serve`, `tegula edit`): any
/// ``HTTPService`` behind Hummingbird's HTTP/1 channel, with the connection guard and the
/// event-loop fast path in front.
///
/// The generic path is `@inlinable`, down to the responder, the channel and the fast path, so it is
/// specialized in the module that names the service: unspecialized, every request ran through
/// witness tables, hot tiles well below the concrete code's req/s (BENCHMARKS.md, "Figures behind the code").
public enum HTTPServer {
    /// The `Server` header's value.
    @usableFromInline static let serverName = "tegula"

    /// Connections the kernel may hold completed but not yet accepted. Hummingbird's default,
    /// 256, overflowed when 2,000 clients connected at once (`scripts/serve-fairness`; counted by
    /// `nstat`, BENCHMARKS.md, "Figures behind the code"), each a dropped handshake the client retries after 1 s, then 3 s;
    /// 4,096 lets 1,000 clients connecting while the server is stopped all in (`ServeConnectionTests`).
    /// Linux caps the value at `net.core.somaxconn` (4,096 on Debian 12).
    @usableFromInline static let backlog = 4096

    /// Connections accepted per wake-up of the listening socket. NIO's default, 4, with the
    /// back-pressure Hummingbird's accept loop applies (at most 10 accepted connections waiting
    /// for its task), let 2,000 clients connecting at once in only a few per event-loop turn, so
    /// most connections sat in the kernel's queue, their first request unanswered, for seconds
    /// (`scripts/serve-fairness`, BENCHMARKS.md, "Figures behind the code").
    @usableFromInline static let acceptsPerWakeup: UInt = 1024

    /// The application serving `service` on host:port (not yet running).
    @inlinable
    public static func application<Service: HTTPService>(
        service: Service, host: String, port: Int,
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    )
        -> some ApplicationProtocol
    {
        let responder = ServiceResponder(service: service)
        let limit = service.configuration.maxHeaderBytes
        let decoder = HTTP1Channel.Configuration.DecoderConfiguration(
            maxHeaderFieldSize: limit, maxHeaderListSize: limit,
            maxHeaderFieldCount: 100)
        return Application(
            responder: responder,
            server: HTTPServerBuilder { hummingbird in
                ServerChannel(
                    http1: HTTP1Channel(responder: hummingbird, configuration: .init(httpDecoderConfiguration: decoder)),
                    responder: responder, serverName: serverName)
            },
            configuration: ApplicationConfiguration(
                address: .hostname(host, port: port), serverName: serverName,
                backlog: backlog),
            onServerRunning: { channel in
                // Hummingbird's configuration has no way to set this before binding.
                try? await channel.setOption(ChannelOptions.maxMessagesPerRead, value: acceptsPerWakeup).get()
                await onServerRunning(channel)
            }, logger: service.logger)
    }

    /// Serves until SIGINT/SIGTERM.
    @inlinable
    public static func run<Service: HTTPService>(
        service: Service, host: String, port: Int,
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) async throws {
        try await application(service: service, host: host, port: port, onServerRunning: onServerRunning)
            .runService()
    }
}
