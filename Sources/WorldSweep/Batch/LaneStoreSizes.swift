// What a batch's lane stores take, known before they are allocated: the numbers that size them (the
// batch's structure and its row capacity) and the sum of the stores' static figures. MemoryPlan
// estimates a batch from it; every store checks its figure against what it allocated (`Columns.expect`).
// The row table's arrays and the lanes' sort-and-sweep scratch grow as Swift arrays do and are not
// part of it (`LaneWorld.rowStoreByteCount` counts the table's).

/// The numbers a batch's lane stores are sized by.
public struct LaneStoreSizes: Sendable, Equatable {
    public var lanes: Int
    public var bodyCount: Int
    /// Rows `0 ..< movingBodyCount` hold every body that can move (`LaneBodies`).
    public var movingBodyCount: Int
    /// The most vertices of a moving body's shape (the vertex columns' stride).
    public var maxVertexCount: Int
    public var jointCount: Int
    /// Rows the stores sized by rows have room for (they double when full).
    public var rowCapacity: Int
    /// Per field, the moving bodies it acts on; and how many bodies some field acts on.
    public var fieldMemberCounts: [Int]
    public var fieldBodyCount: Int

    /// The bytes the lane stores allocate at these sizes: each store's static figure.
    public var bytes: Int {
        LaneWorld.laneColumnBytes(lanes: lanes)
            + LaneBodies.bytes(bodyCount: bodyCount, lanes: lanes)
            + LaneBodyDetails.bytes(bodyCount: bodyCount, movingBodyCount: movingBodyCount, lanes: lanes, maxVertexCount: maxVertexCount)
            + LaneSweptBoxes.bytes(bodyCount: bodyCount, lanes: lanes)
            + LaneShapeColumns.bytes(bodyCount: bodyCount, movingBodyCount: movingBodyCount, lanes: lanes, maxVertexCount: maxVertexCount)
            + LaneTimeOfImpactBodies.bytes(movingBodyCount: movingBodyCount, lanes: lanes)
            + LaneContacts.bytes(lanes: lanes, capacity: rowCapacity)
            + LaneIslands.bytes(lanes: lanes, bodyCount: bodyCount, capacity: rowCapacity, jointCount: jointCount)
            + ContactBundles.bytes(lanes: lanes, capacity: rowCapacity)
            + JointBundles.bytes(lanes: lanes, jointCount: jointCount)
            + LaneTimeOfImpact.bytes(lanes: lanes, capacity: rowCapacity)
            + LaneFields.bytes(lanes: lanes, memberCounts: fieldMemberCounts, bodyCount: fieldBodyCount)
    }
}

extension LaneStoreSizes {
    /// A batch of `lanes` worlds of one structure (each body's static flag and shape, the rule,
    /// joints and fields) as `LaneWorld` sizes its stores when it takes them over (the row
    /// capacity it starts with), by the same rules.
    init(lanes: Int, isStatic: [Bool], shapes: [Shape], rule: CollisionRule, jointCount: Int, fields: [WorldField],
         rowPolicy: LaneRowPolicy = .bySize) {
        let moving = LaneBodies.movingBodyCount(isStatic)
        let members = fields.map { field in LaneFields.members(of: field, isStatic: isStatic).map { field.bodies[$0] } }
        self.lanes = lanes
        bodyCount = isStatic.count
        movingBodyCount = moving
        maxVertexCount = LaneBodyDetails.maxVertexCount(movingBodyCount: moving) { shapes[$0].vertices.count }
        self.jointCount = jointCount
        // Only a small world's pairs are listed (LaneRows.fixedBodyLimit).
        let fixed = LaneRows.fixedPairs(rule: rule, kinds: shapes.map(\.kind), rowPolicy: rowPolicy)
        rowCapacity = LaneRows.initialCapacity(fixedPairCount: fixed?.count, bodyCount: isStatic.count)
        fieldMemberCounts = members.map(\.count)
        fieldBodyCount = Set(members.joined()).count
    }
}

extension WorldPlan {
    /// The lane stores of a batch of `lanes` worlds of this plan's structure, with the row
    /// capacity a batch starts with (for a memory estimate, raise `rowCapacity`). From the plan's
    /// bodies as the world takes them (an item static when anchored, an edge always), without
    /// making a world.
    public func laneStoreSizes(lanes: Int) -> LaneStoreSizes {
        LaneStoreSizes(lanes: lanes, isStatic: bodies.map { $0.material?.isStatic ?? true }, shapes: bodies.map(\.shape),
                       rule: rule, jointCount: joints.count, fields: fields)
    }
}

extension LaneWorld {
    /// The sizes its stores were allocated at.
    var storeSizes: LaneStoreSizes {
        LaneStoreSizes(lanes: lanes, bodyCount: bodyCount, movingBodyCount: bodies.movingBodyCount,
                       maxVertexCount: details.maxVertexCount, jointCount: jointBodies.count, rowCapacity: contacts.capacity,
                       fieldMemberCounts: fields.fields.map(\.bodies.count), fieldBodyCount: fields.bodies.count)
    }

    /// The bytes its lane stores report, as allocated.
    var columnByteCount: Int {
        laneColumnByteCount + bodies.byteCount + details.byteCount + sweptBoxes.byteCount + shapeColumns.byteCount
            + toiBodies.byteCount + contacts.byteCount + islands.byteCount + bundles.byteCount + jointBundles.byteCount
            + toi.byteCount + fields.byteCount
    }
}
