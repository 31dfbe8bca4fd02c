import Foundation
import TegulaFetch
import TegulaSupport
import TegulaTileset

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
/// virtual-host-style URLs, nginx, any server with `Range` support), through an `HTTPFetcher`.
/// Each read after the first sends the file version it expects: `If-Match` with a strong ETag,
/// else `If-Unmodified-Since`; a 412, or an answer naming another ETag or size, is
/// ``RemoteFileChanged``. Redirects are followed (at most 5), no credentials are sent: the file
/// must be public or the URL presigned.
public struct HTTPRangeSource: ByteSource {
    /// The file's URL.
    public let location: String
    /// What sends the range requests.
    public let fetcher: HTTPFetcher
    private let url: URL
    private let reads = Locked(0)

    /// A range reader's fetcher on `transport`: one read may take `timeout`, and is sent once more
    /// when it timed out or its connection closed before the answer (a pooled keep-alive
    /// connection the server had dropped; a range GET is safe to repeat); a refused connection
    /// or an unresolvable host fails at once. `User-Agent: tegula`.
    public static func fetcher(on transport: any HTTPTransport, timeout: Duration = .seconds(30)) -> HTTPFetcher {
        HTTPFetcher(
            transport: transport,
            retry: RetryPolicy(
                maxAttempts: 2, initialBackoff: .zero, retriesTimeouts: true,
                retriesLostConnections: true),
            userAgent: "tegula", timeout: timeout, maxRedirects: 5)
    }

    /// A source for `url` read through `fetcher`; refused unless it is http:// or https:// with a host.
    public init(url: String, fetcher: HTTPFetcher) throws(RemoteError) {
        guard Location(url).isURL, HTTPFetcher.isFetchable(url), let u = URL(string: url) else {
            throw RemoteError(.badURL, at: url, "not a URL tegula can read; expected http://HOST/PATH or https://HOST/PATH")
        }
        location = url
        self.url = u
        self.fetcher = fetcher
    }

    /// Range reads made so far: tests check that header and root are read once and leaves are
    /// cached.
    public var readCount: Int { reads.current }

    /// `length` bytes at `offset` by one `Range` GET, sending `version`'s validators when given.
    public func read(offset: UInt64, length: UInt64, of version: FileVersion?) async throws -> RangeRead {
        reads.withLock { $0 += 1 }
        var headers = ["Range": "bytes=\(offset)-\(offset + length - 1)"]
        if let version {
            if version.hasStrongETag, let tag = version.etag {
                headers["If-Match"] = tag
            } else if let date = version.lastModified {
                headers["If-Unmodified-Since"] = date
            }
        }
        let response: HTTPResponse
        do {
            response = try await fetcher.get(url, headers: headers, maxBodyBytes: Int(clamping: length))
        } catch {
            throw RemoteError(.unreachable, at: location, error.message)
        }
        switch response.status {
        case 206:
            break
        case 412:
            throw RemoteFileChanged()
        case 416 where version != nil:
            throw RemoteFileChanged()  // the file got shorter than a range of the version read
        case 200:
            throw RemoteError(
                .noRanges, at: location,
                "the server sent the whole file (HTTP 200) for a byte-range request; "
                    + "serve it from a server with range support (S3 or S3-compatible stores, nginx, Apache)")
        case 404, 410:
            throw RemoteError(.notFound, at: location, "not found (HTTP \(response.status)); check the URL (path-style S3: http://HOST/BUCKET/KEY)")
        case 401, 403:
            throw RemoteError(.denied, at: location, "access denied (HTTP \(response.status)); the file must be public, or give a presigned URL")
        case 416:
            throw RemoteError(.badAnswer, at: location, "the file is empty (HTTP 416 for its first bytes); not a PMTiles file")
        default:
            throw RemoteError(.badAnswer, at: location, "\(HTTPStatus.line(response.status)) for a byte-range request; expected 206")
        }
        guard let range = response.header("Content-Range"), let total = Self.total(range, start: offset) else {
            throw RemoteError(.badAnswer, at: location, "a 206 answer without a Content-Range 'bytes \(offset)-…/SIZE'")
        }
        let answered = FileVersion(etag: response.header("ETag"), lastModified: response.header("Last-Modified"), size: total)
        if let version,
            version.size != answered.size
                || (version.etag != nil && answered.etag != nil && version.etag != answered.etag)
        {
            throw RemoteFileChanged()  // a server ignoring If-Match still names the file it read
        }
        let expected = Int(min(length, total > offset ? total - offset : 0))
        guard !response.isTruncated, response.body.count <= expected else {
            throw RemoteError(.unreachable, at: location, "reading \(expected) bytes at \(offset) failed (more bytes came than the range holds)")
        }
        return RangeRead(bytes: response.body, version: answered)
    }

    /// The size in `bytes START-END/SIZE` when START is `start`; nil otherwise (or for `*`).
    static func total(_ contentRange: String, start: UInt64) -> UInt64? {
        let parts = contentRange.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bytes" else { return nil }
        let rangeAndSize = parts[1].split(separator: "/")
        guard rangeAndSize.count == 2, let first = rangeAndSize[0].split(separator: "-").first,
            UInt64(first) == start
        else { return nil }
        return UInt64(rangeAndSize[1])
    }
}
