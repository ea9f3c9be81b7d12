/// Where a field acts (UIKit's UIRegion), in points about the field's position: a circle, a
/// centred rectangle, everywhere, and their inverses, unions, differences and intersections.
///
/// The engine keeps a region as one primitive, one set operation and one second primitive (each
/// possibly inverted). An inverse is exact; a set operation keeps the *first primitive* of each
/// side, so `a.union(with: b).intersection(with: c)` acts as `a.intersection(with: c)`, as
/// UIKit's engine does. `engineForm` is that reduction.
public struct Region: Sendable, Hashable {
    indirect enum Node: Sendable, Hashable {
        case infinite
        case circle(radius: Double)
        case rectangle(size: Size)
        case inverse(Node)
        case union(Node, Node)
        case difference(Node, Node)
        case intersection(Node, Node)
    }
    let node: Node

    init(node: Node) { self.node = node }

    /// Everywhere (the default region of a field).
    public static let infinite = Region(node: .infinite)
    /// A disc of `radius` points about the field's position.
    public init(radius: Double) { node = .circle(radius: radius) }
    /// A rectangle of `size` points centred on the field's position.
    public init(size: Size) { node = .rectangle(size: size) }

    /// Everywhere this region is not.
    public func inverse() -> Region { Region(node: .inverse(node)) }
    /// This region or `other` (see the type's note on how the engine keeps it).
    public func union(with other: Region) -> Region { Region(node: .union(node, other.node)) }
    /// This region without `other`.
    public func difference(from other: Region) -> Region { Region(node: .difference(node, other.node)) }
    /// Where both are.
    public func intersection(with other: Region) -> Region { Region(node: .intersection(node, other.node)) }

    /// The region as the engine evaluates it.
    var engineForm: FieldRegion { Self.reduce(node) }

    private static func reduce(_ node: Node) -> FieldRegion {
        switch node {
        case .infinite:
            return .infinite
        case .circle(let r):
            return FieldRegion(first: RegionPrimitive(shape: .circle, width: Float(r), height: 0, inverted: false),
                               operation: .none, second: .infinite)
        case .rectangle(let s):
            return FieldRegion(first: RegionPrimitive(shape: .rectangle, width: Float(s.width), height: Float(s.height), inverted: false),
                               operation: .none, second: .infinite)
        case .inverse(let r):
            return reduce(r).inverse
        case .union(let a, let b):
            return reduce(a).combined(.union, with: reduce(b))
        case .difference(let a, let b):
            return reduce(a).combined(.difference, with: reduce(b))
        case .intersection(let a, let b):
            return reduce(a).combined(.intersection, with: reduce(b))
        }
    }
}
