import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// HTTP/1.x over a plain loopback socket, for what an HTTP client library hides: pipelining,
/// HTTP/1.0, closing, half-sent heads, and the exact bytes and framing of each answer. The one
/// raw-HTTP helper of the tests (the server's, the on-demand server's and the hostile clients').
public enum RawHTTP {
    /// One answer: status, headers (names lower-cased) and the body as framed.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: [UInt8]
    }

    /// A socket call that failed, or an answer that is not whole HTTP.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    /// Seconds a read may wait for the next byte before the exchange fails. Generous: with the
    /// whole suite and other builds on two cores one answer was seen to take over 10 s; a server
    /// that never answers or never closes still fails, never ends a response.
    public static let readTimeout = 60

    /// A TCP socket connected to 127.0.0.1:`port` (the caller closes it).
    public static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket: errno \(errno)") }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let ok = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard ok == 0 else {
            let e = errno
            close(fd)
            throw Failure("connect to 127.0.0.1:\(port): errno \(e)")
        }
        return fd
    }

    /// Sends all of `bytes` (no SIGPIPE if the server has closed); false if it could not.
    @discardableResult
    public static func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Sends the UTF-8 of `text`.
    @discardableResult
    public static func send(_ fd: Int32, _ text: String) -> Bool { send(fd, Array(text.utf8)) }

    /// Makes a `recv` on `fd` give up after `seconds` without a byte (EAGAIN).
    public static func setReadTimeout(_ fd: Int32, seconds: Double) {
        var t = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &t, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Runs blocking socket code on a Dispatch thread, not on Swift's cooperative pool (two
    /// threads here), which the server under test needs for its answers: a test waiting in `recv`
    /// there could starve the very answer it waits for.
    public static func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { done in
            DispatchQueue.global().async { done.resume(with: Result { try body() }) }
        }
    }

    /// Sends `bytes` on a new connection and reads until the server closes it; a read that waits
    /// ``readTimeout`` s is an error, never the end of the stream.
    public static func exchange(port: Int, send bytes: [UInt8]) async throws -> [UInt8] {
        try await offPool { try blockingExchange(port: port, send: bytes) }
    }

    /// ``exchange(port:send:)`` on the calling thread.
    public static func blockingExchange(port: Int, send bytes: [UInt8]) throws -> [UInt8] {
        let fd = try connect(port: port)
        defer { close(fd) }
        setReadTimeout(fd, seconds: Double(readTimeout))
        guard send(fd, bytes) else { throw Failure("short send to 127.0.0.1:\(port)") }
        var out: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 { out += buf[0..<n]; continue }
            if n == 0 { return out }  // the server closed the connection: the end of the stream
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK {
                throw Failure("no close within \(readTimeout) s (\(out.count) bytes read)")
            }
            throw Failure("recv: errno \(errno) after \(out.count) bytes")
        }
    }

    /// One request on its own connection, read until the server closes it; exactly one whole
    /// answer must come back. HTTP/1.1 with `Host` and `Connection: close`, or with `http10`
    /// HTTP/1.0 with neither (the server's fast path answers those).
    public static func fetch(
        port: Int, _ target: String, method: String = "GET", headers: [String: String] = [:],
        http10: Bool = false
    ) async throws -> Response {
        try await offPool { try get(port: port, target, method: method, headers: headers, http10: http10) }
    }

    /// ``fetch(port:_:method:headers:http10:)`` on the calling thread.
    public static func get(
        port: Int, _ target: String, method: String = "GET", headers: [String: String] = [:],
        http10: Bool = false
    ) throws -> Response {
        var text = http10 ? "\(method) \(target) HTTP/1.0\r\n" : "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (k, v) in headers.sorted(by: { $0.key < $1.key }) { text += "\(k): \(v)\r\n" }
        let raw = try blockingExchange(port: port, send: Array((text + "\r\n").utf8))
        let answers: [Response]
        do { answers = try responses(raw, heads: [method == "HEAD"]) } catch let e as Failure {
            throw Failure("\(method) \(target): \(e.description)")
        }
        guard answers.count == 1 else { throw Failure("\(method) \(target): \(answers.count) answers on one request") }
        return answers[0]
    }

    /// The whole answers in a stream, in order, each framed as RFC 9112 6.3 says: no body for
    /// HEAD (`heads[i]`), 1xx, 204 and 304 whatever Content-Length says; a chunked body up to its
    /// last, empty chunk; else Content-Length bytes, or with neither, the rest of the stream. A
    /// head or body cut short is an error, so a stream holding more or less than whole answers
    /// never passes.
    public static func responses(_ raw: [UInt8], heads: [Bool] = []) throws -> [Response] {
        var out: [Response] = []
        var at = 0
        let crlf2: [UInt8] = [13, 10, 13, 10]
        while at < raw.count {
            guard raw.count - at >= 4,
                let end = (at...(raw.count - 4)).first(where: { raw[$0..<($0 + 4)].elementsEqual(crlf2) })
            else {
                throw Failure("unterminated head at byte \(at) of \(raw.count)")
            }
            let lines = String(decoding: raw[at..<end], as: UTF8.self).components(separatedBy: "\r\n")
            let words = lines[0].split(separator: " ")
            guard words.count >= 2, words[0].hasPrefix("HTTP/1."), let status = Int(words[1]) else {
                throw Failure("not a status line at byte \(at): \(lines[0].prefix(80))")
            }
            var headers: [String: String] = [:]
            for l in lines.dropFirst() {
                let kv = l.split(separator: ":", maxSplits: 1)
                if kv.count == 2 { headers[kv[0].lowercased()] = kv[1].trimmingCharacters(in: .whitespaces) }
            }
            let start = end + 4
            var body: [UInt8]
            let isHead = out.count < heads.count && heads[out.count]
            if isHead || (100..<200).contains(status) || status == 204 || status == 304 {
                body = []
                at = start
            } else if headers["transfer-encoding"]?.lowercased() == "chunked" {
                (body, at) = try dechunked(raw, from: start)
            } else if let length = headers["content-length"] {
                guard let n = Int(length), n >= 0 else { throw Failure("Content-Length \(length) is no length") }
                guard start + n <= raw.count else {
                    throw Failure("Content-Length \(n), but \(raw.count - start) body bytes before the stream ended")
                }
                body = Array(raw[start..<(start + n)])
                at = start + n
            } else {
                body = Array(raw[start...])
                at = raw.count
            }
            out.append(Response(status: status, headers: headers, body: body))
        }
        return out
    }

    /// A chunked body from byte `from` up to its last, empty chunk, and the byte after it; an
    /// error if the stream ends first.
    static func dechunked(_ raw: [UInt8], from: Int) throws -> ([UInt8], Int) {
        var out: [UInt8] = [], i = from
        func lineEnd(after i: Int) -> Int? { raw[i...].indices.dropLast().first { raw[$0] == 13 && raw[$0 + 1] == 10 } }
        while true {
            guard i < raw.count, let end = lineEnd(after: i),
                let size = Int(
                    String(decoding: raw[i..<end], as: UTF8.self).split(separator: ";").first?
                        .trimmingCharacters(in: .whitespaces) ?? "", radix: 16)
            else {
                throw Failure("chunked body cut short (no chunk size at byte \(i))")
            }
            let start = end + 2
            if size == 0 {
                // Trailer fields, if any, then the final CRLF.
                var j = start
                while j < raw.count, let e = lineEnd(after: j) {
                    if e == j { return (out, e + 2) }
                    j = e + 2
                }
                throw Failure("chunked body cut short after its last chunk")
            }
            guard start + size + 2 <= raw.count else { throw Failure("chunked body cut short in a chunk of \(size) bytes") }
            out += raw[start..<(start + size)]
            i = start + size + 2
        }
    }
}
