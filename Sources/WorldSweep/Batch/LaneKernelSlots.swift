// Where the eight lanes of one narrow-phase kernel call read and write: the lane kernels'
// refresh (LaneNarrowPhase.swift) is written once over these, and runs on eight worlds' lanes
// of one row (`RowSlots`, whole-vector loads and stores, the layout of many worlds) or on eight
// contacts of one world's rows gathered into the lanes (`GatheredSlots`, the layout of few
// worlds with many contacts: LanePairNarrowPhase.swift). The kernels compute each lane from
// that lane's inputs alone, so a contact's bits do not depend on which lane it sits in.

protocol NarrowPhaseSlots {
    /// Whether some lanes may hold a contact whose manifold is current (`Contact.isCurrent`):
    /// gathered lanes were checked one by one before they were gathered.
    static var mayHoldCurrentContacts: Bool { get }
    /// A contact column's eight lanes.
    func contact(_ column: UnsafeMutablePointer<Float>) -> SIMD8<Float>
    func contact(_ column: UnsafeMutablePointer<Int32>) -> SIMD8<Int32>
    /// Writes `x` into a contact column in the lanes `compute`.
    func store(_ x: SIMD8<Float>, _ column: UnsafeMutablePointer<Float>, where compute: SIMDMask<SIMD8<Int32>>)
    func store(_ x: SIMD8<Int32>, _ column: UnsafeMutablePointer<Int32>, where compute: SIMDMask<SIMD8<Int32>>)
    /// A body column (index body × lanes + lane) at each lane's body A or B.
    func bodyA(_ column: UnsafeMutablePointer<Float>) -> SIMD8<Float>
    func bodyB(_ column: UnsafeMutablePointer<Float>) -> SIMD8<Float>
    /// Body A's or B's k-th body-local polygon vertex and normal (moving bodies only).
    func vertexA(_ k: Int) -> (SIMD8<Float>, SIMD8<Float>)
    func normalA(_ k: Int) -> (SIMD8<Float>, SIMD8<Float>)
    func vertexB(_ k: Int) -> (SIMD8<Float>, SIMD8<Float>)
    func normalB(_ k: Int) -> (SIMD8<Float>, SIMD8<Float>)
}

/// Eight worlds' lanes (from `group`) of one row: bodies `a`, `b` in every lane.
struct RowSlots: NarrowPhaseSlots {
    static var mayHoldCurrentContacts: Bool { true }
    /// The contact's, A's and B's first lane, and A's and B's vertex columns' first lane.
    let ci: Int, ia: Int, ib: Int, columnA: Int, columnB: Int, lanes: Int
    let vertexX: UnsafeMutablePointer<Float>, vertexY: UnsafeMutablePointer<Float>
    let normalX: UnsafeMutablePointer<Float>, normalY: UnsafeMutablePointer<Float>

    @inline(__always) init(_ world: LaneWorld, row p: Int, group: Int, a: Int, b: Int) {
        // Wrapping arithmetic for the column indices (all below the columns' sizes): the checked
        // forms put an overflow test on every vertex and normal load of the kernels.
        let lanes = world.lanes, count = world.details.maxVertexCount
        self.lanes = lanes
        ci = p &* lanes &+ group; ia = a &* lanes &+ group; ib = b &* lanes &+ group
        // Body k's vertex and normal columns start at column(k) + vertex × lanes.
        columnA = a &* count &* lanes &+ group; columnB = b &* count &* lanes &+ group
        vertexX = world.details.vertexX; vertexY = world.details.vertexY
        normalX = world.shapeColumns.normalX; normalY = world.shapeColumns.normalY
    }

    @inline(__always) func contact(_ column: UnsafeMutablePointer<Float>) -> SIMD8<Float> { loadLanes(column, ci) }
    @inline(__always) func contact(_ column: UnsafeMutablePointer<Int32>) -> SIMD8<Int32> { loadLanes(column, ci) }
    @inline(__always) func store(_ x: SIMD8<Float>, _ column: UnsafeMutablePointer<Float>, where compute: SIMDMask<SIMD8<Int32>>) {
        storeLanes(loadLanes(column, ci).blended(with: x, where: compute), column, ci)
    }
    @inline(__always) func store(_ x: SIMD8<Int32>, _ column: UnsafeMutablePointer<Int32>, where compute: SIMDMask<SIMD8<Int32>>) {
        storeLanes(loadLanes(column, ci).blended(with: x, where: compute), column, ci)
    }
    @inline(__always) func bodyA(_ column: UnsafeMutablePointer<Float>) -> SIMD8<Float> { loadLanes(column, ia) }
    @inline(__always) func bodyB(_ column: UnsafeMutablePointer<Float>) -> SIMD8<Float> { loadLanes(column, ib) }
    @inline(__always) func vertexA(_ k: Int) -> (SIMD8<Float>, SIMD8<Float>) {
        (loadLanes(vertexX, columnA &+ k &* lanes), loadLanes(vertexY, columnA &+ k &* lanes))
    }
    @inline(__always) func normalA(_ k: Int) -> (SIMD8<Float>, SIMD8<Float>) {
        (loadLanes(normalX, columnA &+ k &* lanes), loadLanes(normalY, columnA &+ k &* lanes))
    }
    @inline(__always) func vertexB(_ k: Int) -> (SIMD8<Float>, SIMD8<Float>) {
        (loadLanes(vertexX, columnB &+ k &* lanes), loadLanes(vertexY, columnB &+ k &* lanes))
    }
    @inline(__always) func normalB(_ k: Int) -> (SIMD8<Float>, SIMD8<Float>) {
        (loadLanes(normalX, columnB &+ k &* lanes), loadLanes(normalY, columnB &+ k &* lanes))
    }
}

/// Up to eight contacts of any rows and lanes, gathered into the lanes: lane k holds contact
/// `index[k]` (row × lanes + lane) of bodies at `index[8 + k]` and `index[16 + k]` (body × lanes
/// + lane); lanes from `count` on repeat lane 0 and are never written back. The polygons'
/// vertices and normals were copied lane by lane into `shape` (`GatheredSlots.gatherShapes`).
/// Every gathered contact is to be computed (none is current).
struct GatheredSlots: NarrowPhaseSlots {
    static var mayHoldCurrentContacts: Bool { false }
    let count: Int
    let index: UnsafeMutablePointer<Int>
    /// A's vertex x, y, normal x, y, then B's, each `maxVertexCount` lane values.
    let shape: UnsafeMutablePointer<SIMD8<Float>>
    let maxVertexCount: Int

    @inline(__always) func gather(_ column: UnsafeMutablePointer<Float>, _ from: Int) -> SIMD8<Float> {
        let i = index + from
        return SIMD8(column[i[0]], column[i[1]], column[i[2]], column[i[3]], column[i[4]], column[i[5]], column[i[6]], column[i[7]])
    }
    @inline(__always) func gather(_ column: UnsafeMutablePointer<Int32>, _ from: Int) -> SIMD8<Int32> {
        let i = index + from
        return SIMD8(column[i[0]], column[i[1]], column[i[2]], column[i[3]], column[i[4]], column[i[5]], column[i[6]], column[i[7]])
    }
    @inline(__always) func contact(_ column: UnsafeMutablePointer<Float>) -> SIMD8<Float> { gather(column, 0) }
    @inline(__always) func contact(_ column: UnsafeMutablePointer<Int32>) -> SIMD8<Int32> { gather(column, 0) }
    /// Every gathered lane is computed: `compute` is lanes 0 ..< count.
    @inline(__always) func store(_ x: SIMD8<Float>, _ column: UnsafeMutablePointer<Float>, where compute: SIMDMask<SIMD8<Int32>>) {
        for k in 0..<count { column[index[k]] = x[k] }
    }
    @inline(__always) func store(_ x: SIMD8<Int32>, _ column: UnsafeMutablePointer<Int32>, where compute: SIMDMask<SIMD8<Int32>>) {
        for k in 0..<count { column[index[k]] = x[k] }
    }
    @inline(__always) func bodyA(_ column: UnsafeMutablePointer<Float>) -> SIMD8<Float> { gather(column, 8) }
    @inline(__always) func bodyB(_ column: UnsafeMutablePointer<Float>) -> SIMD8<Float> { gather(column, 16) }
    @inline(__always) func vertexA(_ k: Int) -> (SIMD8<Float>, SIMD8<Float>) { (shape[k], shape[maxVertexCount &+ k]) }
    @inline(__always) func normalA(_ k: Int) -> (SIMD8<Float>, SIMD8<Float>) { (shape[2 &* maxVertexCount &+ k], shape[3 &* maxVertexCount &+ k]) }
    @inline(__always) func vertexB(_ k: Int) -> (SIMD8<Float>, SIMD8<Float>) { (shape[4 &* maxVertexCount &+ k], shape[5 &* maxVertexCount &+ k]) }
    @inline(__always) func normalB(_ k: Int) -> (SIMD8<Float>, SIMD8<Float>) { (shape[6 &* maxVertexCount &+ k], shape[7 &* maxVertexCount &+ k]) }

    /// The mask of lanes 0 ..< count.
    var used: SIMDMask<SIMD8<Int32>> {
        SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7) .< SIMD8<Int32>(repeating: Int32(count))
    }
}
