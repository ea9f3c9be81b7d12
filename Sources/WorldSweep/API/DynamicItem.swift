/// How an item's collision outline is derived (UIKit's UIDynamicItemCollisionBoundsType).
public enum DynamicItemCollisionBoundsType: String, Sendable, CaseIterable {
    /// The item's bounds rectangle (the default).
    case rectangle
    /// The ellipse inscribed in the bounds: a true circle when width = height, otherwise a convex
    /// polygon approximating it.
    case ellipse
    /// `collisionBoundingPath`: a convex polygon given relative to the item's centre.
    case path
}

/// Something the animator can move (UIKit's UIDynamicItem). The animator writes `center` and
/// `angle` back after every tick, as UIKit writes a view's center and transform.
public protocol DynamicItem: AnyObject {
    /// Centre in reference coordinates (points).
    var center: Point { get set }
    /// Size of the item's bounds in points.
    var size: Size { get }
    /// Rotation in radians, clockwise positive; a running total, never wrapped to ±π.
    var angle: Double { get set }
    var collisionBoundsType: DynamicItemCollisionBoundsType { get }
    /// Vertices of a convex outline relative to the centre, used when `collisionBoundsType` is `.path`.
    var collisionBoundingPath: [Point] { get }
}

extension DynamicItem {
    public var collisionBoundsType: DynamicItemCollisionBoundsType { .rectangle }
    public var collisionBoundingPath: [Point] { [] }
}

/// A plain item with a name, standing in for a UIView.
public final class View: DynamicItem, CustomStringConvertible {
    public let name: String
    @exclusivity(unchecked) public var center: Point
    public let size: Size
    @exclusivity(unchecked) public var angle: Double
    public let collisionBoundsType: DynamicItemCollisionBoundsType
    public let collisionBoundingPath: [Point]

    public init(
        name: String = "", center: Point, size: Size, angle: Double = 0,
        collisionBoundsType: DynamicItemCollisionBoundsType = .rectangle, collisionBoundingPath: [Point] = []
    ) {
        self.name = name
        self.center = center
        self.size = size
        self.angle = angle
        self.collisionBoundsType = collisionBoundsType
        self.collisionBoundingPath = collisionBoundingPath
    }

    /// Convenience matching `UIView(frame:)`: the centre is the frame's midpoint.
    public convenience init(name: String = "", frame: Rect) {
        self.init(name: name, center: Point(x: frame.minX + frame.size.width / 2, y: frame.minY + frame.size.height / 2),
                  size: frame.size)
    }

    public var description: String { name.isEmpty ? "View(\(center))" : name }
}
