import Foundation

/// Log lines collected from several threads (a run's or a server's `log` callback), in the
/// order they arrived.
public final class LoggedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    /// An empty collection.
    public init() {}

    /// Adds one line.
    public func append(_ s: String) { lock.lock(); lines.append(s); lock.unlock() }

    /// Every line so far.
    public var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
}
