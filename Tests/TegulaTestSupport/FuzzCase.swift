import Foundation

/// One input's run through a fuzz body, the code that a libFuzzer target (Fuzz/Targets/TARGET.swift)
/// and its replay test (`FuzzReplayTests`) share: the body is written once, in
/// `Tests/<Module>Tests/FuzzBodies/TARGET.swift`, and scripts/fuzz compiles that same file, and this
/// one, into the target. A body reports what it met here instead of deciding what it means:
/// a refusal (an error a parser threw, as it may) or a broken promise (a property the body checks,
/// such as "decoded pixels fill width × height"). The libFuzzer target crashes on a broken promise
/// and ignores refusals; the replay test fails on either a broken promise or a refusal of a type
/// or reason it does not name.
public struct FuzzCase {
    /// A folder of this run's own for the files a body writes (the input as a file, a pipeline's
    /// scan), reused by the next input of the same run.
    public let folder: String
    /// The errors the parsers threw, in order.
    public private(set) var refusals: [any Error] = []
    /// The promises that did not hold, one line each.
    public private(set) var broken: [String] = []

    /// A case writing its files in `folder`, which must exist.
    public init(folder: String) { self.folder = folder }

    /// `body`'s value, or nil with its error recorded as a refusal.
    public mutating func attempt<T>(_ body: () throws -> T) -> T? {
        do { return try body() } catch {
            refusals.append(error)
            return nil
        }
    }

    /// Records `promise` as broken unless `condition` holds.
    public mutating func check(_ condition: Bool, _ promise: @autoclosure () -> String) {
        if !condition { broken.append(promise()) }
    }

    /// Writes `bytes` as `folder/name` and returns its path.
    public func file(_ name: String, _ bytes: [UInt8]) -> String {
        let path = folder + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    /// Empty files named `names` in the folder, made once, for an input to name (a pipeline's
    /// `scan.tif` gets past the existence checks).
    public func placeEmptyFiles(_ names: [String]) {
        for name in names where !FileManager.default.fileExists(atPath: folder + "/" + name) { _ = file(name, []) }
    }

    /// The libFuzzer entry's whole work: `body` run on the input in a folder of this process
    /// (`/dev/shm/tegula-fuzz-PID`), a crash on any broken promise; refusals are fine.
    public static func libFuzzer(_ data: UnsafePointer<UInt8>, _ count: Int, _ body: ([UInt8], inout FuzzCase) -> Void) -> CInt {
        var run = FuzzCase(folder: processFolder)
        body(Array(UnsafeBufferPointer(start: data, count: count)), &run)
        if !run.broken.isEmpty { fatalError("fuzz body: \(run.broken.joined(separator: "; "))") }
        return 0
    }

    /// `/dev/shm/tegula-fuzz-PID`, made on first use (shared memory: a libFuzzer run writes its
    /// input there thousands of times a second).
    static let processFolder: String = {
        let d = "/dev/shm/tegula-fuzz-\(getpid())"
        try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }()
}
