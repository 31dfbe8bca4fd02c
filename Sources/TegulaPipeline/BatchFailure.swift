/// A map that failed in a batch: its name, the stage, and why.
public struct MapFailure: Error, CustomStringConvertible, Sendable {
    /// The map's name ("composite" for the blending step).
    public var map: String
    /// The stage that failed, when one had started.
    public var stage: Stage?
    /// The stage's error, in words.
    public var message: String
    /// The stage's error itself, when there was one (not for a composite that cannot be planned).
    public var underlying: (any Error)? = nil

    /// `map 'NAME', STAGE stage: message`.
    public var description: String {
        "map '\(map)'" + (stage.map { ", \($0.rawValue) stage" } ?? "") + ": " + message
    }
}

/// A batch in which some maps failed; the others finished.
public struct BatchFailure: Error, CustomStringConvertible, Sendable {
    /// The maps that failed, in file order.
    public var failures: [MapFailure]
    /// The maps that finished (their outputs are intact).
    public var finished: [String]

    /// How many maps failed, which, and which finished.
    public var description: String {
        let names = failures.map { "'\($0.map)'" }.joined(separator: ", ")
        return "\(failures.count) of \(failures.count + finished.count) maps failed (\(names))"
            + (finished.isEmpty ? "" : "; finished and intact: \(finished.joined(separator: ", "))")
    }
}
