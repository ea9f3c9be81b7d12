// What a sweep's metrics read of a lanes batch after a tick, eight worlds (one lane group) per
// call: `PlanBatch.readRunning` and `itemState` as vectors, so the metrics fold eight worlds per
// instruction (PlanMetricsRecorder's lane fold) straight from the lane columns.

/// Eight worlds' states of one item (lane j: world `group × 8 + j`), each lane what
/// `PlanBatch.itemState` gives: points, radians, −1 per lane where the body is awake.
public struct ItemStateLanes: Sendable {
    public var x, y, angle, vx, vy, angularVelocity: SIMD8<Double>
    public var awake: SIMD8<Int64>
}

/// What `readRunning` says of eight worlds, −1 per lane where it holds, else 0.
public struct WorldReadingLanes: Sendable {
    /// The world still takes part (padding lanes past the batch's worlds never do).
    public var running: SIMD8<Int64>
    /// Every moving body sleeps.
    public var asleep: SIMD8<Int64>
    /// It has contact changes for `takeContactChanges`.
    public var contactChanges: SIMD8<Int64>
}

extension PlanBatch {
    /// How many lane groups of eight a `.lanes` batch holds (the last may end in padding lanes);
    /// nil for a `.solo` batch, whose worlds are read one at a time.
    public var laneGroupCount: Int? {
        guard case .lanes = layout else { return nil }
        return lanes.lanes / LaneWorld.width
    }

    /// `readRunning`'s readings of lane group `g`.
    public func readings(ofGroup g: Int) -> WorldReadingLanes {
        let lanes = self.lanes, i = g &* LaneWorld.width
        var anyAwake = SIMD8<Int32>(repeating: 0)
        for b in 0..<lanes.bodies.movingBodyCount where !lanes.isStatic[b] {
            anyAwake |= loadLanes(lanes.details.awake, b &* lanes.lanes &+ i)
        }
        return WorldReadingLanes(running: SIMD8(truncatingIfNeeded: lanes.running.lanes(i)),
                                 asleep: SIMD8(truncatingIfNeeded: nonZeroFlags(anyAwake) ^ -1),
                                 contactChanges: SIMD8(truncatingIfNeeded: nonZeroFlags(loadLanes(lanes.changesWaiting, i))))
    }

    /// Body `b`'s states in lane group `g` (the item states of one item in eight worlds).
    public func itemStates(ofGroup g: Int, body b: Int) -> ItemStateLanes {
        let lanes = self.lanes, i = b &* lanes.lanes &+ g &* LaneWorld.width
        return ItemStateLanes(x: loadLanes(lanes.details.px, i), y: loadLanes(lanes.details.py, i), angle: loadLanes(lanes.bodies.a, i),
                              vx: loadLanes(lanes.bodies.vx, i), vy: loadLanes(lanes.bodies.vy, i),
                              angularVelocity: loadLanes(lanes.bodies.w, i), awake: loadLanes(lanes.details.awake, i))
    }
}

/// −1 in the lanes that are not zero, else 0.
@inline(__always) private func nonZeroFlags(_ x: SIMD8<Int32>) -> SIMD8<Int32> { unsafeBitCast(nonZeroLanes(x), to: SIMD8<Int32>.self) }
