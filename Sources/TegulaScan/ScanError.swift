import TegulaSupport

/// Everything that can go wrong reading a scan's pixels, as one line that says what, where and
/// what would be right (the readers' own; the warp after them throws `WarpError`).
public typealias ScanError = LocatedError<ScanErrorReason>

/// The kinds of ScanError, for callers and tests that branch on them.
public enum ScanErrorReason: String, Sendable, Hashable {
    /// The scan's pixels cannot be read (no bands, not 8-bit, a file cut short, a URL with no
    /// remote opener).
    case unreadable
}
