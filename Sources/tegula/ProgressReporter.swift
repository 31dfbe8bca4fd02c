import Foundation

/// Progress on stderr: a redrawn bar when stderr is a terminal, a plain line every few seconds
/// otherwise, nothing when quiet.
final class ProgressReporter: @unchecked Sendable {
    let label: String
    let quiet: Bool
    let isTTY = isatty(STDERR_FILENO) != 0
    let start = Date()
    private let lock = NSLock()
    private var lastPrint = Date.distantPast
    private var finished = false

    init(label: String, quiet: Bool) {
        self.label = label
        self.quiet = quiet
    }

    /// Report `done` of `total` units (throttled).
    func update(done: Int, total: Int, unit: String = "tiles") {
        guard !quiet else { return }
        lock.lock(); defer { lock.unlock() }
        let now = Date()
        let interval = isTTY ? 0.1 : 2.0
        guard now.timeIntervalSince(lastPrint) >= interval || done >= total, !finished else { return }
        lastPrint = now
        let elapsed = now.timeIntervalSince(start)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let eta = rate > 0 ? Double(max(0, total - done)) / rate : 0
        let pct = total > 0 ? min(100, 100 * Double(done) / Double(total)) : 100
        // Rate and ETA only once there is enough time behind them to mean something.
        let stats =
            elapsed >= 0.5
            ? String(format: "%d/%d %@ (%.0f%%), %.0f/s, ETA %.0fs", done, total, unit, pct, rate, eta)
            : String(format: "%d/%d %@ (%.0f%%)", done, total, unit, pct)
        if isTTY {
            let width = 30
            let filled = Int(Double(width) * pct / 100)
            let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
            FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(stats)\u{1B}[K".utf8))
        } else {
            FileHandle.standardError.write(Data("\(label): \(stats)\n".utf8))
        }
    }

    /// End the bar's line.
    func finish() {
        lock.lock(); defer { lock.unlock() }
        if !quiet && isTTY && !finished { FileHandle.standardError.write(Data("\n".utf8)) }
        finished = true
    }
}
