// The contact update with one world's contacts in the lanes (for big worlds): where a
// group of eight lanes holds few running worlds, most of each row's eight lanes are idle, and
// the row's kernel call (`updateContacts(_:group:live:kernel:)`) costs the same for one world's
// contact as for eight. Here the lane kernels run on eight contacts of any rows and lanes,
// gathered into the lanes (`GatheredSlots`), with the same code and so the same bits.
//
// Box2D's order is kept: the update walks the rows in pair order and a lane's touch changes
// wake bodies, which can bring a later contact of two sleeping bodies into the same pass. The
// kernels' work depends only on the contact, its shapes and transforms, which the pass never
// changes; what depends on order (destroying, began/ended, wakes, and every contact whose
// bodies both slept when the pass began) is done afterwards, row by row in pair order.

import Foundation

/// How the contact update lays contacts onto lanes.
enum NarrowPhaseLayout: Sendable {
    /// One row at a time, eight worlds' lanes of it per kernel call.
    case worldLanes
    /// Eight contacts of a group's worlds per kernel call, whatever their rows.
    case pairLanes
    /// Pair lanes for groups with at most `LanePairNarrowPhase.mostRunningLanes` running lanes,
    /// in batches of at least `LanePairNarrowPhase.fewestRows` rows.
    case byMeasure

    /// The layout batches start with: `.byMeasure`, unless the environment variable
    /// WORLDSWEEP_NARROW_PHASE names one (`world-lanes`, `pair-lanes`), to measure one against
    /// the other on the same binary.
    static let initial: NarrowPhaseLayout = {
        switch ProcessInfo.processInfo.environment["WORLDSWEEP_NARROW_PHASE"] {
        case "world-lanes": return .worldLanes
        case "pair-lanes": return .pairLanes
        default: return .byMeasure
        }
    }()
}

/// The pair-lane update's scratch: contacts waiting for their kernel, and the steps left for
/// the ordered walk.
final class LanePairNarrowPhase {
    /// The most running lanes (worlds) of a group of eight for which the pair-lane layout is
    /// taken by `NarrowPhaseLayout.byMeasure` (docs/journal.md, 2026-11-27: instruction counts
    /// of the 1 000-box pile as one to eight worlds).
    static let mostRunningLanes = 2
    /// The fewest rows for which it is: with few contacts per pass, the gathered kernels run with
    /// idle lanes too, and the two walks cost more than they save (twin-drop's 9 rows: 6.6 M
    /// instructions more when its last running worlds took pair lanes).
    static let fewestRows = 64

    /// What the ordered walk does for one (row, lane) with a contact.
    enum Step: UInt8 {
        /// The lane-by-lane update (`updateContact`), in order: no lane kernel covers the pair.
        case inOrder
        /// Both bodies slept when the pass began: updated (by the kernel) if an earlier touch in
        /// the pass woke one of them, as Box2D's walk would.
        case asleep
        /// The boxes parted: the contact goes.
        case destroy
        /// Enabled, its manifold current: nothing more.
        case current
        /// Refreshed by a kernel: touching as it was, or began or ended.
        case refreshed, began, ended
    }
    struct Entry {
        var row: Int32, lane: Int32, step: Step
    }
    /// This pass's entries, in pair order (and lane order within a row).
    private(set) var entries: UnsafeMutablePointer<Entry>
    private(set) var entryCount = 0, entryCapacity = 256
    /// Contacts refreshed by gathered kernels, and sleeping ones woken earlier in their pass and
    /// updated in order, so far (tests read them).
    @exclusivity(unchecked) var gatheredCount = 0, wokenInPassCount = 0

    /// Contacts waiting for their kernel, up to eight per kernel, in slots: slot k's kernel is
    /// `kernels[k]`, its count `waitingCount[k]`; its `index(k)` holds per lane the contact, A's
    /// and B's column index (as `GatheredSlots` reads them), A's and B's vertex column start, and
    /// the contact's entry. Plain memory, not arrays of structs: a write into an array checks
    /// that it is not shared.
    @exclusivity(unchecked) private(set) var kernels: [LaneNarrowPhaseKernel] = []
    let waitingCount: UnsafeMutablePointer<Int>
    private let indices: UnsafeMutablePointer<Int>
    static let indexStride = 48
    /// Kernels a world can need: an edge against a polygon of 3 … 8 vertices, or two polygons
    /// (Box2D's b2_maxPolygonVertices is 8).
    static let slotLimit = 6 + 6 * 6
    @inline(__always) func index(_ slot: Int) -> UnsafeMutablePointer<Int> { indices + slot &* Self.indexStride }

    /// The gathered polygons' vertices and normals (`GatheredSlots.shape`).
    let shape: UnsafeMutablePointer<SIMD8<Float>>

    /// The memory of the columns above.
    private let columns: Columns

    init(maxVertexCount: Int) {
        let columns = Columns()
        self.columns = columns
        shape = columns.make(8 * maxVertexCount, SIMD8(repeating: 0))
        entries = columns.make(uninitialized: entryCapacity)
        waitingCount = columns.make(Self.slotLimit, 0)
        indices = columns.make(Self.slotLimit * Self.indexStride, 0)
    }

    @inline(__always) func clearEntries() { entryCount = 0 }

    /// Appends an entry; returns its number.
    @inline(__always) @discardableResult
    func append(row: Int, lane: Int, _ step: Step) -> Int {
        if entryCount == entryCapacity {
            entries = columns.grow(entries, keeping: entryCount, from: entryCapacity, to: 2 * entryCapacity)
            entryCapacity *= 2
        }
        entries[entryCount] = Entry(row: Int32(truncatingIfNeeded: row), lane: Int32(truncatingIfNeeded: lane), step: step)
        entryCount &+= 1
        return entryCount &- 1
    }

    /// The slot of the contacts waiting for `kernel`.
    @inline(__always) func waitingSlot(_ kernel: LaneNarrowPhaseKernel) -> Int {
        for k in kernels.indices where kernels[k] == kernel { return k }
        precondition(kernels.count < Self.slotLimit, "more lane kernels than polygons of up to 8 vertices make")
        kernels.append(kernel)
        return kernels.count - 1
    }
}

/// The lanes of `mask` as bits (lane k: bit k).
@inline(__always) func laneBits(_ mask: SIMDMask<SIMD8<Int32>>) -> UInt32 {
    UInt32(truncatingIfNeeded: (unsafeBitCast(mask, to: SIMD8<Int32>.self) & SIMD8<Int32>(1, 2, 4, 8, 16, 32, 64, 128)).wrappedSum())
}

extension LaneWorld {
    /// Whether the contact update of a group with running lanes `running` takes pair lanes.
    @inline(__always) func usesPairLanes(_ running: SIMDMask<IV>) -> Bool {
        switch narrowPhaseLayout {
        case .worldLanes: return false
        case .pairLanes: return true
        case .byMeasure:
            return rows.count >= LanePairNarrowPhase.fewestRows && laneBits(running).nonzeroBitCount <= LanePairNarrowPhase.mostRunningLanes
        }
    }

    /// `updateContacts(group:running:)` with contacts gathered into the lanes.
    func updateContactsByPairs(group: Int, running: SIMDMask<IV>) {
        // Strong references: an unowned(unsafe) one is retained and released around each use.
        let pairs = pairNarrowPhase, contacts = self.contacts
        pairs.clearEntries()
        let lanes = self.lanes
        forEachRowInOrder { p in
            var live = laneBits(running .& loadMask(contacts.exists, p &* lanes &+ group))
            guard live != 0 else { return }
            guard let kernel = laneKernel(p, group: group) else {
                repeat {
                    pairs.append(row: p, lane: group &+ live.trailingZeroBitCount, .inOrder)
                    live &= live &- 1
                } while live != 0
                return
            }
            let slot = pairs.waitingSlot(kernel)
            let a = rows.pair[p].a, b = rows.pair[p].b
            repeat {
                let lane = group &+ live.trailingZeroBitCount
                live &= live &- 1
                guard isActive(a, lane) || isActive(b, lane) else { pairs.append(row: p, lane: lane, .asleep); continue }
                let step = enqueue(p, lane: lane, a: a, b: b, slot: slot, entry: pairs.entryCount, contacts)
                pairs.append(row: p, lane: lane, step)
                if step == .refreshed && pairs.waitingCount[slot] == Self.width { markEntries(slot) }
            } while live != 0
        }
        for slot in pairs.kernels.indices where pairs.waitingCount[slot] > 0 { markEntries(slot) }
        // What depends on order, in pair order.
        let entries = pairs.entries
        for e in 0..<pairs.entryCount {
            let p = Int(entries[e].row), lane = Int(entries[e].lane)
            switch entries[e].step {
            case .inOrder: updateContact(p, lane: lane)
            case .asleep:
                // Woken by a touch earlier in this pass: updated now, by the same kernel.
                let a = rows.pair[p].a, b = rows.pair[p].b
                guard isActive(a, lane) || isActive(b, lane) else { break }
                pairs.wokenInPassCount &+= 1
                let slot = pairs.waitingSlot(laneKernel(p, group: group)!)
                switch enqueue(p, lane: lane, a: a, b: b, slot: slot, entry: -1, contacts) {
                case .destroy: destroyContact(p, lane: lane)
                case .refreshed:
                    if let (began, ended) = refreshWaiting(slot) {
                        if began[0] { touchBegan(p, lane: lane) } else if ended[0] { touchEnded(p, lane: lane) }
                    }
                default: break
                }
            case .destroy: destroyContact(p, lane: lane)
            case .began: touchBegan(p, lane: lane)
            case .ended: touchEnded(p, lane: lane)
            case .refreshed, .current: break
            }
        }
    }

    /// What the lane kernels' update does first for contact (`p`, `lane`) of awake bodies `a`,
    /// `b`: the contact goes (`.destroy`) if the boxes parted; else it is enabled, and unless its
    /// manifold is current (`.current`) it waits in `slot` (`.refreshed`) as entry `entry`.
    @inline(__always)
    private func enqueue(_ p: Int, lane: Int, a: Int, b: Int, slot: Int, entry: Int, _ contacts: LaneContacts) -> LanePairNarrowPhase.Step {
        let pairs = pairNarrowPhase
        let lanes = self.lanes, ia = a &* lanes &+ lane, ib = b &* lanes &+ lane
        if !box(ia).overlaps(box(ib)) { return .destroy }
        let ci = p &* lanes &+ lane
        contacts.enabled[ci] = -1   // what refresh does (see Contact.isCurrent)
        if contacts.isCurrent(ci, transform(ia), transform(ib)) { return .current }
        let index = pairs.index(slot), n = pairs.waitingCount[slot]
        index[n] = ci; index[8 &+ n] = ia; index[16 &+ n] = ib
        let stride = details.maxVertexCount &* lanes
        index[24 &+ n] = a &* stride &+ lane; index[32 &+ n] = b &* stride &+ lane
        index[40 &+ n] = entry
        pairs.waitingCount[slot] = n &+ 1
        return .refreshed
    }

    /// Runs slot `slot`'s kernel and marks its contacts' entries with their touch changes.
    private func markEntries(_ slot: Int) {
        let pairs = pairNarrowPhase
        let index = pairs.index(slot), n = pairs.waitingCount[slot]
        guard let (began, ended) = refreshWaiting(slot) else { return }
        let changed = laneBits(began .| ended), beganBits = laneBits(began)
        for k in 0..<n where changed & (1 << k) != 0 {
            pairs.entries[index[40 &+ k]].step = beganBits & (1 << k) != 0 ? .began : .ended
        }
    }

    /// Touching began in row `p`, lane `lane`, whose manifold the columns hold.
    private func touchBegan(_ p: Int, lane: Int) {
        let ci = p &* lanes &+ lane, ia = rows.pair[p].a &* lanes &+ lane, ib = rows.pair[p].b &* lanes &+ lane
        let point = WorldManifold(contacts.manifold(ci), transform(ia), details.radius[ia], transform(ib), details.radius[ib]).points.0
        touchBegan(p, lane: lane, point: point)
    }

    /// Runs the kernel of waiting slot `slot` on its contacts and empties it: the lanes whose
    /// touching began or ended (lane k: the k-th contact; lanes past them repeat the first),
    /// nil when none did.
    private func refreshWaiting(_ slot: Int) -> (began: SIMDMask<IV>, ended: SIMDMask<IV>)? {
        let pairs = pairNarrowPhase
        let kernel = pairs.kernels[slot], index = pairs.index(slot), n = pairs.waitingCount[slot]
        pairs.waitingCount[slot] = 0
        pairs.gatheredCount &+= n
        // Unused lanes repeat lane 0.
        for k in n..<Self.width {
            for column in stride(from: 0, to: 40, by: 8) { index[column &+ k] = index[column] }
        }
        // The polygons' vertices and normals, lane by lane (A's only where it is a polygon).
        let lanes = self.lanes, count = details.maxVertexCount
        let shape = UnsafeMutableRawPointer(pairs.shape).assumingMemoryBound(to: Float.self)
        let vertexX = details.vertexX, vertexY = details.vertexY, normalX = shapeColumns.normalX, normalY = shapeColumns.normalY
        /// The polygon whose vertex columns start at `index[first + k]` in lane k, into `to`.
        @inline(__always) func gatherPolygon(_ first: Int, vertices: Int, to: UnsafeMutablePointer<Float>) {
            for k in 0..<Self.width {
                let base = index[first &+ k]
                for j in 0..<vertices {
                    let from = base &+ j &* lanes
                    to[j &* 8 &+ k] = vertexX[from]
                    to[(count &+ j) &* 8 &+ k] = vertexY[from]
                    to[(2 &* count &+ j) &* 8 &+ k] = normalX[from]
                    to[(3 &* count &+ j) &* 8 &+ k] = normalY[from]
                }
            }
        }
        // Boxes (four vertices) with the count known, so the loops unroll.
        @inline(__always) func gatherPolygon(_ first: Int, _ vertices: Int, to: UnsafeMutablePointer<Float>) {
            if vertices == 4 { gatherPolygon(first, vertices: 4, to: to) } else { gatherPolygon(first, vertices: vertices, to: to) }
        }
        switch kernel {
        case .edgeAndPolygon(let countB):
            gatherPolygon(32, countB, to: shape + 4 &* count &* 8)
        case .polygons(let countA, let countB):
            gatherPolygon(24, countA, to: shape)
            gatherPolygon(32, countB, to: shape + 4 &* count &* 8)
        }
        let slots = GatheredSlots(contact: LaneIndices(index, 0), a: LaneIndices(index, 8), b: LaneIndices(index, 16),
                                  shape: pairs.shape, maxVertexCount: count)
        return refreshManifolds(slots, refresh: SIMDMask(repeating: true), kernel: kernel)
    }
}
