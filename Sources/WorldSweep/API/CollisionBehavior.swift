/// What a collision behavior's items collide with (UIKit's UICollisionBehaviorMode).
public struct CollisionMode: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// Items of the behavior collide with each other.
    public static let items = CollisionMode(rawValue: 1)
    /// Items collide with the behavior's boundaries.
    public static let boundaries = CollisionMode(rawValue: 2)
    public static let everything: CollisionMode = [.items, .boundaries]
}

/// Receives contact events (UIKit's UICollisionBehaviorDelegate). Events of a tick are delivered
/// after its sub-steps: every "began" first, then every "ended". A boundary identifier of nil
/// means the reference-bounds boundary.
public protocol CollisionBehaviorDelegate: AnyObject {
    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item1: DynamicItem,
                           with item2: DynamicItem, at point: Point)
    func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item1: DynamicItem, with item2: DynamicItem)
    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: DynamicItem,
                           withBoundaryIdentifier identifier: String?, at point: Point)
    func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item: DynamicItem,
                           withBoundaryIdentifier identifier: String?)
}

extension CollisionBehaviorDelegate {
    public func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item1: DynamicItem,
                                  with item2: DynamicItem, at point: Point) {}
    public func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item1: DynamicItem,
                                  with item2: DynamicItem) {}
    public func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: DynamicItem,
                                  withBoundaryIdentifier identifier: String?, at point: Point) {}
    public func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item: DynamicItem,
                                  withBoundaryIdentifier identifier: String?) {}
}

/// Collisions (UIKit's UICollisionBehavior): items of one behavior collide with each other and
/// with that behavior's boundaries only.
public final class CollisionBehavior: ItemsBehavior {
    /// A boundary: one static segment, or a closed loop of segments.
    public enum Boundary: Hashable, Sendable {
        case segment(from: Point, to: Point)
        /// Closed even when the path is open: the last vertex joins the first.
        case path([Point])

        var segments: [(Point, Point)] {
            switch self {
            case .segment(let a, let b): return [(a, b)]
            case .path(let p):
                guard p.count >= 2 else { return [] }
                return (0..<p.count).map { (p[$0], p[($0 + 1) % p.count]) }
                    .filter { $0.0 != $0.1 }
            }
        }
    }

    public var collisionMode: CollisionMode = .everything { didSet { didChange() } }
    public weak var collisionDelegate: CollisionBehaviorDelegate?

    /// Adds the reference bounds as a boundary (identifier nil): an edge loop moved 1 pt outward
    /// on every side, as the shipping engine does.
    public var translatesReferenceBoundsIntoBoundary = false { didSet { didChange() } }
    public private(set) var referenceBoundsInsets = EdgeInsets.zero

    public func setTranslatesReferenceBoundsIntoBoundary(with insets: EdgeInsets) {
        referenceBoundsInsets = insets
        translatesReferenceBoundsIntoBoundary = true
    }

    public private(set) var boundaryIdentifiers: [String] = []
    private var boundaries: [String: Boundary] = [:]

    public func addBoundary(withIdentifier identifier: String, from p1: Point, to p2: Point) {
        setBoundary(identifier, .segment(from: p1, to: p2))
    }

    public func addBoundary(withIdentifier identifier: String, for path: [Point]) {
        setBoundary(identifier, .path(path))
    }

    public func boundary(withIdentifier identifier: String) -> Boundary? { boundaries[identifier] }

    public func removeBoundary(withIdentifier identifier: String) {
        guard boundaries.removeValue(forKey: identifier) != nil else { return }
        boundaryIdentifiers.removeAll { $0 == identifier }
        didChange()
    }

    public func removeAllBoundaries() {
        boundaries = [:]
        boundaryIdentifiers = []
        didChange()
    }

    private func setBoundary(_ identifier: String, _ boundary: Boundary) {
        if boundaries.updateValue(boundary, forKey: identifier) == nil { boundaryIdentifiers.append(identifier) }
        didChange()
    }

    /// Every boundary segment in reference coordinates, with its identifier (nil = bounds).
    func boundarySegments(referenceBounds: Size) -> [(identifier: String?, from: Point, to: Point)] {
        Self.boundarySegments(referenceBounds: referenceBounds,
                              referenceBoundsInsets: translatesReferenceBoundsIntoBoundary ? referenceBoundsInsets : nil,
                              boundaries: boundaryIdentifiers.map { ($0, boundaries[$0]!) })
    }

    override func planBehavior(_ context: PlanDescription) -> any PlanBehavior {
        PlanInput.Collision(items: context.indices(items), mode: collisionMode,
                            segments: boundarySegments(referenceBounds: context.referenceBounds).map {
                                PlanInput.Segment(identifier: $0.identifier, from: $0.from, to: $0.to)
                            })
    }

    /// The rule above on plain values (scene plans use it): the reference bounds moved outward
    /// by 1 pt when `referenceBoundsInsets` is given, then the boundaries in the order they
    /// were first added, each with the shape it was given last.
    public static func boundarySegments(referenceBounds: Size, referenceBoundsInsets: EdgeInsets?,
                                        boundaries added: [(identifier: String, boundary: Boundary)])
        -> [(identifier: String?, from: Point, to: Point)] {
        var out: [(String?, Point, Point)] = []
        if let i = referenceBoundsInsets {
            let minX = i.left - 1, minY = i.top - 1
            let maxX = referenceBounds.width - i.right + 1, maxY = referenceBounds.height - i.bottom + 1
            let corners = [Point(minX, minY), Point(maxX, minY), Point(maxX, maxY), Point(minX, maxY)]
            for k in 0..<4 { out.append((nil, corners[k], corners[(k + 1) % 4])) }
        }
        var identifiers: [String] = []
        var latest: [String: Boundary] = [:]
        for (id, boundary) in added where latest.updateValue(boundary, forKey: id) == nil { identifiers.append(id) }
        for id in identifiers {
            for (a, b) in latest[id]!.segments { out.append((id, a, b)) }
        }
        return out
    }
}

extension PlanInput {
    /// A collision behavior: its items and boundary segments (the plan's collision rule and
    /// boundary edges, which the compile makes from every collision behavior together).
    public struct Collision: PlanBehavior, Equatable {
        public var items: [Int]
        public var mode: CollisionMode
        public var segments: [Segment]
        public init(items: [Int], mode: CollisionMode, segments: [Segment]) { self.items = items; self.mode = mode; self.segments = segments }
    }

    /// One boundary segment of a collision behavior (identifier nil: the reference bounds).
    public struct Segment: Sendable, Equatable {
        public var identifier: String?
        public var from: Point
        public var to: Point
        public init(identifier: String?, from: Point, to: Point) { self.identifier = identifier; self.from = from; self.to = to }
    }
}
