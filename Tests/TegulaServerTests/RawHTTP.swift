import Foundation

/// A plain socket speaking HTTP/1.1, for what the test client hides (pipelining, closing).
enum RawHTTP {
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A TCP socket connected to 127.0.0.1:`port` (the caller closes it).
    static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let ok = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard ok == 0 else {
            close(fd)
            throw Failure(description: "connect: errno \(errno)")
        }
        return fd
    }

    /// Sends the bytes and reads until the server closes (at most 30 s without a byte).
    static func exchange(port: Int, send bytes: [UInt8]) throws -> [UInt8] {
        let fd = try connect(port: port)
        defer { close(fd) }
        // Generous: an unoptimised build on a loaded 2-core machine answered cold requests in over
        // 10 s; a server that never answers still fails the test.
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard bytes.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == bytes.count else {
            throw Failure(description: "short send")
        }
        var out: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return out }
            guard n > 0 else { throw Failure(description: "recv: errno \(errno) after \(out.count) bytes (no close)") }
            out += buf[0..<n]
        }
    }

    /// Splits a stream of responses framed by Content-Length; `heads[i]` marks answers to HEAD.
    static func split(_ raw: [UInt8], heads: [Bool]) throws -> [Response] {
        var out: [Response] = []
        var at = 0
        let crlf2: [UInt8] = [13, 10, 13, 10]
        while at < raw.count {
            guard let end = (at..<(raw.count - 3)).first(where: { raw[$0..<($0 + 4)].elementsEqual(crlf2) }) else {
                throw Failure(description: "unterminated head at byte \(at)")
            }
            let lines = String(decoding: raw[at..<end], as: UTF8.self).components(separatedBy: "\r\n")
            let status = Int(lines[0].split(separator: " ")[1]) ?? 0
            var headers: [String: String] = [:]
            for l in lines.dropFirst() {
                let kv = l.split(separator: ":", maxSplits: 1)
                if kv.count == 2 { headers[kv[0].lowercased()] = kv[1].trimmingCharacters(in: .whitespaces) }
            }
            let isHead = out.count < heads.count && heads[out.count]
            let length = isHead || status == 304 || status == 204 ? 0 : Int(headers["content-length"] ?? "0") ?? 0
            guard end + 4 + length <= raw.count else { throw Failure(description: "short body") }
            out.append(Response(status: status, headers: headers, body: Array(raw[(end + 4)..<(end + 4 + length)])))
            at = end + 4 + length
        }
        return out
    }
}
