import Dispatch

/// Threads of their own for the servers the tests run in-process, and for the tests talking to
/// them. swift-testing runs every test at once on Swift's cooperative pool, two threads here, and
/// many tests block a thread for seconds (a `tegula` run waited for, a warp computed): a server
/// whose request tasks queued behind them answered `/health` after more than the fixed 20 s
/// read timeout of the test client then in use (HummingbirdTesting's) (stop 36's CI: AcceptRateTests,
/// `.readTimeout`). Jobs go round-robin to serial Dispatch queues, which libdispatch runs on
/// threads outside that pool. ``LiveServer`` runs its servers and their tests here.
public final class LiveServerThreads: TaskExecutor, @unchecked Sendable {
    /// The one set of threads of the test process.
    public static let shared = LiveServerThreads(queues: 4)

    private let queues: [DispatchQueue]
    private let turn = DispatchQueue(label: "tegula-tests.live-servers.turn")
    private var next = 0

    init(queues count: Int) {
        queues = (0..<count).map { DispatchQueue(label: "tegula-tests.live-servers.\($0)") }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let queue = turn.sync { () -> DispatchQueue in
            next = (next + 1) % queues.count
            return queues[next]
        }
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
