import TegulaSupport

/// Why a PATH cannot be served on demand, in Tegula's one error shape: a reason, where (the
/// file) and one line.
public typealias OnDemandError = LocatedError<OnDemandErrorReason>

/// The kinds of OnDemandError, for callers and tests that branch on them.
public enum OnDemandErrorReason: String, Sendable, Hashable {
    /// A map served from a pipeline file is no longer in it.
    case mapGone
    /// The scan a PATH names does not exist.
    case noScan
    /// The GCP file of `SCAN:GCPFILE` does not exist.
    case noGCPFile
}

/// OnDemandError's constructors, one per reason, so each message is written once.
extension LocatedError where Reason == OnDemandErrorReason {
    /// The map `name` is no longer in the pipeline file at `path`.
    public static func mapGone(_ name: String, from path: String) -> OnDemandError {
        OnDemandError(.mapGone, at: path, "map '\(name)' is no longer in the file")
    }

    /// No scan at `path`.
    public static func noScan(_ path: String) -> OnDemandError { OnDemandError(.noScan, at: path, "no such file") }

    /// No GCP file at `path`.
    public static func noGCPFile(_ path: String) -> OnDemandError { OnDemandError(.noGCPFile, at: path, "no such GCP file") }
}
