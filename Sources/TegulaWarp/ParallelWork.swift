import Foundation

/// Runs items on `jobs` worker threads, each with its own per-thread state (e.g. a GDAL
/// dataset, which must not be shared), pulling the next item index from a shared counter.
/// The first error stops every worker and is rethrown.
public enum ParallelWork {
    public static func run<State>(jobs: Int, count: Int,
                                  makeState: @Sendable (_ worker: Int) throws -> State,
                                  process: @Sendable (_ state: inout State, _ index: Int) throws -> Void) throws {
        let box = Shared()
        DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, max(count, 1)))) { worker in
            var state: State
            do { state = try makeState(worker) } catch { box.fail(error); return }
            while let i = box.next(limit: count) {
                do { try process(&state, i) } catch { box.fail(error); return }
            }
        }
        if let e = box.error { throw e }
    }

    private final class Shared: @unchecked Sendable {
        let lock = NSLock()
        var index = 0
        var error: Error?

        func next(limit: Int) -> Int? {
            lock.lock(); defer { lock.unlock() }
            guard error == nil, index < limit else { return nil }
            index += 1
            return index - 1
        }

        func fail(_ e: Error) {
            lock.lock(); defer { lock.unlock() }
            if error == nil { error = e }
        }
    }
}

/// A value guarded by a lock, for state shared between worker threads.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    public init(_ value: Value) { self.value = value }
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock(); defer { lock.unlock() }
        return try body(&value)
    }
}
