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
    /// Body A's or B's body-local polygon vertices and normals (moving bodies only).
    var polygonA: PolygonLanes { get }
    var polygonB: PolygonLanes { get }
}

/// Where eight lanes' polygons lie: vertex k's x in lanes `x + k × stride ..< + 8`, and so on.
/// Plain values, so the kernels' vertex loads capture nothing but these.
struct PolygonLanes {
    let x: UnsafeMutablePointer<Float>, y: UnsafeMutablePointer<Float>
    let normalX: UnsafeMutablePointer<Float>, normalY: UnsafeMutablePointer<Float>
    let stride: Int

    @inline(__always) func vertex(_ k: Int) -> (SIMD8<Float>, SIMD8<Float>) { (loadLanes(x, k &* stride), loadLanes(y, k &* stride)) }
    @inline(__always) func normal(_ k: Int) -> (SIMD8<Float>, SIMD8<Float>) { (loadLanes(normalX, k &* stride), loadLanes(normalY, k &* stride)) }
}

/// Eight worlds' lanes (from `group`) of one row: bodies `a`, `b` in every lane.
struct RowSlots: NarrowPhaseSlots {
    static var mayHoldCurrentContacts: Bool { true }
    /// The contact's, A's and B's first lane.
    let ci: Int, ia: Int, ib: Int
    let a: Int, b: Int, group: Int, lanes: Int
    unowned(unsafe) let details: LaneBodyDetails
    unowned(unsafe) let shapes: LaneShapeColumns

    @inline(__always) init(_ world: LaneWorld, row p: Int, group: Int, a: Int, b: Int) {
        // Wrapping arithmetic for the column indices (all below the columns' sizes): the checked
        // forms put an overflow test on every load.
        let lanes = world.lanes
        self.lanes = lanes; self.a = a; self.b = b; self.group = group
        ci = p &* lanes &+ group; ia = a &* lanes &+ group; ib = b &* lanes &+ group
        details = world.details; shapes = world.shapeColumns
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
    @inline(__always) var polygonA: PolygonLanes { polygon(a) }
    @inline(__always) var polygonB: PolygonLanes { polygon(b) }
    /// Body k's vertex and normal columns start at column(k) + vertex × lanes (worked out only
    /// where a kernel runs).
    @inline(__always) func polygon(_ body: Int) -> PolygonLanes {
        let column = body &* details.maxVertexCount &* lanes &+ group
        return PolygonLanes(x: details.vertexX + column, y: details.vertexY + column,
                            normalX: shapes.normalX + column, normalY: shapes.normalY + column, stride: lanes)
    }
}

/// Eight indices, one per lane, held as values (not read through a pointer that the column
/// stores might alias, which would load them again after every store).
struct LaneIndices {
    var i0: Int, i1: Int, i2: Int, i3: Int, i4: Int, i5: Int, i6: Int, i7: Int

    /// Lanes `from ..< from + 8` of `p`.
    @inline(__always) init(_ p: UnsafeMutablePointer<Int>, _ from: Int) {
        i0 = p[from]; i1 = p[from &+ 1]; i2 = p[from &+ 2]; i3 = p[from &+ 3]
        i4 = p[from &+ 4]; i5 = p[from &+ 5]; i6 = p[from &+ 6]; i7 = p[from &+ 7]
    }
    @inline(__always) func gather(_ c: UnsafeMutablePointer<Float>) -> SIMD8<Float> {
        SIMD8(c[i0], c[i1], c[i2], c[i3], c[i4], c[i5], c[i6], c[i7])
    }
    @inline(__always) func gather(_ c: UnsafeMutablePointer<Int32>) -> SIMD8<Int32> {
        SIMD8(c[i0], c[i1], c[i2], c[i3], c[i4], c[i5], c[i6], c[i7])
    }
    @inline(__always) func scatter(_ x: SIMD8<Float>, _ c: UnsafeMutablePointer<Float>) {
        c[i0] = x[0]; c[i1] = x[1]; c[i2] = x[2]; c[i3] = x[3]; c[i4] = x[4]; c[i5] = x[5]; c[i6] = x[6]; c[i7] = x[7]
    }
    @inline(__always) func scatter(_ x: SIMD8<Int32>, _ c: UnsafeMutablePointer<Int32>) {
        c[i0] = x[0]; c[i1] = x[1]; c[i2] = x[2]; c[i3] = x[3]; c[i4] = x[4]; c[i5] = x[5]; c[i6] = x[6]; c[i7] = x[7]
    }
}

/// Up to eight contacts of any rows and lanes, gathered into the lanes: lane k holds contact
/// `contact.ik` (row × lanes + lane) of the bodies at `a.ik` and `b.ik` (body × lanes + lane).
/// Lanes past the contacts repeat the first: their inputs are the same, so are their results,
/// and writing them back writes the first contact's values again. The polygons' vertices and
/// normals were copied lane by lane into `shape`. Every gathered contact is to be computed
/// (none is current), so the stores write every lane.
struct GatheredSlots: NarrowPhaseSlots {
    static var mayHoldCurrentContacts: Bool { false }
    let contact: LaneIndices, a: LaneIndices, b: LaneIndices
    /// A's vertex x, y, normal x, y, then B's, each `maxVertexCount` lane values.
    let shape: UnsafeMutablePointer<SIMD8<Float>>
    let maxVertexCount: Int

    @inline(__always) func contact(_ column: UnsafeMutablePointer<Float>) -> SIMD8<Float> { contact.gather(column) }
    @inline(__always) func contact(_ column: UnsafeMutablePointer<Int32>) -> SIMD8<Int32> { contact.gather(column) }
    @inline(__always) func store(_ x: SIMD8<Float>, _ column: UnsafeMutablePointer<Float>, where compute: SIMDMask<SIMD8<Int32>>) {
        contact.scatter(x, column)
    }
    @inline(__always) func store(_ x: SIMD8<Int32>, _ column: UnsafeMutablePointer<Int32>, where compute: SIMDMask<SIMD8<Int32>>) {
        contact.scatter(x, column)
    }
    @inline(__always) func bodyA(_ column: UnsafeMutablePointer<Float>) -> SIMD8<Float> { a.gather(column) }
    @inline(__always) func bodyB(_ column: UnsafeMutablePointer<Float>) -> SIMD8<Float> { b.gather(column) }
    @inline(__always) var polygonA: PolygonLanes { polygon(0) }
    @inline(__always) var polygonB: PolygonLanes { polygon(4) }
    /// The polygon whose four lists start at list `first` of `shape`.
    @inline(__always) func polygon(_ first: Int) -> PolygonLanes {
        let floats = UnsafeMutableRawPointer(shape).assumingMemoryBound(to: Float.self), list = maxVertexCount &* 8
        return PolygonLanes(x: floats + first &* list, y: floats + (first &+ 1) &* list,
                            normalX: floats + (first &+ 2) &* list, normalY: floats + (first &+ 3) &* list, stride: 8)
    }
}
