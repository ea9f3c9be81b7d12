// The broad phase of the batched engine (PhysicsWorld.computeBoxes and findNewContacts): the
// moving bodies' boxes eight lanes per instruction from the vertex columns (lane by lane where
// the lanes' shapes differ in vertex count), and new contacts where boxes newly overlap.

extension LaneWorld {
    /// Broad-phase boxes of the moving bodies of every running lane (PhysicsWorld.computeBoxes),
    /// eight lanes per instruction where the lanes' shapes have one vertex count.
    func movingBoxes(swept: Bool) {
        let groups = lanes / Self.width
        forEachRunningGroup { group, _ in
            for b in 0..<bodies.movingBodyCount where !isStatic[b] {
                let i = b * lanes + group
                let count = Int(details.groupVertexCount[b * groups + group / Self.width])
                guard count > 0 else {
                    for lane in group..<(group + Self.width) where running[lane] { movingBox(b, lane, swept: swept) }
                    continue
                }
                let column = b * details.maxVertexCount * lanes + group
                let box = broadPhaseBox(count: count, radius: loadLanes(details.radius, i),
                                        TransformLanes(px: loadLanes(details.px, i), py: loadLanes(details.py, i), s: loadLanes(details.qs, i), c: loadLanes(details.qc, i)),
                                        sweptFrom: swept ? PositionLanes(cx: loadLanes(details.c0x, i), cy: loadLanes(details.c0y, i), a: loadLanes(details.a0, i)) : nil,
                                        localCenterX: loadLanes(details.lcx, i), localCenterY: loadLanes(details.lcy, i)) { k in
                    (loadLanes(details.vertexX, column + k * lanes), loadLanes(details.vertexY, column + k * lanes))
                }
                storeLanes(box.lowerX, details.boxLowerX, i); storeLanes(box.lowerY, details.boxLowerY, i)
                storeLanes(box.upperX, details.boxUpperX, i); storeLanes(box.upperY, details.boxUpperY, i)
            }
        }
    }

    /// One lane's box of moving body `b`, for groups whose shapes differ.
    func movingBox(_ b: Int, _ lane: Int, swept: Bool) {
        let i = b * lanes + lane
        setBox(details.shapes[i].broadPhaseBox(transform(i), sweptFrom: swept ? sweep(i) : nil), i)
    }

    /// The broad phase (PhysicsWorld.findNewContacts).
    /// Boxes are tested eight lanes at a time; a contact is made only in the lanes whose boxes
    /// newly overlap. Each lane still meets its pairs in pair order, so its serials are the
    /// single world's.
    func findNewContacts(group: Int, running: SIMDMask<IV>) {
        for p in 0..<pairCount {
            let a = pairs[p].a, b = pairs[p].b
            guard !isStatic[a] || !isStatic[b] else { continue }
            let ci = p * lanes + group
            let apart = boxLanes(a * lanes + group).isApart(from: boxLanes(b * lanes + group))
            let fresh = running .& .!loadMask(contacts.exists, ci) .& .!apart
            guard anyLane(fresh) else { continue }
            for k in 0..<Self.width where fresh[k] {
                let lane = group + k
                contacts.contact[ci + k] = Contact(serial: nextSerial[lane])
                nextSerial[lane] += 1
                contacts.mirror(ci + k, impulses: true)
                contactsChanged(lane)
            }
        }
    }
}
