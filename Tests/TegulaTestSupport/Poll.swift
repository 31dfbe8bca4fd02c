import Foundation

/// Waiting in a test for something another thread, task or process does: the condition is asked
/// again every few milliseconds until it holds, and past the deadline the wait fails with an error
/// that names what was awaited. The one way the tests wait for a condition; a fixed sleep stays
/// only where the wait is itself the point of a test (a client that trickles bytes or asks now
/// and then), with a comment saying so.
public enum Poll {
    /// What a wait that reached its deadline throws.
    public struct TimedOut: Error, CustomStringConvertible {
        /// What was awaited, as the caller worded it, read when the deadline passed.
        public let awaited: String
        /// The deadline, in seconds from the start of the wait.
        public let seconds: Double

        public var description: String {
            "timed out after \(String(format: "%g", seconds)) s waiting for \(awaited)"
        }
    }

    /// Blocks the calling thread until `condition` holds, asking it every `every` seconds, for at
    /// most `within` seconds; then throws ``TimedOut`` with `awaited` (read at that moment, so it
    /// may say what was seen last). The deadline only bounds a failure: a wait that succeeds
    /// returns as soon as the condition holds, however loaded the machine. For a thread of its
    /// own or a test that is not async: in async code, ``until(_:within:every:_:)``, which holds
    /// no thread of Swift's cooperative pool (the pool has one a core, and a blocked one starved
    /// the very server a test waited on). Named apart from it so that the compiler never picks
    /// this one for async code.
    public static func untilBlocking(
        _ awaited: @autoclosure () -> String, within seconds: Double = 30, every: Double = 0.005,
        _ condition: () throws -> Bool
    ) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while try !condition() {
            guard Date() < deadline else { throw TimedOut(awaited: awaited(), seconds: seconds) }
            Thread.sleep(forTimeInterval: every)
        }
    }

    /// Waits until `condition` holds, asking it every `every` seconds, for at most `within`
    /// seconds; then throws ``TimedOut`` with `awaited` (read at that moment). Waits with
    /// `Task.sleep`, holding no thread of Swift's cooperative pool.
    public static func until(
        _ awaited: @autoclosure () -> String, within seconds: Double = 30, every: Double = 0.005,
        _ condition: () async throws -> Bool
    ) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while try await !condition() {
            guard Date() < deadline else { throw TimedOut(awaited: awaited(), seconds: seconds) }
            try await Task.sleep(nanoseconds: UInt64(every * 1e9))
        }
    }

    /// Waits until a file written now is stamped later than the file at `path` was last modified:
    /// the file system's clock, coarser than `Date()`, has moved past it, so the next write or use
    /// of a file is ordered after it however the machine is loaded (where a test needs distinct
    /// modification times, instead of a fixed sleep). It blocks, for the few milliseconds the
    /// clock takes to move on.
    public static func untilTheFileClockPasses(_ path: String, within seconds: Double = 30) throws {
        let probe = try TemporaryFolder.make("file-clock")
        defer { try? FileManager.default.removeItem(at: probe) }
        let file = probe.appendingPathComponent("now").path
        let last = try modified(path)
        try untilBlocking("a file written now to be stamped later than \(path) (\(last))", within: seconds) {
            _ = FileManager.default.createFile(atPath: file, contents: nil)
            return try modified(file) > last
        }
    }

    private static func modified(_ path: String) throws -> Date {
        guard let date = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date else {
            throw TimedOut(awaited: "a modification time of \(path)", seconds: 0)
        }
        return date
    }
}
