import TegulaSupport

extension AutoTies {
    /// How far `ties: auto` has got, reported as a stage's progress is (label `ties: auto`, in
    /// matches): overlaps matched and sheets without GCPs matched whole, of those queued so far.
    /// The total grows as rounds place sheets and queue their overlaps.
    final class Progress: Sendable {
        static let label = "ties: auto"
        let report: (@Sendable (String, Int, Int) -> Void)?
        let counts = Locked((done: 0, total: 0))

        init(_ report: (@Sendable (String, Int, Int) -> Void)?) { self.report = report }

        /// `n` more matches to make.
        func queue(_ n: Int) { counts.withLock { $0.total += n } }

        /// One more made.
        func step() {
            let c = counts.withLock {
                $0.done += 1; return $0
            }
            report?(Self.label, c.done, c.total)
        }
    }
}
