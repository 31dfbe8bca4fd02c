import Foundation
import TegulaFetch
import TegulaTileset

/// A PMTiles file read by HTTP range requests: TegulaTileset's one PMTiles reader over an
/// ``HTTPRangeSource``.
public typealias RemotePMTilesReader = PMTilesArchive<HTTPRangeSource>

extension PMTilesArchive where Source == HTTPRangeSource {
    /// Opens the PMTiles file at an http:// or https:// URL (one read of its first 16 KiB),
    /// reading through `fetcher` (``HTTPRangeSource/fetcher(on:timeout:)`` on the program's transport).
    public static func open(url: String, fetcher: HTTPFetcher) async throws -> RemotePMTilesReader {
        try await open(try HTTPRangeSource(url: url, fetcher: fetcher), name: Tileset.name(of: url))
    }

    /// Range reads made so far (opening included).
    public var readCount: Int { source.readCount }
}
