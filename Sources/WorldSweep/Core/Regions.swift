// Where a field acts: a region as the engine keeps it. UIKit's UIRegion composes freely, but the
// engine stores one first primitive, one set operation and one second primitive (each possibly
// inverted), so (a ∪ b) ∩ c acts as a ∩ c: combining keeps each side's first primitive. The
// test is written once over `LaneReal`, in field-local points (item centre − field position).

/// A region's primitive shape; `width` is a circle's radius or a rectangle's width (points).
enum RegionShape: UInt8, Sendable {
    case infinite, circle, rectangle
}

/// One primitive, in points about the field's position, possibly inverted.
struct RegionPrimitive: Sendable, Equatable {
    var shape: RegionShape
    /// Circle: the radius; rectangle: the width (centred).
    var width: Float
    /// Rectangle: the height (centred); unused otherwise.
    var height: Float
    var inverted: Bool

    static let infinite = RegionPrimitive(shape: .infinite, width: 0, height: 0, inverted: false)

    /// Whether two primitives test the same way for any sizes (the batch's structure).
    func sharesStructure(with other: RegionPrimitive) -> Bool { shape == other.shape && inverted == other.inverted }
}

/// How the second primitive combines with the first.
enum RegionOperation: UInt8, Sendable {
    /// The first primitive alone.
    case none, union, difference, intersection
}

/// A field's region as the engine evaluates it.
struct FieldRegion: Sendable, Equatable {
    var first: RegionPrimitive
    var operation: RegionOperation
    var second: RegionPrimitive

    static let infinite = FieldRegion(first: .infinite, operation: .none, second: .infinite)

    func sharesStructure(with other: FieldRegion) -> Bool {
        operation == other.operation && first.sharesStructure(with: other.first) && second.sharesStructure(with: other.second)
    }

    /// The complement, exactly (De Morgan keeps it within two primitives): ¬(a ∪ b) = ¬a ∩ ¬b,
    /// ¬(a ∩ b) = ¬a ∪ ¬b, ¬(a − b) = ¬a ∪ b.
    var inverse: FieldRegion {
        var r = self
        switch operation {
        case .none:
            r.first.inverted.toggle()
        case .union:
            r.first.inverted.toggle(); r.second.inverted.toggle(); r.operation = .intersection
        case .intersection:
            r.first.inverted.toggle(); r.second.inverted.toggle(); r.operation = .union
        case .difference:
            r.first.inverted.toggle(); r.operation = .union
        }
        return r
    }

    /// `self op other` as the engine keeps it: the first primitive of each side (the quirk).
    func combined(_ operation: RegionOperation, with other: FieldRegion) -> FieldRegion {
        FieldRegion(first: first, operation: operation, second: other.first)
    }
}

/// Whether field-local points (x, y) lie in one primitive of sizes (width, height), per lane.
@inline(__always)
func regionPrimitiveContains<L: LaneReal>(_ shape: RegionShape, inverted: Bool, width: L, height: L, x: L, y: L) -> L.Mask {
    let inside: L.Mask
    switch shape {
    case .infinite:
        inside = L.isGreaterOrEqual(L(0), L(0))
    case .circle:
        inside = L.isGreaterOrEqual(width * width, x * x + y * y)
    case .rectangle:
        let half = L(0.5)
        inside = L.and(L.isGreaterOrEqual(half * width, L.absolute(x)), L.isGreaterOrEqual(half * height, L.absolute(y)))
    }
    return inverted ? L.not(inside) : inside
}

/// Whether field-local points (x, y) lie in the region; sizes per lane (the batch keeps them in
/// columns, since a sweep may vary them), structure from `region`.
@inline(__always)
func fieldRegionContains<L: LaneReal>(_ region: FieldRegion, firstWidth: L, firstHeight: L, secondWidth: L, secondHeight: L,
                                      x: L, y: L) -> L.Mask {
    let a = regionPrimitiveContains(region.first.shape, inverted: region.first.inverted, width: firstWidth, height: firstHeight, x: x, y: y)
    if region.operation == .none { return a }
    let b = regionPrimitiveContains(region.second.shape, inverted: region.second.inverted, width: secondWidth, height: secondHeight,
                                    x: x, y: y)
    switch region.operation {
    case .none: return a
    case .union: return L.or(a, b)
    case .intersection: return L.and(a, b)
    case .difference: return L.and(a, L.not(b))
    }
}

extension FieldRegion {
    /// The region test for one world.
    func contains(x: Float, y: Float) -> Bool {
        fieldRegionContains(self, firstWidth: first.width, firstHeight: first.height, secondWidth: second.width,
                            secondHeight: second.height, x: x, y: y)
    }
}
