import Foundation
import TegulaCodec
import TegulaIIIF
import TegulaScan
import TegulaSupport

/// An IIIF image read as a scan (``RemoteScan``): its tiles fetched when a worker's window first
/// touches them, through the client (its cache, per-host cap and retries), decoded once and kept
/// for every worker up to ``decodedBudgetBytes``, the least recently used dropped first, so
/// memory stays flat whatever the image's size.
public final class IIIFScan: RemoteScan, @unchecked Sendable {
    /// The URL the scan was named by.
    public let name: String
    /// The opened image service: description, tile grid, format.
    public let service: IIIFImageService
    /// The client that fetches (for its counts).
    public let client: IIIFClient
    public var width: Int { service.info.width }
    public var height: Int { service.info.height }
    /// The info.json's digest: cached tiles are kept under it.
    public var version: String { service.version }
    /// The service's id, as its info.json gives it.
    public var sourceID: String { service.info.id }
    /// Allmaps' name of the service's API version.
    public var sourceType: String { service.info.version == .v2 ? "ImageService2" : "ImageService3" }

    /// Decoded tiles kept for the workers: 64 MiB, 256 tiles of 256² or 16 of 1024² (a pyramid
    /// block's window at the max zoom is at most about 2300² source pixels).
    public static let decodedBudgetBytes = 64 << 20
    let decoded = LRUCache<IIIFTile, RGBAImage>(byteBudget: IIIFScan.decodedBudgetBytes)
    /// Tiles being fetched now: a second worker needing one waits for it instead of asking again.
    private let fetching = NSCondition()
    private var inFlight = Set<IIIFTile>()

    init(name: String, service: IIIFImageService, client: IIIFClient) {
        self.name = name
        self.service = service
        self.client = client
    }

    /// Opens the image service at `url` (its id or its info.json) with `client`, waiting for it
    /// on this thread (never call it from a Swift concurrency task: use ``open(_:client:)-async``).
    public static func open(_ url: String, client: IIIFClient) throws -> IIIFScan {
        IIIFScan(name: url, service: try Blocking.run { try await client.open(url) }, client: client)
    }

    /// Opens the image service at `url` from async code.
    public static func open(_ url: String, client: IIIFClient) async throws -> IIIFScan {
        IIIFScan(name: url, service: try await client.open(url), client: client)
    }

    public func makeReader() throws -> any ScanReader { IIIFScanReader(scan: self) }

    /// The tile decoded: kept, or fetched (from the disk cache or the server) and decoded now.
    /// A failed fetch or an undecodable answer is an error naming the tile's URL.
    func tile(_ t: IIIFTile) throws -> RGBAImage {
        if let kept = decoded.value(for: t) { return kept }
        fetching.lock()
        while inFlight.contains(t) { fetching.wait() }
        if let kept = decoded.value(for: t) {
            fetching.unlock()
            return kept
        }
        inFlight.insert(t)
        fetching.unlock()
        defer {
            fetching.lock()
            inFlight.remove(t)
            fetching.broadcast()
            fetching.unlock()
        }
        let service = self.service
        let bytes: [UInt8]
        do {
            bytes = try Blocking.run { try await service.fetch(t) }
        } catch let e as IIIFError {
            switch e.reason {
            case .status, .unreachable: throw RemoteScanUnavailable(e)
            default: throw e
            }
        }
        let image: RGBAImage
        do {
            image = try TileDecoder.decode(bytes).rgba
        } catch {
            throw IIIFError(.badImage, at: service.url(of: t), "cannot be decoded: \(error)")
        }
        decoded.insert(image, cost: image.pixels.count, for: t)
        return image
    }
}

/// Waits on this thread for async work, for the warp's worker threads and the render threads. The
/// work runs on a queue of its own (a task executor), not on Swift's cooperative threads: the
/// thread waiting may be one of those (a synchronous command's body), and with every one of them
/// waiting (one per core) the work waited for would never run.
public enum Blocking {
    /// The result of `work`, waited for on this thread.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let result = Locked<Result<T, any Error>?>(nil)
        Task(executorPreference: QueueExecutor.shared) {
            do {
                let value = try await work()
                result.withLock { $0 = .success(value) }
            } catch {
                result.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        return try result.withLock { $0! }.get()
    }
}

/// A task executor on a concurrent Dispatch queue of its own, for ``Blocking``.
final class QueueExecutor: TaskExecutor {
    static let shared = QueueExecutor()
    private let queue = DispatchQueue(label: "tegula.iiif", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        queue.async { unowned.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
