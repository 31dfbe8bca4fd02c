import NIOCore

/// A response as the server logic produces it; the HTTP layer copies it out verbatim.
///
/// A tile kept in memory is answered with the NIO buffer the cache holds (`TileResponseCache`),
/// so both HTTP paths write it to the socket without a copy and the cache holds each tile once;
/// `body` reads it as bytes (a copy, for tests and callers of the pure function).
public struct ServerResponse: Sendable, Equatable {
    /// The HTTP status.
    public var status: Int
    /// Headers in the order they are sent.
    public var headers: [(String, String)]
    var payload: Payload

    /// Where a body's bytes live.
    enum Payload: Sendable {
        case bytes([UInt8])
        case buffer(ByteBuffer)
    }

    /// A response.
    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        payload = .bytes(body)
    }

    /// A response whose body is a buffer kept in memory.
    init(status: Int, headers: [(String, String)], buffer: ByteBuffer) {
        self.status = status
        self.headers = headers
        payload = .buffer(buffer)
    }

    /// The body's bytes.
    public var body: [UInt8] {
        get {
            switch payload {
            case let .bytes(b): return b
            case let .buffer(b): return Array(b.readableBytesView)
            }
        }
        set { payload = .bytes(newValue) }
    }

    /// The body's length in bytes, without copying it.
    var bodyCount: Int {
        switch payload {
        case let .bytes(b): return b.count
        case let .buffer(b): return b.readableBytes
        }
    }

    /// The body as a NIO buffer: the cached one for a tile in memory (no copy), else a new one.
    var bodyBuffer: ByteBuffer {
        switch payload {
        case let .bytes(b): return ByteBuffer(bytes: b)
        case let .buffer(b): return b
        }
    }

    /// The first value of a header (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    /// Same status, headers in the same order, same body bytes.
    public static func == (a: ServerResponse, b: ServerResponse) -> Bool {
        a.status == b.status && a.body == b.body && a.headers.map { "\($0.0):\($0.1)" } == b.headers.map { "\($0.0):\($0.1)" }
    }
}
