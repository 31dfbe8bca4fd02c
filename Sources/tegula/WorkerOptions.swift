import ArgumentParser
import Foundation

/// How much of the machine a long command uses and whether it reports progress: `--jobs` and
/// `--quiet`, shared by `warp`, `tile` and `run`.
struct WorkerOptions: ParsableArguments {
    @Option(help: "Worker threads.")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Flag(help: "No progress output.")
    var quiet = false

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1, not \(jobs)") }
    }
}
