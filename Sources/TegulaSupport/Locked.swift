import Foundation

/// A value guarded by a lock, for state shared between threads or tasks.
///
/// `NSLock` rather than `Mutex` so the package also builds for macOS 14 (its declared floor).
/// Inlinable, so a module that locks its own type gets the lock specialised for it rather than
/// calling through generic metadata (the server's tile cache is on every hot request).
public final class Locked<Value>: @unchecked Sendable {
    @usableFromInline var value: Value
    @usableFromInline let lock = NSLock()

    /// Guards `value`.
    @inlinable public init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value. Never `await` inside.
    @inlinable public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the current value.
    @inlinable public var current: Value { withLock { $0 } }
}
