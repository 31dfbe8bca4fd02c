import Foundation
import Hummingbird
import NIOCore
import TegulaHTTP

/// A service behind Tegula's one Hummingbird adapter (`HTTPServer.application`, the
/// application `tegula serve` and `tegula edit` run), live on a free loopback port for the length
/// of a test, and requests to it over plain sockets (``RawHTTP``). It replaces HummingbirdTesting's
/// `test(.live)`, whose package dragged AsyncHTTPClient and its tree (swift-nio-ssl, swift-crypto,
/// swift-nio-http2, …) into every test build for a client the tests never used.
public struct LiveServer: Sendable {
    /// The port the server listens on, on 127.0.0.1.
    public let port: Int

    /// Serves `service` on 127.0.0.1, port 0 (the kernel's choice), runs `test` once the server
    /// listens, then stops the server. The server's tasks and `test` prefer
    /// ``LiveServerThreads`` (child tasks inherit the preference: the connections' tasks run
    /// there too). `onServerRunning` is passed the listening channel before `test` starts.
    public static func run<Service: HTTPService, Value: Sendable>(
        _ service: Service, onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in },
        _ test: @escaping @Sendable (LiveServer) async throws -> Value
    ) async throws -> Value {
        try await withTaskExecutorPreference(LiveServerThreads.shared) {
            let listening = Listening()
            let app = HTTPServer.application(service: service, host: "127.0.0.1", port: 0) { channel in
                await onServerRunning(channel)
                listening.resolve(.success(channel))
            }
            return try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    // An error before the server listens (say, a bind refused) fails the wait
                    // below; once `test` has the channel, resolving again changes nothing.
                    do {
                        try await app.run()
                        listening.resolve(.failure(RawHTTP.Failure("the server stopped before it listened")))
                    } catch {
                        listening.resolve(.failure(error))
                    }
                }
                let channel = try await listening.channel()
                // Stopped in two steps: the listening socket closed, which ends Hummingbird's
                // accept loop as a graceful shutdown would (cancelled in it, the loop logs an
                // error), then the server's task cancelled, which closes each connection's input.
                func stop() async {
                    try? await channel.close().get()
                    group.cancelAll()
                }
                guard let port = channel.localAddress?.port else {
                    await stop()
                    throw RawHTTP.Failure("the server's channel has no local port")
                }
                let value: Value
                do { value = try await test(LiveServer(port: port)) } catch {
                    await stop()
                    throw error
                }
                await stop()
                return value
            }
        }
    }

    /// One request on its own connection: HTTP/1.1 with `Host` and `Connection: close`, the
    /// `headers` given, and with a `body` its `Content-Length`; read until the server closes it.
    /// Exactly one whole answer must come back (``RawHTTP/responses(_:heads:)`` frames it).
    public func fetch(
        _ target: String, method: String = "GET", headers: [String: String] = [:],
        body: [UInt8]? = nil
    ) async throws -> RawHTTP.Response {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        let raw = try await RawHTTP.exchange(port: port, send: Array((head + "\r\n").utf8) + (body ?? []))
        let answers: [RawHTTP.Response]
        do { answers = try RawHTTP.responses(raw, heads: [method == "HEAD"]) } catch let e as RawHTTP.Failure {
            throw RawHTTP.Failure("\(method) \(target): \(e.description)")
        }
        guard answers.count == 1 else { throw RawHTTP.Failure("\(method) \(target): \(answers.count) answers on one request") }
        return answers[0]
    }
}

/// The listening channel a server reports once it listens, or why it never will: resolved once,
/// awaited by the test.
final class Listening: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<any Channel, any Error>?
    private var waiting: [CheckedContinuation<any Channel, any Error>] = []

    func resolve(_ r: Result<any Channel, any Error>) {
        let waiters: [CheckedContinuation<any Channel, any Error>] = lock.withLock {
            guard result == nil else { return [] }
            result = r
            defer { waiting = [] }
            return waiting
        }
        for w in waiters { w.resume(with: r) }
    }

    func channel() async throws -> any Channel {
        try await withCheckedThrowingContinuation { c in
            let known: Result<any Channel, any Error>? = lock.withLock {
                if result == nil { waiting.append(c) }
                return result
            }
            if let known { c.resume(with: known) }
        }
    }
}
