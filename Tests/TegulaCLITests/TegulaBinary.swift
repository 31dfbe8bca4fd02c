import Foundation

/// Runs the built `tegula` executable (and other programs) for end-to-end tests.
enum TegulaBinary {
    /// The package root, found from this file's path.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `tegula` executable next to the test bundle, else in .build/debug.
    static var url: URL {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("tegula")
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
        return packageRoot.appendingPathComponent(".build/debug/tegula")
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Run `tegula` with arguments and optional standard input.
    static func run(_ arguments: [String], stdin: String? = nil) throws -> Result {
        try Self.exec(url, arguments, stdin: stdin)
    }

    /// Run any program (found on PATH when not absolute).
    static func exec(_ program: URL, _ arguments: [String], stdin: String? = nil,
                     environment: [String: String]? = nil) throws -> Result {
        let p = Process()
        p.executableURL = program
        p.arguments = arguments
        if let environment { p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let out = Pipe(), err = Pipe(), inp = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = inp
        try p.run()
        // Drain both pipes concurrently so a large output cannot block the child.
        nonisolated(unsafe) var outData = Data(), errData = Data()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        if let stdin { inp.fileHandleForWriting.write(Data(stdin.utf8)) }
        try inp.fileHandleForWriting.close()
        group.wait()
        p.waitUntilExit()
        return Result(status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Run a program by name through /usr/bin/env.
    static func tool(_ name: String, _ arguments: [String], stdin: String? = nil) throws -> Result {
        try exec(URL(fileURLWithPath: "/usr/bin/env"), [name] + arguments, stdin: stdin)
    }
}
