// A map from a pair of bodies (`PhysicsWorld.pairKey`) to a small index, by open addressing with
// linear probing and a multiplicative hash. The batch's broad phase asks it for every overlap its
// sort and sweep finds (which row has this pair?); Swift's Dictionary hashes each key with SipHash,
// and in one world of a thousand boxes those look-ups cost more than the sweep itself.

struct PairKeyTable: Sendable {
    /// A key no pair has (pairKey puts the smaller body first, so both halves equal never occur).
    private static let empty = UInt64.max
    private var keys: [UInt64]
    private var values: [Int32]
    private(set) var count = 0

    init() {
        keys = Array(repeating: Self.empty, count: 16)
        values = Array(repeating: 0, count: 16)
    }

    /// What the table holds, as the stores count it (Columns.swift's `heldBytes`).
    var heldBytes: Int { keys.heldBytes + values.heldBytes }

    @inline(__always) private func home(_ key: UInt64) -> Int {
        // Fibonacci hashing: the high bits of key × 2^64/φ, masked to the table's size.
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & (keys.count - 1)
    }

    /// Where `key` lies in the table, if it is there: the one probe that look-ups take (inlined
    /// into hot loops, read through a buffer pointer).
    @inline(__always) private func slot(of key: UInt64) -> Int? {
        var i = home(key)
        return keys.withUnsafeBufferPointer { keys in
            let mask = keys.count - 1
            while true {
                let k = keys[i]
                if k == key { return i }
                if k == Self.empty { return nil }
                i = (i + 1) & mask
            }
        }
    }

    /// Whether `key` is in the table.
    @inline(__always) func contains(_ key: UInt64) -> Bool { slot(of: key) != nil }

    subscript(key: UInt64) -> Int32? {
        get {
            guard let i = slot(of: key) else { return nil }
            return values[i]
        }
        set {
            if let value = newValue { insert(key, value) } else { remove(key) }
        }
    }

    private mutating func insert(_ key: UInt64, _ value: Int32) {
        if 2 * (count + 1) > keys.count { grow() }
        let mask = keys.count - 1
        var i = home(key)
        while keys[i] != Self.empty && keys[i] != key { i = (i + 1) & mask }
        if keys[i] == Self.empty { count += 1 }
        keys[i] = key
        values[i] = value
    }

    /// Removes `key` by shifting back the entries after it that probed past its slot (no
    /// tombstones, so look-ups stay short however many rows come and go).
    private mutating func remove(_ key: UInt64) {
        let mask = keys.count - 1
        var i = home(key)
        while keys[i] != key {
            if keys[i] == Self.empty { return }
            i = (i + 1) & mask
        }
        var hole = i
        var j = i
        while true {
            j = (j + 1) & mask
            let k = keys[j]
            if k == Self.empty { break }
            // The entry at j may fill the hole if its home is not cyclically in (hole, j].
            let h = home(k)
            let stays = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j)
            if !stays {
                keys[hole] = k
                values[hole] = values[j]
                hole = j
            }
        }
        keys[hole] = Self.empty
        count -= 1
    }

    /// Empties the table, keeping its room.
    mutating func removeAll() {
        for i in keys.indices { keys[i] = Self.empty }
        count = 0
    }

    private mutating func grow() {
        let oldKeys = keys, oldValues = values
        keys = Array(repeating: Self.empty, count: oldKeys.count * 2)
        values = Array(repeating: 0, count: oldKeys.count * 2)
        count = 0
        for (k, key) in oldKeys.enumerated() where key != Self.empty { insert(key, oldValues[k]) }
    }
}
