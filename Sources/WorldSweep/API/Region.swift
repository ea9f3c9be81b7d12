/// Where a field acts (UIKit's UIRegion), in points about the field's position: a circle, a
/// centred rectangle, everywhere, and their inverses, unions, differences and intersections.
///
/// The engine keeps a region as one primitive, one set operation and one second primitive (each
/// possibly inverted). An inverse is exact; a set operation keeps the *first primitive* of each
/// side, so `a.union(with: b).intersection(with: c)` acts as `a.intersection(with: c)`, as
/// UIKit's engine does. `engineForm` is that reduction.
public struct Region: Sendable, Hashable {
    /// The region as written, in postfix order (operands, then the operation).
    enum Step: Sendable, Hashable {
        case infinite
        case circle(radius: Double)
        case rectangle(size: Size)
        case inverse, union, difference, intersection
    }
    let steps: [Step]

    init(steps: [Step]) { self.steps = steps }

    /// Everywhere (the default region of a field).
    public static let infinite = Region(steps: [.infinite])
    /// A disc of `radius` points about the field's position.
    public init(radius: Double) { steps = [.circle(radius: radius)] }
    /// A rectangle of `size` points centred on the field's position.
    public init(size: Size) { steps = [.rectangle(size: size)] }

    /// Everywhere this region is not.
    public func inverse() -> Region { Region(steps: steps + [.inverse]) }
    /// This region or `other` (see the type's note on how the engine keeps it).
    public func union(with other: Region) -> Region { Region(steps: steps + other.steps + [.union]) }
    /// This region without `other`.
    public func difference(from other: Region) -> Region { Region(steps: steps + other.steps + [.difference]) }
    /// Where both are.
    public func intersection(with other: Region) -> Region { Region(steps: steps + other.steps + [.intersection]) }

    /// The radius of a region that is one circle (or everywhere but one), else nil.
    public var circleRadius: Double? {
        if case .circle(let r) = steps.first, steps.dropFirst().allSatisfy({ $0 == .inverse }) { return r }
        return nil
    }

    /// The size of a region that is one rectangle (or everywhere but one), else nil.
    public var rectangleSize: Size? {
        if case .rectangle(let size) = steps.first, steps.dropFirst().allSatisfy({ $0 == .inverse }) { return size }
        return nil
    }

    /// Whether the region combines two regions (a union, difference or intersection).
    public var isCombination: Bool { steps.contains { [.union, .difference, .intersection].contains($0) } }

    /// The same one-circle region with another radius (unchanged if it is not one).
    public func withCircleRadius(_ radius: Double) -> Region {
        guard circleRadius != nil else { return self }
        return Region(steps: [.circle(radius: radius)] + steps.dropFirst())
    }

    /// The same one-rectangle region with another size (unchanged if it is not one).
    public func withRectangleSize(_ size: Size) -> Region {
        guard rectangleSize != nil else { return self }
        return Region(steps: [.rectangle(size: size)] + steps.dropFirst())
    }

    /// The region as the engine evaluates it.
    var engineForm: FieldRegion {
        var stack: [FieldRegion] = []
        for step in steps {
            switch step {
            case .infinite:
                stack.append(.infinite)
            case .circle(let r):
                stack.append(FieldRegion(first: RegionPrimitive(shape: .circle, width: Float(r), height: 0, inverted: false),
                                         operation: .none, second: .infinite))
            case .rectangle(let s):
                stack.append(FieldRegion(first: RegionPrimitive(shape: .rectangle, width: Float(s.width), height: Float(s.height),
                                                                inverted: false),
                                         operation: .none, second: .infinite))
            case .inverse:
                stack.append(stack.removeLast().inverse)
            case .union, .difference, .intersection:
                let b = stack.removeLast(), a = stack.removeLast()
                let operation: RegionOperation = step == .union ? .union : step == .difference ? .difference : .intersection
                stack.append(a.combined(operation, with: b))
            }
        }
        return stack.last ?? .infinite
    }
}
