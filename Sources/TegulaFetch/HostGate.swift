/// A cap on requests in flight per host: a request waits for a slot, first come first served.
actor HostGate {
    let limit: Int
    private var active: [String: Int] = [:]
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

    init(limit: Int) { self.limit = limit }

    /// Waits until `host` has a free slot and takes it.
    func enter(_ host: String) async {
        if active[host, default: 0] < limit {
            active[host, default: 0] += 1
            return
        }
        await withCheckedContinuation { waiting[host, default: []].append($0) }
    }

    /// Gives the slot to the next waiter for `host`, or frees it.
    func leave(_ host: String) {
        if var queue = waiting[host], !queue.isEmpty {
            let next = queue.removeFirst()
            waiting[host] = queue
            next.resume()
        } else {
            active[host, default: 1] -= 1
        }
    }

    /// Requests in flight to `host` now.
    func inFlight(_ host: String) -> Int { active[host, default: 0] }
}
