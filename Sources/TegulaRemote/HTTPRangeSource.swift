import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import TegulaBundle
import TegulaIIIF
import TegulaSupport

/// Why reading a remote file failed.
public enum RemoteFailure: Hashable, Sendable {
    /// Not an http:// or https:// URL with a host.
    case badURL
    /// 404 or 410.
    case notFound
    /// 401 or 403.
    case denied
    /// The server answered a byte-range request with the whole file (200).
    case noRanges
    /// Any other status, or an answer without the headers a range answer needs.
    case badAnswer
    /// No answer: connection refused, DNS, TLS, timeout.
    case unreachable
    /// A synchronous read was asked of a remote file, whose bytes are only ever awaited.
    case awaitedOnly
}

/// A remote file that cannot be read: `URL: what, and what would be right`.
public typealias RemoteError = LocatedError<RemoteFailure>

/// Byte ranges of one file on an HTTP server (S3 and S3-compatible stores with path- or
/// virtual-host-style URLs, nginx, any server with `Range` support), through AsyncHTTPClient.
/// Each read after the first sends the file version it expects: `If-Match` with a strong ETag,
/// else `If-Unmodified-Since`; a 412, or an answer naming another ETag or size, is
/// ``RemoteFileChanged``. Redirects are followed (at most 5), no credentials are sent: the file
/// must be public or the URL presigned.
public struct HTTPRangeSource: ByteSource {
    /// The file's URL.
    public let location: String
    /// Time for one read, connection included.
    public let timeout: TimeAmount
    private let reads = Locked(0)

    /// One client for every remote file, on an event loop of its own, kept for the life of the
    /// process (never shut down).
    static let client: HTTPClient = {
        var c = HTTPClient.Configuration()
        c.redirectConfiguration = .follow(max: 5, allowCycles: false)
        c.timeout = .init(connect: .seconds(10), read: .seconds(30))
        c.decompression = .disabled
        return HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup(numberOfThreads: 1), configuration: c)
    }()

    /// A source for `url`; refused unless it is http:// or https:// with a host.
    public init(url: String, timeout: TimeAmount = .seconds(30)) throws(RemoteError) {
        guard Self.isRemote(url), let c = URLComponents(string: url), c.host?.isEmpty == false else {
            throw RemoteError(.badURL, at: url, "not a URL tegula can read; expected http://HOST/PATH or https://HOST/PATH")
        }
        location = url
        self.timeout = timeout
    }

    /// True when `path` names a remote file (http:// or https://) rather than a local one.
    public static func isRemote(_ path: String) -> Bool {
        let p = path.lowercased()
        return p.hasPrefix("http://") || p.hasPrefix("https://")
    }

    /// Range reads made so far: tests check that header and root are read once and leaves are
    /// cached.
    public var readCount: Int { reads.current }

    /// `length` bytes at `offset` by one `Range` GET, sending `version`'s validators when given.
    public func read(offset: UInt64, length: UInt64, of version: FileVersion?) async throws -> RangeRead {
        reads.withLock { $0 += 1 }
        var request = HTTPClientRequest(url: location)
        request.headers.add(name: "Range", value: "bytes=\(offset)-\(offset + length - 1)")
        request.headers.add(name: "User-Agent", value: "tegula")
        if let version {
            if version.hasStrongETag, let tag = version.etag {
                request.headers.add(name: "If-Match", value: tag)
            } else if let date = version.lastModified {
                request.headers.add(name: "If-Unmodified-Since", value: date)
            }
        }
        // Tried twice: a pooled keep-alive connection the server has closed meanwhile ("I/O on
        // closed channel") fails at once, and a range GET is safe to repeat.
        var answer: HTTPClientResponse?
        for attempt in 0..<2 where answer == nil {
            do {
                answer = try await Self.client.execute(request, timeout: timeout)
            } catch where attempt == 0 {
                continue
            } catch {
                throw RemoteError(.unreachable, at: location, "no answer (\(TransportFailure.describe(error))); check the host, port and network")
            }
        }
        guard let response = answer else { throw RemoteError(.unreachable, at: location, "no answer") }
        switch response.status.code {
        case 206:
            break
        case 412:
            throw RemoteFileChanged()
        case 416 where version != nil:
            throw RemoteFileChanged()  // the file got shorter than a range of the version read
        case 200:
            throw RemoteError(.noRanges, at: location, "the server sent the whole file (HTTP 200) for a byte-range request; "
                              + "serve it from a server with range support (S3 or S3-compatible stores, nginx, Apache)")
        case 404, 410:
            throw RemoteError(.notFound, at: location, "not found (HTTP \(response.status.code)); check the URL (path-style S3: http://HOST/BUCKET/KEY)")
        case 401, 403:
            throw RemoteError(.denied, at: location, "access denied (HTTP \(response.status.code)); the file must be public, or give a presigned URL")
        case 416:
            throw RemoteError(.badAnswer, at: location, "the file is empty (HTTP 416 for its first bytes); not a PMTiles file")
        default:
            throw RemoteError(.badAnswer, at: location, "HTTP \(response.status.code) \(response.status.reasonPhrase) for a byte-range request; expected 206")
        }
        guard let range = response.headers.first(name: "Content-Range"), let total = Self.total(range, start: offset) else {
            throw RemoteError(.badAnswer, at: location, "a 206 answer without a Content-Range 'bytes \(offset)-…/SIZE'")
        }
        let answered = FileVersion(etag: response.headers.first(name: "ETag"),
                                         lastModified: response.headers.first(name: "Last-Modified"), size: total)
        if let version, version.size != answered.size
            || (version.etag != nil && answered.etag != nil && version.etag != answered.etag) {
            throw RemoteFileChanged()  // a server ignoring If-Match still names the file it read
        }
        let expected = Int(min(length, total > offset ? total - offset : 0))
        let body: ByteBuffer
        do {
            body = try await response.body.collect(upTo: expected)
        } catch {
            throw RemoteError(.unreachable, at: location, "reading \(expected) bytes at \(offset) failed (\(TransportFailure.describe(error)))")
        }
        return RangeRead(bytes: Array(body.readableBytesView), version: answered)
    }

    /// The size in `bytes START-END/SIZE` when START is `start`; nil otherwise (or for `*`).
    static func total(_ contentRange: String, start: UInt64) -> UInt64? {
        let parts = contentRange.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bytes" else { return nil }
        let rangeAndSize = parts[1].split(separator: "/")
        guard rangeAndSize.count == 2, let first = rangeAndSize[0].split(separator: "-").first,
              UInt64(first) == start else { return nil }
        return UInt64(rangeAndSize[1])
    }
}
