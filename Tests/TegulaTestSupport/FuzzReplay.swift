import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One fuzz input (``FuzzInputs``) replayed through its target's body (``FuzzCase``) in the
/// ordinary suite, timed by the CPU time of the thread that ran it (what the body cost, whatever
/// else the machine is doing: the suites run side by side on 2 cores).
public struct FuzzReplay {
    /// libFuzzer's cap on one input in scripts/fuzz (`-timeout=1`, as GDAL's OSS-Fuzz harness),
    /// held by the replay too; the slowest committed inputs are recorded in RELIABILITY.md
    /// (Fuzzing), measured by `scripts/fuzz replay`.
    /// The replay tests' wall-clock `.timeLimit` is a guard against a hang only (see
    /// ``ProgramRun/limit``): Swift Testing's clock for a case runs from when the case is queued,
    /// and hundreds of cases queued behind tests that wait on processes overran 1 minute without
    /// one running slowly.
    public static let cpuLimit: Duration = .seconds(1)

    /// The input, as ``FuzzInputs/names(_:)`` names it.
    public let name: String
    /// What the body met.
    public let run: FuzzCase
    /// The CPU time the body took on its thread.
    public let cpu: Duration

    /// Runs `body` on input `name` in a fresh temporary folder (removed after).
    public init(_ name: String, _ body: ([UInt8], inout FuzzCase) -> Void) throws {
        let bytes = try FuzzInputs.bytes(name)
        let folder = try TemporaryFolder.make("fuzz")
        defer { try? FileManager.default.removeItem(at: folder) }
        var run = FuzzCase(folder: folder.path)
        let start = Self.threadCPUTime()
        body(bytes, &run)
        cpu = Self.threadCPUTime() - start
        self.name = name
        self.run = run
    }

    /// Everything wrong with this replay, one line each (empty when all is well): a broken
    /// promise, a refusal that is not an `E` accepted by `expected` (the target names the error
    /// type and the reasons it may refuse with), or more CPU time than ``cpuLimit``.
    public func problems<E: Error>(refusing _: E.Type, _ expected: (E) -> Bool = { _ in true }) -> [String] {
        var out = run.broken.map { "\(name): broken: \($0)" }
        for error in run.refusals {
            guard let e = error as? E else {
                out.append("\(name): refused with \(type(of: error)), not \(E.self): \(error)")
                continue
            }
            if !expected(e) {
                let reason = Mirror(reflecting: e).children.first { $0.label == "reason" }.map { " (\($0.value))" } ?? ""
                out.append("\(name): refused for a reason not expected\(reason): \(e)")
            }
        }
        if cpu > Self.cpuLimit { out.append("\(name): took \(cpu) of CPU, over the \(Self.cpuLimit) cap") }
        return out
    }

    /// The CPU time the calling thread has used.
    static func threadCPUTime() -> Duration {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return .seconds(t.tv_sec) + .nanoseconds(t.tv_nsec)
    }
}
