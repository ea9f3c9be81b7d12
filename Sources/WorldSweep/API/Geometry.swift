/// Geometry in UIKit's reference-bounds coordinates: points, origin top-left, y grows downward,
/// angles in radians with positive = clockwise on screen. These are the public types; the engine
/// converts them to Float metres (`Vec2`) at the boundary.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    public static let zero = Point(x: 0, y: 0)
    public var description: String { "(\(x), \(y))" }
}

public struct Size: Hashable, Sendable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) { self.width = width; self.height = height }
}

/// A direction or velocity (UIKit's CGVector).
public struct Vector: Hashable, Sendable {
    public var dx: Double
    public var dy: Double
    public init(dx: Double, dy: Double) { self.dx = dx; self.dy = dy }
    public static let zero = Vector(dx: 0, dy: 0)
}

/// A rectangle given by its origin (top-left) and size.
public struct Rect: Hashable, Sendable {
    public var origin: Point
    public var size: Size
    public init(origin: Point, size: Size) { self.origin = origin; self.size = size }
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.origin = Point(x: x, y: y); self.size = Size(width: width, height: height)
    }
    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }
}

/// Insets of the reference-bounds boundary (UIKit's UIEdgeInsets).
public struct EdgeInsets: Hashable, Sendable {
    public var top: Double, left: Double, bottom: Double, right: Double
    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
    public static let zero = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)
}

/// An offset from an item's centre, in the item's own (rotating) frame (UIKit's UIOffset).
public struct Offset: Hashable, Sendable {
    public var horizontal: Double
    public var vertical: Double
    public init(horizontal: Double, vertical: Double) { self.horizontal = horizontal; self.vertical = vertical }
    public static let zero = Offset(horizontal: 0, vertical: 0)
}

/// A closed range of values (UIKit's UIFloatRange): an attachment's angle or translation limits.
public struct FloatRange: Hashable, Sendable {
    public var minimum: Double
    public var maximum: Double
    public init(minimum: Double, maximum: Double) { self.minimum = minimum; self.maximum = maximum }
    /// No limits (UIFloatRangeInfinite): the default of every attachment.
    public static let infinite = FloatRange(minimum: -.infinity, maximum: .infinity)
    public var isInfinite: Bool { minimum == -.infinity && maximum == .infinity }
}
