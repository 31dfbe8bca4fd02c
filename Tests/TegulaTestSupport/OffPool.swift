import Foundation

/// Blocking work a test waits for doing nothing, run on a thread of its own while the test's
/// task is suspended. Swift's cooperative pool has one thread a core (two here, and no thread is
/// added for one that blocks), and Swift Testing runs every test on it: a test blocked on a
/// program that mostly sleeps (`sbatch --wait` on a Slurm scheduler) held one of the two for
/// half a minute while tests that need a core queued behind it. Only for work that asks the test
/// framework nothing (no `#expect` inside: issues are recorded against the task's test).
public enum OffPool {
    /// The value `work` returns, or what it throws, computed on a new thread.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }
}
