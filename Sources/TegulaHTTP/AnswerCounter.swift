import Synchronization

/// How many requests ``FastPath`` answered, so tests can prove the fast path (not Hummingbird)
/// gave an answer: both give the same bytes, so nothing on the wire tells them apart. One
/// relaxed atomic add per answer.
public final class AnswerCounter: Sendable {
    private let answered = Atomic<Int>(0)

    /// A counter at 0.
    public init() {}

    /// Counts one answer.
    public func add() { answered.add(1, ordering: .relaxed) }

    /// The answers counted.
    public var count: Int { answered.load(ordering: .relaxed) }
}
