import Foundation
import Testing
import TegulaTestSupport

/// The two load cases of issue 16 item 5 that need a real server, real sockets and a real load
/// generator: 10,000 idle connections held open while another client still gets tiles, and
/// 2,000 active connections (wrk) where no request waits a second. Each runs its measurement
/// script (`scripts/serve-idle-connections`, `scripts/serve-fairness`) against the test build's
/// `tegula serve` and checks the figures it prints.
///
/// `scripts/test` runs this suite on its own, after the rest of the suite (`--skip` there,
/// `--filter` here): the 1 s bound is about the server, and the other tests' load on two cores
/// would count against it.
@Suite(.serialized) struct ServerLoadTests {
    static func script(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws -> ProgramRun {
        try ProgramRun.run(TegulaBinary.packageRoot.appendingPathComponent("scripts/" + name).path, arguments,
                           environment: environment.merging(["TEGULA": TegulaBinary.url.path]) { $1 })
    }

    /// The numbers in the first line of `text` that contains `marker`, in order.
    static func numbers(in text: String, after marker: String) -> [Double] {
        guard let line = text.split(separator: "\n").first(where: { $0.contains(marker) }) else { return [] }
        return line.split(whereSeparator: { !"0123456789.".contains($0) }).compactMap { Double($0) }
    }

    @Test func tenThousandIdleConnectionsWhileAnotherClientGetsTiles() throws {
        let r = try Self.script("serve-idle-connections", ["10000", "5"])
        #expect(r.status == 0, "\(r.stderr)")
        print("serve-idle-connections 10000 5:\n\(r.stdout)")
        // "10000 idle connections open (0 refused or timed out) in 3.8 s; server RSS … KiB"
        let open = Self.numbers(in: r.stdout, after: "idle connections open")
        #expect(open.count >= 2 && open[0] == 10_000 && open[1] == 0, "\(r.stdout)")
        // "other client: 7475 tiles, 0 errors; latency median 1.0 ms, p99 16.1 ms, max 43.3 ms; …"
        let other = Self.numbers(in: r.stdout, after: "other client:")
        #expect(other.count >= 5 && other[0] >= 100 && other[1] == 0 && other[4] < 1_000, "\(r.stdout)")
        // "after 5 s, 10000 of 10000 idle connections still answered"
        let after = Self.numbers(in: r.stdout, after: "idle connections still answered")
        #expect(after.count >= 3 && after[1] == 10_000 && after[2] == 10_000, "\(r.stdout)")
    }

    @Test func twoThousandActiveConnectionsAndNoRequestWaitsASecond() throws {
        let r = try Self.script("serve-fairness", ["6", "2000"], environment: ["ROUNDS": "1"])
        #expect(r.status == 0, "\(r.stderr)")
        print("serve-fairness 6 2000:\n\(r.stdout)")
        // "tegula   15953 req/s  non-2xx 0  errors connect 0 read 0 write 0  timeouts (>2 s) 0  p50 … ms  p99 … ms  p99.9 … ms  max 420.0 ms"
        let line = r.stdout.split(separator: "\n").first { $0.hasPrefix("tegula ") }.map(String.init) ?? ""
        /// The number after `label` in the line.
        func value(_ label: String) -> Double? {
            guard let at = line.range(of: label) else { return nil }
            return line[at.upperBound...].split(separator: " ").first.flatMap { Double($0) }
        }
        let rps = line.split(separator: " ").dropFirst().first.flatMap { Double($0) }
        let errors = ["non-2xx ", "connect ", "read ", "write ", "timeouts (>2 s) "].map(value)
        let max = value("max ")
        #expect(rps != nil && errors.allSatisfy { $0 != nil } && max != nil, "unreadable: \(r.stdout)")
        #expect((rps ?? 0) > 1_000, "throughput: \(line)")
        #expect(errors.allSatisfy { $0 == 0 }, "non-2xx, socket errors or timeouts: \(line)")
        #expect((max ?? .infinity) < 1_000, "a request waited a second or more: \(line)")
    }
}
