import Foundation

/// A value guarded by a lock: the one place this module shares mutable state between tasks.
///
/// `NSLock` rather than `Mutex` so the module also builds for macOS 14 (the package's floor).
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value. Never `await` inside.
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the current value.
    var current: Value { withLock { $0 } }
}
