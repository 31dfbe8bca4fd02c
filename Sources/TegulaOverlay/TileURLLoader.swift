import Foundation
import TegulaFetch

/// Loads the bytes behind a tile URL: `file:` URLs from disk, `http:`/`https:` through an
/// `HTTPFetcher`. What ``TileOverlay/loadTile(at:)`` does by default.
///
/// Missing and failed are told apart: an absent file, HTTP 404 or 410, and HTTP 204 (a server
/// saying "no tile here") throw `.tileMissing`; any other error or status throws `.loadFailed`.
public struct TileURLLoader: Sendable {
    /// What sends the HTTP requests: by default one attempt on a URLSession of this loader's own.
    public let fetcher: HTTPFetcher
    /// Largest tile body accepted, in bytes.
    public var maximumBodySize: Int

    /// A loader sending its requests through `fetcher` (an app's one transport, say, shared by
    /// its overlays), accepting bodies up to `maximumBodySize` bytes (16 MiB).
    public init(fetcher: HTTPFetcher, maximumBodySize: Int = 16 << 20) {
        self.fetcher = fetcher
        self.maximumBodySize = maximumBodySize
    }

    /// A loader on a URLSession of its own (opened at the first HTTP load), one attempt per tile
    /// within `timeout` (30 s), bodies up to `maximumBodySize` bytes (16 MiB).
    public init(timeout: Duration = .seconds(30), maximumBodySize: Int = 16 << 20) {
        self.init(fetcher: HTTPFetcher(transport: URLSessionTransport(), timeout: timeout), maximumBodySize: maximumBodySize)
    }

    /// The bytes at `url`, loaded for `path` (used in error messages).
    public func load(_ url: URL, for path: TileOverlayPath) async throws(TileOverlayError) -> Data {
        switch url.scheme?.lowercased() {
        case "file": return try loadFile(url, for: path)
        case "http", "https": return try await loadHTTP(url, for: path)
        default: throw .unsupportedScheme(url)
        }
    }

    func loadFile(_ url: URL, for path: TileOverlayPath) throws(TileOverlayError) -> Data {
        let file = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw .tileMissing(path: path, source: file)
        }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw .loadFailed(path: path, source: file, reason: "\(error)", underlying: error)
        }
    }

    func loadHTTP(_ url: URL, for path: TileOverlayPath) async throws(TileOverlayError) -> Data {
        let source = url.absoluteString
        let response: HTTPResponse
        do {
            response = try await fetcher.get(url, maxBodyBytes: maximumBodySize)
        } catch {
            throw .loadFailed(path: path, source: source, reason: error.message, underlying: error)
        }
        switch response.status {
        case 200...203, 205...299:
            do {
                return Data(try response.wholeBody())
            } catch {
                throw .loadFailed(path: path, source: source, reason: error.message, underlying: error)
            }
        case 204, 404, 410:
            throw .tileMissing(path: path, source: source)
        default:
            throw .loadFailed(path: path, source: source, reason: HTTPStatus.line(response.status))
        }
    }
}
