// Moving a bundle's eight lanes between the per-(body or row, lane) columns and SIMD8 vectors
// (LaneBundles.swift, LaneJoints.swift): gathers and scatters at eight indices, one vector load
// or store where the indices are a run of eight consecutive entries.

/// Eight values from a column at eight indices (a bundle's lanes), and back for the first `count`.
@inline(__always) func gatherLanes(_ p: UnsafeMutablePointer<Float>, _ i: UnsafeMutablePointer<Int32>) -> SIMD8<Float> {
    SIMD8(p[Int(i[0])], p[Int(i[1])], p[Int(i[2])], p[Int(i[3])], p[Int(i[4])], p[Int(i[5])], p[Int(i[6])], p[Int(i[7])])
}
@inline(__always) func gatherLanes(_ p: UnsafeMutablePointer<Int32>, _ i: UnsafeMutablePointer<Int32>) -> SIMD8<Int32> {
    SIMD8(p[Int(i[0])], p[Int(i[1])], p[Int(i[2])], p[Int(i[3])], p[Int(i[4])], p[Int(i[5])], p[Int(i[6])], p[Int(i[7])])
}
@inline(__always) func scatterLanes(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>, _ i: UnsafeMutablePointer<Int32>, count: Int) {
    if count == 8 {
        p[Int(i[0])] = v[0]; p[Int(i[1])] = v[1]; p[Int(i[2])] = v[2]; p[Int(i[3])] = v[3]
        p[Int(i[4])] = v[4]; p[Int(i[5])] = v[5]; p[Int(i[6])] = v[6]; p[Int(i[7])] = v[7]
    } else {
        for l in 0..<count { p[Int(i[l])] = v[l] }
    }
}

/// Three (or four) vectors into as many columns at one bundle's indices, lane by lane, for the
/// first `count` lanes: each index is read once. Column by column (`scatterLanes` per column), the
/// compiler read all eight indices again for every column, since a store through one column
/// might, for all it knows, have changed the index list.
@inline(__always) func scatterLanes(_ x: SIMD8<Float>, _ px: UnsafeMutablePointer<Float>, _ y: SIMD8<Float>, _ py: UnsafeMutablePointer<Float>,
                                    _ z: SIMD8<Float>, _ pz: UnsafeMutablePointer<Float>, _ i: UnsafeMutablePointer<Int32>, count: Int) {
    @inline(__always) func lane(_ l: Int) { let j = Int(i[l]); px[j] = x[l]; py[j] = y[l]; pz[j] = z[l] }
    if count == 8 {
        lane(0); lane(1); lane(2); lane(3); lane(4); lane(5); lane(6); lane(7)
    } else {
        for l in 0..<count { lane(l) }
    }
}
@inline(__always) func scatterLanes(_ x: SIMD8<Float>, _ px: UnsafeMutablePointer<Float>, _ y: SIMD8<Float>, _ py: UnsafeMutablePointer<Float>,
                                    _ z: SIMD8<Float>, _ pz: UnsafeMutablePointer<Float>, _ u: SIMD8<Float>, _ pu: UnsafeMutablePointer<Float>,
                                    _ i: UnsafeMutablePointer<Int32>, count: Int) {
    @inline(__always) func lane(_ l: Int) { let j = Int(i[l]); px[j] = x[l]; py[j] = y[l]; pz[j] = z[l]; pu[j] = u[l] }
    if count == 8 {
        lane(0); lane(1); lane(2); lane(3); lane(4); lane(5); lane(6); lane(7)
    } else {
        for l in 0..<count { lane(l) }
    }
}

/// Which of a full bundle's index lists (its contacts, bodies A, bodies B) are eight consecutive
/// entries of their columns: neighbouring worlds that solve the same row in the same round, as
/// most bundles are where neighbouring worlds behave alike. There a gather is one vector load
/// and a scatter one vector store of exactly the entries the lane-by-lane forms touch.
struct BundleRuns: OptionSet {
    let rawValue: Int32
    static let contact = BundleRuns(rawValue: 1), bodyA = BundleRuns(rawValue: 2), bodyB = BundleRuns(rawValue: 4)

    /// Whether the eight indices from `list` count up by one.
    @inline(__always) static func consecutive(_ list: UnsafeMutablePointer<Int32>) -> Bool {
        allLanes(lanesEqual(loadLanes(list, 0) &- SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7), list[0]))
    }
}

/// A bundle's eight indices into one kind of column, read through one vector where they are a run.
struct BundleIndices {
    let list: UnsafeMutablePointer<Int32>
    /// The first index of a run, else −1.
    let first: Int

    @inline(__always) init(_ list: UnsafeMutablePointer<Int32>, run: Bool) {
        self.list = list
        first = run ? Int(list[0]) : -1
    }
    @inline(__always) func gather(_ p: UnsafeMutablePointer<Float>) -> SIMD8<Float> {
        first >= 0 ? loadLanes(p, first) : gatherLanes(p, list)
    }
    @inline(__always) func gather(_ p: UnsafeMutablePointer<Int32>) -> SIMD8<Int32> {
        first >= 0 ? loadLanes(p, first) : gatherLanes(p, list)
    }
    @inline(__always) func scatter(_ x: SIMD8<Float>, _ px: UnsafeMutablePointer<Float>, _ y: SIMD8<Float>, _ py: UnsafeMutablePointer<Float>,
                                   _ z: SIMD8<Float>, _ pz: UnsafeMutablePointer<Float>, count: Int) {
        if first >= 0 {
            storeLanes(x, px, first); storeLanes(y, py, first); storeLanes(z, pz, first)
        } else {
            scatterLanes(x, px, y, py, z, pz, list, count: count)
        }
    }
    @inline(__always) func scatter(_ x: SIMD8<Float>, _ px: UnsafeMutablePointer<Float>, _ y: SIMD8<Float>, _ py: UnsafeMutablePointer<Float>,
                                   _ z: SIMD8<Float>, _ pz: UnsafeMutablePointer<Float>, _ u: SIMD8<Float>, _ pu: UnsafeMutablePointer<Float>,
                                   count: Int) {
        if first >= 0 {
            storeLanes(x, px, first); storeLanes(y, py, first); storeLanes(z, pz, first); storeLanes(u, pu, first)
        } else {
            scatterLanes(x, px, y, py, z, pz, u, pu, list, count: count)
        }
    }
}
