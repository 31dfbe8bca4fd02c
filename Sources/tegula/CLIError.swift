import ArgumentParser
import Foundation

/// Print one line on stderr and exit non-zero: the CLI's way of reporting bad input.
struct CLIFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Write a line to standard error.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// Run a command body; a thrown error becomes one `tegula: …` line and exit code 1.
func reportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
        // What IIIF images cost (nothing when none was read; a failure stays one line).
        if let line = IIIFOptions.summary() { printError(line) }
    } catch let e as ExitCode {
        throw e
    } catch {
        printError("tegula: \(error)")
        throw ExitCode.failure
    }
}
