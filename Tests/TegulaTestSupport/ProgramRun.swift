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

    /// Runs `program` (a path, or a name looked up on PATH through `/usr/bin/env`) with
    /// `arguments`, feeding it `stdin`, in ``childEnvironment(_:)`` plus `environment`, and waits.
    /// Both pipes are drained concurrently so a large output cannot block the child.
    public static func run(_ program: String, _ arguments: [String], stdin: String? = nil,
                           environment: [String: String]? = nil) throws -> ProgramRun {
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
        nonisolated(unsafe) var outData = Data(), errData = Data()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        if let stdin { inp.fileHandleForWriting.write(Data(stdin.utf8)) }
        try inp.fileHandleForWriting.close()
        group.wait()
        p.waitUntilExit()
        return ProgramRun(status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                          stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Standard output of a run that must succeed; throws with its standard error otherwise.
    @discardableResult
    public static func output(_ program: String, _ arguments: [String], stdin: String? = nil) throws -> String {
        let r = try run(program, arguments, stdin: stdin)
        guard r.status == 0 else { throw Failure(program: program, status: r.status, stderr: r.stderr) }
        return r.stdout
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
