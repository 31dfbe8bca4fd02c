import Testing

/// The tests whose outcome depends on timing, run one at a time: idle deadlines, slow clients,
/// connection counts that follow a close, renders held on purpose. Swift Testing runs every other
/// test in parallel; these, at least, do not run beside each other. Each test module adds its own
/// as a suite nested in an extension (`extension TimingTests { @Suite struct … }`), so they are
/// one suite across modules (`TegulaTestSupport.TimingTests/…` in `swift test list`;
/// `--filter TimingTests` runs them all). They wait with ``Poll`` for what they can ask about.
@Suite(.serialized, .timeLimit(.minutes(20)))
public struct TimingTests {}
