// The memory of an engine store: each column is allocated, filled and freed here, so a store
// names its columns and their lengths once, keeps no block sizes by hand and reports the bytes
// it holds from what was allocated. Each lane store also states its bytes before allocating
// (a static `bytes(…)` from its sizes, which MemoryPlan sums: LaneStoreSizes.swift); `expect`
// checks the two agree every time a store is made, so they cannot drift apart.

/// Columns owned by one store, freed (and their values deinitialized) when the store goes. Public
/// for the run path's stores (PlanMetricsRecorder's item states).
public final class Columns {
    /// Each column's address and how to free it.
    private var frees: [(column: UnsafeMutableRawPointer, free: () -> Void)] = []
    /// Bytes of every column made so far.
    public private(set) var byteCount = 0

    /// A column of `count` values, each `value` (at least one, so an empty batch still has an
    /// address to index from).
    public func make<T>(_ count: Int, _ value: T) -> UnsafeMutablePointer<T> {
        let n = max(count, 1)
        let column = UnsafeMutablePointer<T>.allocate(capacity: n)
        column.initialize(repeating: value, count: n)
        frees.append((UnsafeMutableRawPointer(column), { column.deinitialize(count: n); column.deallocate() }))
        byteCount += Self.bytes(T.self, count)
        return column
    }

    /// A column of `count` values left uninitialized, for plain values (no references) that a
    /// stage writes before it reads them: freed without deinitializing.
    public func make<T>(uninitialized count: Int) -> UnsafeMutablePointer<T> {
        let n = max(count, 1)
        let column = UnsafeMutablePointer<T>.allocate(capacity: n)
        frees.append((UnsafeMutableRawPointer(column), { column.deallocate() }))
        byteCount += Self.bytes(T.self, count)
        return column
    }

    /// A column made by `make(uninitialized:)` of `oldCount` values, moved into a new one of
    /// `newCount` (at least `keeping`, the values in use, which move): the old column is freed
    /// now. For a store whose column grows with its use.
    public func grow<T>(_ column: UnsafeMutablePointer<T>, keeping used: Int, from oldCount: Int, to newCount: Int) -> UnsafeMutablePointer<T> {
        precondition(used <= oldCount && used <= newCount)
        let grown: UnsafeMutablePointer<T> = make(uninitialized: newCount)
        grown.moveInitialize(from: column, count: used)
        let old = UnsafeMutableRawPointer(column)
        if let k = frees.firstIndex(where: { $0.column == old }) { frees.remove(at: k).free() }
        byteCount -= Self.bytes(T.self, oldCount)
        return grown
    }

    /// The bytes `make` takes for a column of `count` values of `type`: the one sizing rule, which
    /// the stores' static figures use too.
    public static func bytes<T>(_ type: T.Type, _ count: Int) -> Int { max(count, 1) * MemoryLayout<T>.stride }

    /// Checks (in debug builds: every test that makes a store) that the columns made so far take
    /// the bytes the store's static figure says.
    func expect(_ bytes: Int, of store: String) {
        assert(byteCount == bytes, "\(store) allocated \(byteCount) bytes, its static figure says \(bytes)")
    }

    public init() {}

    deinit { for f in frees { f.free() } }
}

/// The bytes an array store holds: its capacity in elements (not a size written by hand).
extension Array {
    var heldBytes: Int { capacity * MemoryLayout<Element>.stride }
}

/// A flag column (0 or −1 per lane, so eight lanes load as one mask) read one lane at a time.
struct LaneFlags {
    private let flags: UnsafeMutablePointer<Int32>
    init(_ flags: UnsafeMutablePointer<Int32>) { self.flags = flags }
    @inline(__always) subscript(lane: Int) -> Bool { flags[lane] != 0 }
    /// Lanes `i ..< i + 8`, 0 or −1 each.
    @inline(__always) func lanes(_ i: Int) -> SIMD8<Int32> { UnsafeRawPointer(flags + i).loadUnaligned(as: SIMD8<Int32>.self) }
}
