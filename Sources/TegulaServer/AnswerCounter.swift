import Synchronization

/// How many requests `TileFastPath` answered, so tests can prove the fast path (not Hummingbird)
/// gave an answer: both give the same bytes, so nothing on the wire tells them apart. One
/// relaxed atomic add per answer.
final class AnswerCounter: Sendable {
    private let answered = Atomic<Int>(0)

    func add() { answered.add(1, ordering: .relaxed) }

    var count: Int { answered.load(ordering: .relaxed) }
}
