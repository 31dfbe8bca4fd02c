import ArgumentParser
import Foundation
import TegulaGeoreference
import TegulaIIIF
import TegulaIIIFSource
import TegulaPipeline
import TegulaScan
import TegulaSupport

/// How IIIF images are fetched: the disk cache's folder and the retries; the User-Agent names tegula and its
/// version (``Tegula/version``, the one place it is written).
struct IIIFOptions: ParsableArguments {
    @Option(name: .customLong("iiif-cache"),
            help: ArgumentHelp("Folder of the IIIF descriptions and tiles fetched, so a rerun fetches nothing twice (default: ~/.cache/tegula/iiif).",
                               valueName: "DIR"))
    var cacheFolder: String?

    @Option(name: .customLong("iiif-retries"),
            help: ArgumentHelp("Times one IIIF request answered 429 or 503, timed out or cut off, is tried again, waiting 0.5 s doubled each time (or the server's Retry-After) (0: ask once); a refused connection or an unknown host ends the run at once.",
                               valueName: "N"))
    var retries: Int = IIIFPoliteness().retry.maxAttempts - 1

    /// The one client of this process, made on first use, with remote scans opened through it.
    private static let installed = Locked<IIIFClient?>(nil)

    /// The client (its cache in ``cacheFolder`` or the user's cache folder), installed as the
    /// opener of every http(s) scan name (``ScanSources``).
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
        ScanSources.setRemoteOpener { url in try IIIFScan.open(url, client: made) }
        Self.installed.withLock { $0 = made }
        return made
    }

    /// How a pipeline reaches IIIF images and annotations: through this process's client
    /// (``ScanArgument``'s rules, the annotation's size checked against the image's).
    /// The client is made on first use, so a pipeline of local scans makes no cache folder.
    func remoteSources() -> RemoteSources {
        let folder = cacheFolder, retries = retries
        return RemoteSources(resolve: { input, gcps, mapID in
            let r = try ScanArgument.resolveBlocking(input, gcps: gcps, mapID: mapID, client: try Self.client(cacheFolder: folder, retries: retries))
            return (r.scan, r.gcps)
        }, document: { url in
            let client = try Self.client(cacheFolder: folder, retries: retries)
            return try Blocking.run { try ScanArgument.saved(try await client.document(url), of: url, client: client) }
        })
    }

    /// One line of what was fetched, when anything was asked of a server or the cache.
    static func summary() -> String? {
        guard let c = installed.current?.counts, c.requests + c.cacheHits > 0 else { return nil }
        return String(format: "tegula: IIIF: %d requests (%.1f MB), %d answers from the cache, %d revalidated, %d retries",
                      c.requests, Double(c.bytes) / 1e6, c.cacheHits, c.revalidated, c.retries)
    }
}

/// A scan argument with annotations looked through: the scan to read (a local path or an IIIF
/// image service URL) and the GCP file (an annotation, perhaps fetched to the cache).
struct ScanArgument {
    var scan: String
    var gcps: String?

    /// `input` as given beside `--gcps` and `--map`: a local raster stays as it is (a local scan
    /// beside an annotation wins); an annotation (a file, or an http(s) URL that is no IIIF image)
    /// without `--gcps` becomes its target's IIIF image with itself as the GCPs, its size checked
    /// against the image's info.json; an IIIF image URL is opened. Async code passes
    /// `open` to open images without blocking a concurrency thread.
    static func resolve(_ input: String, gcps: String?, mapID: String?, client: IIIFClient) async throws -> ScanArgument {
        var annotation: String? = nil
        if ScanSources.isRemote(input) {
            if gcps == nil, !input.hasSuffix("/info.json"), let path = try await annotationFile(input, client: client) {
                annotation = path
            } else {
                _ = try await open(input, client: client)
                if let gcps { try checkSize(annotation: gcps, mapID: mapID, scan: input) }
                return ScanArgument(scan: input, gcps: gcps)
            }
        } else if gcps == nil, isJSON(input) {
            annotation = input
        }
        guard let annotation else { return ScanArgument(scan: input, gcps: gcps) }
        let target = try chosen(annotation, mapID: mapID)
        guard let service = target.service else {
            throw CLIFailure(message: "\(annotation): the annotation's target is no IIIF image service; give the scan itself: SCAN --gcps \(annotation)")
        }
        _ = try await open(service, client: client)
        try checkSize(annotation: annotation, mapID: mapID, scan: service)
        return ScanArgument(scan: service, gcps: annotation)
    }

    /// The same, waited for on this thread (the synchronous commands').
    static func resolveBlocking(_ input: String, gcps: String?, mapID: String?, client: IIIFClient) throws -> ScanArgument {
        try Blocking.run { try await resolve(input, gcps: gcps, mapID: mapID, client: client) }
    }

    /// The IIIF image at `url`, opened once for the process.
    static func open(_ url: String, client: IIIFClient) async throws -> any RemoteScan {
        if let known = ScanSources.known(url) { return known }
        let scan = try await IIIFScan.open(url, client: client)
        ScanSources.add(scan)
        return scan
    }

    /// A URL's JSON saved in the cache folder when it is an annotation or georeferenced map (not
    /// an image description), for the GCP reader; nil when it is an image's.
    static func annotationFile(_ url: String, client: IIIFClient) async throws -> String? {
        let body: [UInt8]
        do { body = try await client.document(url) } catch {
            // Not a document: an image service's id (its info.json is read next).
            return nil
        }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] else { return nil }
        if object["protocol"] as? String == "http://iiif.io/api/image" || (object["type"] as? String)?.hasPrefix("ImageService") == true {
            return nil
        }
        return try saved(body, of: url, client: client)
    }

    /// A document fetched from `url` saved in the cache folder's `annotations/` (named by a
    /// digest of the URL), for the GCP reader: its path.
    static func saved(_ body: [UInt8], of url: String, client: IIIFClient) throws -> String {
        let folder = (client.cache?.folder ?? NSTemporaryDirectory()) + "/annotations"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = "\(folder)/\(FNV1a.hex(url)).json"
        try AtomicFile.write(body, to: path)
        return path
    }

    static func isJSON(_ path: String) -> Bool {
        if ["json", "jsonld", "geojson"].contains((path as NSString).pathExtension.lowercased()) { return true }
        guard let h = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? h.close() }
        let head = String(decoding: h.readData(ofLength: 64), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return head.hasPrefix("{")
    }

    /// The target of the map `mapID` picks (its id or the id's last part), or of the only map.
    static func chosen(_ annotation: String, mapID: String?) throws -> AnnotationTarget {
        let targets = try AnnotationTarget.read(path: annotation)
        if let mapID {
            guard let t = targets.first(where: { $0.mapID == mapID || $0.name == mapID }) else {
                throw CLIFailure(message: "\(annotation): no map '\(mapID)'; it holds \(targets.compactMap(\.mapID).joined(separator: ", "))")
            }
            return t
        }
        guard targets.count == 1 else {
            throw CLIFailure(message: "\(annotation): \(targets.count) maps (\(targets.compactMap(\.name).joined(separator: ", "))); choose one with --map ID")
        }
        return targets[0]
    }

    /// The annotation's image size against the image's: a re-scanned image is refused in one line.
    static func checkSize(annotation: String, mapID: String?, scan: String) throws {
        guard isJSON(annotation), let target = try? chosen(annotation, mapID: mapID),
              let w = target.width, let h = target.height, let remote = ScanSources.known(scan) else { return }
        guard w == remote.width, h == remote.height else {
            throw CLIFailure(message: "\(annotation): georeferenced on an image of \(w) × \(h) pixels, but \(IIIFClient.infoURL(scan)) "
                             + "describes \(remote.width) × \(remote.height) (re-scanned?); georeference the image again, or give the scan it was made on")
        }
    }
}
