import Foundation
import Hummingbird
import HummingbirdCore
import HTTPTypes
import NIOCore

/// Builds and runs the Hummingbird application for `tegula serve`.
public enum TileServer {
    /// The `Server` header's value.
    static let serverName = "tegula"

    /// The application serving `service` on host:port (not yet running).
    public static func application(service: TileService, host: String, port: Int,
                                   onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in })
        -> some ApplicationProtocol {
        let responder = TileResponder(service: service)
        let limit = service.configuration.maxHeaderBytes
        let decoder = HTTP1Channel.Configuration.DecoderConfiguration(maxHeaderFieldSize: limit, maxHeaderListSize: limit,
                                                                      maxHeaderFieldCount: 100)
        return Application(responder: responder,
                    server: HTTPServerBuilder { hummingbird in
                        TileChannel(http1: HTTP1Channel(responder: hummingbird, configuration: .init(httpDecoderConfiguration: decoder)),
                                    responder: responder, serverName: serverName)
                    },
                    configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: serverName),
                    onServerRunning: onServerRunning, logger: service.logger)
    }

    /// Serves until SIGINT/SIGTERM.
    public static func run(service: TileService, host: String, port: Int,
                           onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }) async throws {
        try await application(service: service, host: host, port: port, onServerRunning: onServerRunning)
            .runService()
    }
}
