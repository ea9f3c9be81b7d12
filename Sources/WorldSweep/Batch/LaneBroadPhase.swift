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

    /// The broad phase (PhysicsWorld.findNewContacts). Each lane makes its new contacts in pair
    /// order, so its serials are the single world's.
    func findNewContacts(group: Int, running: SIMDMask<IV>) {
        guard rows.fixed else {
            for k in 0..<Self.width where running[k] { findNewContacts(lane: group + k) }
            return
        }
        // Every allowed pair has a row, in pair order: boxes are tested eight lanes at a time,
        // and a contact is made only in the lanes whose boxes newly overlap.
        for p in 0..<rows.count {
            let a = rows.pair[p].a, b = rows.pair[p].b
            guard !isStatic[a] || !isStatic[b] else { continue }
            let ci = p * lanes + group
            let apart = boxLanes(a * lanes + group).isApart(from: boxLanes(b * lanes + group))
            let fresh = running .& .!loadMask(contacts.exists, ci) .& .!apart
            guard anyLane(fresh) else { continue }
            for k in 0..<Self.width where fresh[k] {
                let lane = group + k
                addContact(Contact(serial: nextSerial[lane]), row: p, lane: lane)
                nextSerial[lane] += 1
            }
        }
    }

    /// One lane's broad phase in a bigger world: the lane's sort and sweep finds the boxes that
    /// overlap, the rule says which may collide; those without a contact in this lane get one,
    /// in pair order (and a row if their pair has none).
    func findNewContacts(lane: Int) {
        for b in 0..<bodyCount { laneBoxes[b] = box(b * lanes + lane) }
        fresh.removeAll(keepingCapacity: true)
        laneBoxes.withUnsafeBufferPointer { boxes in
            sweeps[lane].forEachOverlap(boxes, include: { _ in true }) { a, b in
                guard !isStatic[a] || !isStatic[b], let allowed = rule.allowedOrder(a, b) else { return }
                if let r = rows.rowOfPair[PhysicsWorld.pairKey(a, b)], contacts.exists[Int(r) * lanes + lane] != 0 { return }
                fresh.append(allowed)
            }
        }
        guard !fresh.isEmpty else { return }
        fresh.sort { $0.order < $1.order }
        for f in fresh {
            let pair = Collide.shapeAComesFirst(shapeKinds[f.pair.a], shapeKinds[f.pair.b]) ? f.pair : BodyPair(a: f.pair.b, b: f.pair.a)
            addContact(Contact(serial: nextSerial[lane]), row: row(for: pair, order: f.order), lane: lane)
            nextSerial[lane] += 1
        }
    }
}
