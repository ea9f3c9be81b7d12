/// The base of all behaviors (UIKit's UIDynamicBehavior): a behavior may hold child behaviors and
/// an `action` the animator calls after every tick.
open class DynamicBehavior {
    /// The animator this behavior (or its parent) has been added to.
    public var dynamicAnimator: DynamicAnimator? { animatorLink?.animator }
    /// Held weakly, as UIKit holds the animator: gone with it.
    weak var animatorLink: AnimatorLink?
    public private(set) var childBehaviors: [DynamicBehavior] = []
    weak var parent: DynamicBehavior?
    /// Called after every tick the animator runs, after contact events are delivered.
    @exclusivity(unchecked) public var action: (() -> Void)?

    public init() {}

    public func addChildBehavior(_ behavior: DynamicBehavior) {
        guard !childBehaviors.contains(where: { $0 === behavior }) else { return }
        childBehaviors.append(behavior)
        behavior.parent = self
        behavior.attach(to: dynamicAnimator)
        didChange()
    }

    public func removeChildBehavior(_ behavior: DynamicBehavior) {
        guard let i = childBehaviors.firstIndex(where: { $0 === behavior }) else { return }
        childBehaviors.remove(at: i)
        behavior.parent = nil
        behavior.attach(to: nil)
        didChange()
    }

    /// Called when the behavior is added to (or, with nil, removed from) an animator.
    open func willMove(to animator: DynamicAnimator?) {}

    func attach(to animator: DynamicAnimator?) {
        if dynamicAnimator === animator { return }
        willMove(to: animator)
        let old = dynamicAnimator
        animatorLink = animator?.link
        didAttach(from: old)
        for child in childBehaviors { child.attach(to: animator) }
    }

    /// Hook for behaviors with world-wide effects (gravity).
    func didAttach(from old: DynamicAnimator?) {}

    /// Tells the animator that what this behavior asks of the world changed: it re-reads its
    /// behaviors before the next sub-step and wakes the world.
    func didChange() { dynamicAnimator?.behaviorsDidChange() }

    /// The items this behavior needs bodies for (none for a plain behavior).
    var worldItems: [DynamicItem] { [] }

    /// This behavior and its descendants, depth first (the order in which settings apply).
    var flattened: [DynamicBehavior] { [self] + childBehaviors.flatMap(\.flattened) }

    /// What it asks of the world as a plan value; each behavior type describes itself.
    func planBehavior(_ context: PlanDescription) -> any PlanBehavior { PlanInput.Other(items: []) }
}

/// What a behavior describing itself for the plan needs of the animator: its items' indices in
/// the animator's item order, and the reference bounds.
struct PlanDescription {
    let indexOfItem: [ObjectIdentifier: Int]
    let order: [DynamicItem]
    let referenceBounds: Size

    func index(_ item: DynamicItem) -> Int { indexOfItem[ObjectIdentifier(item)]! }
    func indices(_ items: [DynamicItem]) -> [Int] { items.map(index) }
}

/// What a behavior knows of its animator, owned by the animator. Behaviors reference this weakly
/// rather than the animator itself: a weakly referenced object keeps its reference counts in a
/// side table, where every retain and release takes the runtime's slow path, and the batched
/// engine retains each animator every tick.
final class AnimatorLink {
    unowned let animator: DynamicAnimator
    init(_ animator: DynamicAnimator) { self.animator = animator }
}

/// A behavior that acts on a list of items (gravity, collision, push, item properties).
open class ItemsBehavior: DynamicBehavior {
    public private(set) var items: [DynamicItem]

    public init(items: [DynamicItem] = []) {
        var unique: [DynamicItem] = []
        for item in items where !unique.contains(where: { $0 === item }) { unique.append(item) }
        self.items = unique
        super.init()
    }

    public func addItem(_ item: DynamicItem) {
        guard !items.contains(where: { $0 === item }) else { return }
        items.append(item)
        didChange()
    }

    public func removeItem(_ item: DynamicItem) {
        guard let i = items.firstIndex(where: { $0 === item }) else { return }
        items.remove(at: i)
        didChange()
    }

    func contains(_ item: DynamicItem) -> Bool { items.contains { $0 === item } }

    override var worldItems: [DynamicItem] { items }

    override func planBehavior(_ context: PlanDescription) -> any PlanBehavior { PlanInput.Other(items: context.indices(items)) }
}
