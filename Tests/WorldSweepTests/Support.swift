import WorldSweep

/// The sub-step h = Float(1/120) as the engine uses it.
let h = Double(Float(1.0 / 120.0))

/// Sub-steps run after n ticks of 1/60 s: 2n − 1.
func subSteps(afterTicks n: Int) -> Int { 2 * n - 1 }

/// Records every delegate callback with the tick it arrived in.
final class EventLog: CollisionBehaviorDelegate, DynamicAnimatorDelegate {
    enum Kind: Equatable { case began, ended, paused, resumed }
    struct Entry { var tick: Int; var kind: Kind; var item: String; var other: String; var point: Point? }
    var entries: [Entry] = []
    var tick = 0

    func collisionBehavior(_ b: CollisionBehavior, beganContactFor item1: DynamicItem, with item2: DynamicItem, at p: Point) {
        entries.append(Entry(tick: tick, kind: .began, item: name(item1), other: name(item2), point: p))
    }
    func collisionBehavior(_ b: CollisionBehavior, endedContactFor item1: DynamicItem, with item2: DynamicItem) {
        entries.append(Entry(tick: tick, kind: .ended, item: name(item1), other: name(item2), point: nil))
    }
    func collisionBehavior(_ b: CollisionBehavior, beganContactFor item: DynamicItem, withBoundaryIdentifier id: String?, at p: Point) {
        entries.append(Entry(tick: tick, kind: .began, item: name(item), other: id ?? "bounds", point: p))
    }
    func collisionBehavior(_ b: CollisionBehavior, endedContactFor item: DynamicItem, withBoundaryIdentifier id: String?) {
        entries.append(Entry(tick: tick, kind: .ended, item: name(item), other: id ?? "bounds", point: nil))
    }
    func dynamicAnimatorDidPause(_ a: DynamicAnimator) { entries.append(Entry(tick: tick, kind: .paused, item: "", other: "", point: nil)) }
    func dynamicAnimatorWillResume(_ a: DynamicAnimator) { entries.append(Entry(tick: tick, kind: .resumed, item: "", other: "", point: nil)) }

    private func name(_ item: DynamicItem) -> String { (item as? View)?.name ?? "?" }

    func kinds(_ k: Kind) -> [Entry] { entries.filter { $0.kind == k } }
}

/// Ticks the animator n times at 1/60 s, numbering ticks in the log.
func run(_ animator: DynamicAnimator, ticks n: Int, log: EventLog? = nil, each: ((Int) -> Void)? = nil) {
    for _ in 0..<n {
        log?.tick += 1
        animator.tick(1.0 / 60.0)
        each?(log?.tick ?? 0)
    }
}

/// A box that ignores damping, so motion follows the integration rule alone.
func undampedItemBehavior(_ items: [DynamicItem]) -> DynamicItemBehavior {
    let b = DynamicItemBehavior(items: items)
    b.resistance = 0
    b.angularResistance = 0
    return b
}
