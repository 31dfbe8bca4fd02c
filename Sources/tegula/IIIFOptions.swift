import ArgumentParser
import Foundation
import TegulaFetch
import TegulaIIIF
import TegulaInputs
import TegulaSupport

/// How IIIF images are fetched: the disk cache's folder and the retries; the User-Agent names tegula and its
/// version (``Tegula/version``, the one place it is written).
struct IIIFOptions: ParsableArguments {
    @Option(
        name: .customLong("iiif-cache"),
        help: ArgumentHelp(
            "Folder of the IIIF descriptions and tiles fetched, so a rerun fetches nothing twice (default: ~/.cache/tegula/iiif).",
            valueName: "DIR"))
    var cacheFolder: String?

    @Option(
        name: .customLong("iiif-retries"),
        help: ArgumentHelp(
            "Times one IIIF request answered 429 or 503, timed out or cut off, is tried again, waiting 0.5 s doubled each time (or the server's Retry-After) (0: ask once); a refused connection or an unknown host ends the run at once.",
            valueName: "N"))
    var retries: Int = IIIFPoliteness().retry.maxAttempts - 1

    /// The one client of this process, made on first use (its counts for ``summary()``).
    private static let installed = Locked<IIIFClient?>(nil)

    /// The client (its cache in ``cacheFolder`` or the user's cache folder).
    func client() throws -> IIIFClient { try Self.client(cacheFolder: cacheFolder, retries: retries) }

    func validate() throws {
        // 20 retries wait at most 452 s (0.5 s doubled up to the 30-s cap), before jitter.
        guard (0...20).contains(retries) else { throw ValidationError("--iiif-retries must be 0 to 20, not \(retries)") }
    }

    /// The process's client with its cache in `cacheFolder` (nil: the user's cache folder),
    /// trying a request `retries` more times.
    static func client(cacheFolder: String?, retries: Int) throws -> IIIFClient {
        if let c = Self.installed.current { return c }
        var politeness = IIIFPoliteness()
        politeness.userAgent = "tegula/\(Tegula.version)"
        politeness.retry.maxAttempts = retries + 1
        let cache = try IIIFCache(folder: cacheFolder ?? IIIFCache.defaultFolder)
        let made = IIIFClient(transport: Network.transport, politeness: politeness, cache: cache)
        Self.installed.withLock { $0 = made }
        return made
    }

    /// The command's input resolver, made once in its `run()` and passed to every stage: IIIF
    /// images and annotations through this process's client, made on first use, so a command on
    /// local scans makes no cache folder; reference tilesets by URL through the one transport.
    func inputs() -> InputResolver {
        let folder = cacheFolder, retries = retries
        return InputResolver(client: { try Self.client(cacheFolder: folder, retries: retries) }, fetcher: HTTPFetcher(transport: Network.transport))
    }

    /// One line of what was fetched, when anything was asked of a server or the cache.
    static func summary() -> String? {
        guard let c = installed.current?.counts, c.requests + c.cacheHits > 0 else { return nil }
        return String(
            format: "tegula: IIIF: %d requests (%.1f MB), %d answers from the cache, %d revalidated, %d retries",
            c.requests, Double(c.bytes) / 1e6, c.cacheHits, c.revalidated, c.retries)
    }
}
