import TegulaFetch
import TegulaIIIF
import TegulaIIIFSource
import TegulaScan
import TegulaSupport

/// How a program opens its inputs, made once at its edge and passed to everything that reads a
/// scan (the warp, the pipeline, tiles on demand, the editor), as go-pmtiles' `OpenBucket` takes
/// an injected client: local files through GDAL, IIIF images through its IIIF client (made on
/// first use, so a run of local scans makes no cache folder), each image opened once and shared by
/// every stage given this resolver. Georeference Annotations are looked through to the image they
/// name by ``resolve(_:gcps:mapID:)``, and match references opened by
/// ``reference(_:options:scanWidth:scanHeight:)`` (a tileset by URL through its HTTP fetcher). A
/// resolver made without a client refuses a URL in one line.
public final class InputResolver: ScanOpener, Sendable {
    private struct State {
        var client: IIIFClient?
        var opened: [String: any RemoteScan] = [:]
    }

    private let makeClient: (@Sendable () throws -> IIIFClient)?
    /// Fetches the tiles of a reference tileset given by URL; nil refuses such a URL.
    private let tileFetcher: HTTPFetcher?
    private let state = Locked(State())

    /// A resolver of local files alone (and tilesets by URL through `fetcher`, when given): an
    /// IIIF image URL is refused.
    public init(fetcher: HTTPFetcher? = nil) {
        makeClient = nil
        tileFetcher = fetcher
    }

    /// A resolver reading IIIF images through `client` (and tilesets by URL through `fetcher`).
    public init(client: IIIFClient, fetcher: HTTPFetcher? = nil) {
        makeClient = { client }
        tileFetcher = fetcher
    }

    /// A resolver whose client `makeClient` makes when the first IIIF image or annotation URL is
    /// read (a cache folder made then, not before), and tilesets by URL through `fetcher`.
    public init(client makeClient: @escaping @Sendable () throws -> IIIFClient, fetcher: HTTPFetcher? = nil) {
        self.makeClient = makeClient
        tileFetcher = fetcher
    }

    /// The fetcher of tilesets by URL; a resolver without one refuses `url` in one line.
    func fetcher(for url: String) throws -> HTTPFetcher {
        guard let tileFetcher else {
            throw ScanError(.unreadable, at: url, "a URL, but this program reads no remote tilesets; give a local file")
        }
        return tileFetcher
    }

    /// True when this resolver reaches servers (it has an IIIF client, made or to be made).
    public var readsRemote: Bool { makeClient != nil }

    /// The IIIF client, made on first use; a resolver without one refuses `url` in one line.
    func client(for url: String) throws -> IIIFClient {
        if let made = state.withLock({ $0.client }) { return made }
        guard let makeClient else {
            throw ScanError(.unreadable, at: url, "a URL, but this program reads no remote scans; give a local file")
        }
        let made = try makeClient()
        return state.withLock { s in
            if let first = s.client { return first }
            s.client = made
            return made
        }
    }

    /// The IIIF image at `url`, opened on first use (waiting on this thread: never from a Swift
    /// concurrency task, which uses ``open(url:)``) and kept for this resolver.
    public func remote(_ url: String) throws -> any RemoteScan {
        if let known = known(url) { return known }
        return keep(try IIIFScan.open(url, client: try client(for: url)), as: url)
    }

    /// The IIIF image at `url`, opened from async code on first use and kept for this resolver.
    public func open(url: String) async throws -> any RemoteScan {
        if let known = known(url) { return known }
        return keep(try await IIIFScan.open(url, client: try client(for: url)), as: url)
    }

    /// The image opened for `url` so far, without opening it.
    func known(_ url: String) -> (any RemoteScan)? {
        state.withLock { $0.opened[url] }
    }

    /// `scan` kept for `url`, unless another was kept first (which is returned).
    private func keep(_ scan: any RemoteScan, as url: String) -> any RemoteScan {
        state.withLock { s in
            if let first = s.opened[url] { return first }
            s.opened[url] = scan
            return scan
        }
    }
}
