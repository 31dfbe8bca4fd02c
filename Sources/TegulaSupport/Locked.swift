import Foundation

/// A value guarded by a lock, for state shared between threads or tasks.
///
/// `NSLock` rather than `Mutex` so the package also builds for macOS 14 (its declared floor).
public final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    /// Guards `value`.
    public init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value. Never `await` inside.
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the current value.
    public var current: Value { withLock { $0 } }
}
