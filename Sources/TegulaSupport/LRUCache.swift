/// Values kept in memory up to a byte budget, the least recently used dropped first; safe to
/// share between threads. Each value is charged the cost its caller gives (its bytes, plus any
/// bookkeeping the caller counts). The one cache of tiles made, read or fetched: tiles on demand
/// (`TileMemo`), the server's tagged tiles and an overlay's fetched tiles keep theirs here.
///
/// Entries live in slots of one array, linked newest to oldest by index, so a lookup or an
/// insert is a dictionary access and a few index writes under the lock, and no entry holds a
/// reference to another (no cycle to leak when the cache goes).
///
/// Inlinable: from another module an unspecialised generic cache hashes and copies its keys and
/// values through metadata and witness tables; `tegula serve`'s hot tiles showed the runtime's
/// generic-metadata lookups among their top symbols when the cache moved here from TegulaServer
/// (BENCHMARKS.md, "Figures behind the code").
public final class LRUCache<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    @usableFromInline struct Slot {
        @usableFromInline var key: Key
        @usableFromInline var value: Value?
        @usableFromInline var cost: Int
        /// Neighbouring slots towards the newest and the oldest end; -1 at the ends.
        @usableFromInline var newer: Int
        @usableFromInline var older: Int

        @inlinable init(key: Key, value: Value?, cost: Int, newer: Int, older: Int) {
            self.key = key
            self.value = value
            self.cost = cost
            self.newer = newer
            self.older = older
        }
    }

    @usableFromInline struct State {
        @usableFromInline var slots: [Slot] = []
        @usableFromInline var index: [Key: Int] = [:]
        @usableFromInline var free: [Int] = []
        @usableFromInline var newest = -1
        @usableFromInline var oldest = -1
        @usableFromInline var bytes = 0

        @inlinable init() {}

        /// Reads the two links only: copying the whole slot would retain its key and value.
        @inlinable mutating func unlink(_ i: Int) {
            let newer = slots[i].newer, older = slots[i].older
            if newer >= 0 { slots[newer].older = older } else { newest = older }
            if older >= 0 { slots[older].newer = newer } else { oldest = newer }
            slots[i].newer = -1
            slots[i].older = -1
        }

        @inlinable mutating func pushNewest(_ i: Int) {
            slots[i].older = newest
            slots[i].newer = -1
            if newest >= 0 { slots[newest].newer = i }
            newest = i
            if oldest < 0 { oldest = i }
        }

        /// Drops slot `i`: unlinked, its value released, the slot reused later.
        @inlinable mutating func remove(_ i: Int) {
            unlink(i)
            index[slots[i].key] = nil
            bytes -= slots[i].cost
            slots[i].value = nil
            free.append(i)
        }
    }

    /// Bytes the entries may cost together (0: nothing is kept).
    public let byteBudget: Int
    @usableFromInline let state = Locked(State())

    /// An empty cache holding at most `byteBudget` bytes.
    @inlinable public init(byteBudget: Int) {
        self.byteBudget = max(0, byteBudget)
    }

    /// The value for `key`, now the most recently used; nil when not kept.
    @inlinable public func value(for key: Key) -> Value? {
        guard byteBudget > 0 else { return nil }
        return state.withLock { s in
            guard let i = s.index[key] else { return nil }
            s.unlink(i)
            s.pushNewest(i)
            return s.slots[i].value
        }
    }

    /// Keeps `value` for `key` as the most recently used, in place of any value kept for it, and
    /// drops the least recently used entries past the budget. A value costing more than the
    /// whole budget is not kept (and the key's earlier value goes).
    @inlinable public func insert(_ value: Value, cost: Int, for key: Key) {
        state.withLock { s in
            if let old = s.index[key] { s.remove(old) }
            guard cost <= byteBudget, byteBudget > 0 else { return }
            let slot = Slot(key: key, value: value, cost: cost, newer: -1, older: -1)
            let i: Int
            if let f = s.free.popLast() {
                i = f
                s.slots[i] = slot
            } else {
                i = s.slots.count
                s.slots.append(slot)
            }
            s.index[key] = i
            s.pushNewest(i)
            s.bytes += cost
            while s.bytes > byteBudget, s.oldest >= 0 { s.remove(s.oldest) }
        }
    }

    /// Drops every entry whose key satisfies `predicate`.
    @inlinable public func removeAll(where predicate: (Key) -> Bool) {
        state.withLock { s in
            for (key, i) in s.index where predicate(key) { s.remove(i) }
        }
    }

    /// Drops every entry.
    @inlinable public func removeAll() {
        state.withLock { $0 = State() }
    }

    /// Bytes held: the entries' costs.
    @inlinable public var byteCount: Int { state.withLock { $0.bytes } }
    /// Entries held.
    @inlinable public var count: Int { state.withLock { $0.index.count } }

    /// Keys from the least to the most recently used (for tests and diagnostics).
    @inlinable public var keysOldestFirst: [Key] {
        state.withLock { s in
            var keys: [Key] = []
            var i = s.oldest
            while i >= 0 { keys.append(s.slots[i].key); i = s.slots[i].newer }
            return keys
        }
    }
}
