import Foundation

/// Runs items on `jobs` worker threads, each with its own per-thread state (e.g. a GDAL
/// dataset, which must not be shared), pulling the next item index from a shared counter.
/// The first error stops every worker and is rethrown.
public enum ParallelWork {
    /// Runs `process` for every index in `0..<count` on at most `jobs` threads; `makeState` is
    /// called once per worker thread.
    public static func run<State>(
        jobs: Int, count: Int,
        makeState: @Sendable (_ worker: Int) throws -> State,
        process: @Sendable (_ state: inout State, _ index: Int) throws -> Void
    ) throws {
        let shared = Locked(Queue())
        DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, max(count, 1)))) { worker in
            var state: State
            do { state = try makeState(worker) } catch { shared.withLock { $0.fail(error) }; return }
            while let i = shared.withLock({ $0.next(limit: count) }) {
                do { try process(&state, i) } catch { shared.withLock { $0.fail(error) }; return }
            }
        }
        if let e = shared.current.error { throw e }
    }

    /// The next item index and the first error, shared by the workers.
    private struct Queue {
        var index = 0
        var error: (any Error)?

        mutating func next(limit: Int) -> Int? {
            guard error == nil, index < limit else { return nil }
            index += 1
            return index - 1
        }

        mutating func fail(_ e: any Error) {
            if error == nil { error = e }
        }
    }
}
