import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Loads the bytes behind a tile URL: `file:` URLs from disk, `http:`/`https:` through
/// AsyncHTTPClient. What ``TileOverlay/loadTile(at:)`` does by default.
///
/// Missing and failed are told apart: an absent file, HTTP 404 or 410, and HTTP 204 (a server
/// saying "no tile here") throw `.tileMissing`; any other error or status throws `.loadFailed`.
public struct TileURLLoader: Sendable {
    /// The HTTP client; `HTTPClient.shared` unless one is given.
    public let client: HTTPClient
    /// Time allowed for one HTTP request.
    public var timeout: TimeAmount
    /// Largest tile body accepted, in bytes.
    public var maximumBodySize: Int

    /// A loader on the shared HTTP client with a 30 s timeout and a 16 MiB body limit.
    public init(client: HTTPClient = .shared, timeout: TimeAmount = .seconds(30),
                maximumBodySize: Int = 16 << 20) {
        self.client = client
        self.timeout = timeout
        self.maximumBodySize = maximumBodySize
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
            throw .loadFailed(path: path, source: file, reason: "\(error)")
        }
    }

    func loadHTTP(_ url: URL, for path: TileOverlayPath) async throws(TileOverlayError) -> Data {
        let source = url.absoluteString
        do {
            var request = HTTPClientRequest(url: source)
            request.method = .GET
            let response = try await client.execute(request, timeout: timeout)
            switch response.status.code {
            case 200...203, 205...299:
                let body = try await response.body.collect(upTo: maximumBodySize)
                return Data(body.readableBytesView)
            case 204, 404, 410:
                // Drain so the connection can be reused.
                _ = try? await response.body.collect(upTo: maximumBodySize)
                throw TileOverlayError.tileMissing(path: path, source: source)
            default:
                _ = try? await response.body.collect(upTo: maximumBodySize)
                throw TileOverlayError.loadFailed(path: path, source: source,
                                                  reason: "HTTP \(response.status.code) \(response.status.reasonPhrase)")
            }
        } catch let error as TileOverlayError {
            throw error
        } catch {
            throw .loadFailed(path: path, source: source, reason: "\(error)")
        }
    }
}
