import Foundation

/// What a finished program left: its exit status and everything it wrote.
public struct ProgramRun: Sendable {
    /// The exit status (0 = success).
    public var status: Int32
    /// Standard output, decoded as UTF-8.
    public var stdout: String
    /// Standard error, decoded as UTF-8.
    public var stderr: String

    /// Variables of the caller's environment that change what a program run by a test does and
    /// that no test may inherit: an array job's index (`tegula run --shard auto` would take the
    /// shard of the job the suite itself runs in) and `TEGULA`, the binary scripts run. A test
    /// that wants one sets it.
    static func leaks(_ name: String) -> Bool {
        name.hasPrefix("SLURM_") || name.hasPrefix("AWS_BATCH_") || name == "JOB_COMPLETION_INDEX" || name == "TEGULA"
    }

    /// The environment for a child process of a test: this process's without the variables that
    /// ``leaks(_:)`` names, plus `adding`.
    public static func childEnvironment(_ adding: [String: String] = [:]) -> [String: String] {
        ProcessInfo.processInfo.environment.filter { !leaks($0.key) }.merging(adding) { $1 }
    }

    /// The longest any program a test runs may take (a hung child must fail its test, not hold
    /// the suite until scripts/test's overall timeout): 10 minutes, above the slowest run a test
    /// makes (a sanitized `tegula` under scripts/test-sanitizers). This, not `.timeLimit`, is what
    /// bounds a test that waits on a process: Swift Testing counts a case's `.timeLimit` from when
    /// the case is queued, so in the whole suite (about 570 s on 2 cores) cases under limits of 1–3
    /// minutes failed while they waited for a thread, without running slowly. Every suite's
    /// `.timeLimit` is therefore 20 minutes, scripts/test's own timeout, and a run killed there is
    /// named test by test by scripts/test_gate.py (started and never ended).
    public static let limit: Double = 600

    /// Runs `program` (a path, or a name looked up on PATH through `/usr/bin/env`) with
    /// `arguments`, feeding it `stdin`, in ``childEnvironment(_:)`` plus `environment`, and waits
    /// at most `limit` seconds: a child still running then is killed, and ``TimedOut`` thrown.
    /// Both pipes are drained concurrently so a large output cannot block the child.
    public static func run(
        _ program: String, _ arguments: [String], stdin: String? = nil,
        environment: [String: String]? = nil, limit: Double = ProgramRun.limit
    ) throws -> ProgramRun {
        let p = Process()
        if program.hasPrefix("/") {
            p.executableURL = URL(fileURLWithPath: program)
            p.arguments = arguments
        } else {
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = [program] + arguments
        }
        p.environment = childEnvironment(environment ?? [:])
        let out = Pipe(), err = Pipe(), inp = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = inp
        try p.run()
        let watchdog = Watchdog(p, after: limit)
        nonisolated(unsafe) var outData = Data(), errData = Data()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        if let stdin { inp.fileHandleForWriting.write(Data(stdin.utf8)) }
        try inp.fileHandleForWriting.close()
        group.wait()
        p.waitUntilExit()
        guard watchdog.stop() else { throw TimedOut(program: program, arguments: arguments, limit: limit) }
        return ProgramRun(
            status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Standard output of a run that must succeed; throws with its standard error otherwise.
    @discardableResult
    public static func output(_ program: String, _ arguments: [String], stdin: String? = nil) throws -> String {
        let r = try run(program, arguments, stdin: stdin)
        guard r.status == 0 else { throw Failure(program: program, status: r.status, stderr: r.stderr) }
        return r.stdout
    }

    /// A program killed for running longer than its limit.
    public struct TimedOut: Error, CustomStringConvertible {
        /// The program run, and its arguments.
        public var program: String, arguments: [String]
        /// The limit it overran, in seconds.
        public var limit: Double
        /// One line: which program, with what, for how long.
        public var description: String { "\(program) \(arguments.joined(separator: " ")) still ran after \(Int(limit)) s and was killed" }
    }

    /// Kills a child that outlives its limit; ``stop()`` says whether it ended by itself.
    final class Watchdog: @unchecked Sendable {
        private let lock = NSLock()
        /// Running until stopped or fired, whichever comes first.
        private var state = State.running
        enum State { case running, stopped, fired }

        init(_ process: Process, after seconds: Double) {
            let pid = process.processIdentifier
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak self] in self?.fire(pid) }
        }

        private func fire(_ pid: Int32) {
            lock.withLock {
                guard state == .running else { return }
                state = .fired
                kill(pid, SIGKILL)
            }
        }

        /// Ends the watch: true when the child ended by itself, false when it was killed.
        func stop() -> Bool {
            lock.withLock {
                if state == .running { state = .stopped }
                return state == .stopped
            }
        }
    }

    /// A program that exited with a non-zero status.
    public struct Failure: Error, CustomStringConvertible {
        /// The program run.
        public var program: String
        /// Its exit status.
        public var status: Int32
        /// What it wrote on standard error.
        public var stderr: String
        /// One line: which program, which status, what it said.
        public var description: String { "\(program) failed (status \(status)): \(stderr)" }
    }
}
