import Foundation
import TegulaTileset

/// The threads that make tiles, one per core, apart from NIO's event loops and Swift's
/// cooperative pool (a render blocks its thread for milliseconds).
///
/// - Newest first: waiting work is a stack, as a map view's latest tiles are the ones on screen
///   (the seed talk's request stack, on the server side).
/// - One render per key: a request for a tile already queued or being made waits for that render.
///   Keys are a tile's ``TileMemo/Key`` or an IIIF image request's (``ScanImage``): one queue, so
///   at most one render per thread holds its pixels, whichever kind it is.
/// - Work whose every requester has gone away (``submit(_:isCancelled:work:)``'s `isCancelled`)
///   is dropped when it reaches the top of the stack, unstarted.
public final class RenderQueue: @unchecked Sendable {
    /// What the queue has done, for tests and the log.
    public struct Counts: Sendable, Equatable {
        /// Renders run.
        public var rendered = 0
        /// Requests that joined a render already queued or running.
        public var shared = 0
        /// Renders dropped unstarted because every requester had gone.
        public var dropped = 0
    }

    /// Worker threads.
    public let workers: Int
    private let condition = NSCondition()
    private var stack: [Job] = []
    private var running: [AnyHashable: Job] = [:]
    private var counts = Counts()

    final class Job {
        let key: AnyHashable
        let work: @Sendable () -> DynamicTile
        var waiters: [(CheckedContinuation<DynamicTile, Never>, @Sendable () -> Bool)] = []
        init(key: AnyHashable, work: @escaping @Sendable () -> DynamicTile) {
            self.key = key
            self.work = work
        }
    }

    /// A queue with `workers` threads (at least one), started now and running for the process's life.
    public init(workers: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.workers = max(1, workers)
        for i in 0..<self.workers {
            // The workers hold the queue: it lives as long as they do (the process). With `unowned`, a
            // queue made and dropped at once (`tegula serve` of tilesets only) was freed before a
            // worker's first read of it, and about one start in eight crashed.
            let t = Thread { self.loop() }
            t.name = "tegula-render-\(i)"
            t.start()
        }
    }

    /// What has been done so far.
    public var done: Counts { condition.lock(); defer { condition.unlock() }; return counts }

    /// The result of `work` for `key`, run on a worker (or shared with a run already queued or
    /// running for the same key); `.cancelled` when dropped because every requester had gone.
    public func submit(
        _ key: some Hashable & Sendable, isCancelled: @escaping @Sendable () -> Bool,
        work: @escaping @Sendable () -> DynamicTile
    ) async -> DynamicTile {
        await withCheckedContinuation { (c: CheckedContinuation<DynamicTile, Never>) in
            let key = AnyHashable(key)
            condition.lock()
            if let job = running[key] {
                job.waiters.append((c, isCancelled))
                counts.shared += 1
            } else {
                let job = Job(key: key, work: work)
                job.waiters.append((c, isCancelled))
                running[key] = job
                stack.append(job)
                condition.signal()
            }
            condition.unlock()
        }
    }

    private func loop() {
        while true {
            condition.lock()
            while stack.isEmpty { condition.wait() }
            let job = stack.removeLast()
            if job.waiters.allSatisfy({ $0.1() }) {
                running[job.key] = nil
                counts.dropped += 1
                let waiters = job.waiters
                condition.unlock()
                for w in waiters { w.0.resume(returning: .cancelled) }
                continue
            }
            counts.rendered += 1
            condition.unlock()
            let result = job.work()
            condition.lock()
            running[job.key] = nil
            let waiters = job.waiters
            condition.unlock()
            for w in waiters { w.0.resume(returning: result) }
        }
    }
}
