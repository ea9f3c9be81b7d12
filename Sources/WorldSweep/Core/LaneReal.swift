// What the shared kernels need of a number: plain Float for one world, SIMD8<Float> for eight
// worlds side by side. Comparisons give masks and `select` picks per lane, so a kernel written
// once runs branch-free on lanes and as ordinary code on a single world.

protocol LaneReal {
    associatedtype Mask
    init(_ value: Float)
    static func + (a: Self, b: Self) -> Self
    static func - (a: Self, b: Self) -> Self
    static func * (a: Self, b: Self) -> Self
    static func / (a: Self, b: Self) -> Self
    static prefix func - (a: Self) -> Self
    func squareRoot() -> Self
    /// |a| per lane.
    static func absolute(_ a: Self) -> Self
    /// a > b per lane.
    static func isGreater(_ a: Self, _ b: Self) -> Mask
    static func minimum(_ a: Self, _ b: Self) -> Self
    static func maximum(_ a: Self, _ b: Self) -> Self
    /// a ≥ 0 per lane.
    static func isNonNegative(_ a: Self) -> Mask
    /// `mask ? a : b` per lane.
    static func select(_ mask: Mask, _ a: Self, _ b: Self) -> Self
    static func and(_ a: Mask, _ b: Mask) -> Mask
    static func or(_ a: Mask, _ b: Mask) -> Mask
    static func roundedToNearest(_ a: Self) -> Self
    static func roundedDown(_ a: Self) -> Self
    static func not(_ a: Mask) -> Mask
}

extension Float: LaneReal {
    @inline(__always) static func minimum(_ a: Float, _ b: Float) -> Float { min(a, b) }
    @inline(__always) static func maximum(_ a: Float, _ b: Float) -> Float { max(a, b) }
    @inline(__always) static func isNonNegative(_ a: Float) -> Bool { a >= 0 }
    @inline(__always) static func absolute(_ a: Float) -> Float { abs(a) }
    @inline(__always) static func isGreater(_ a: Float, _ b: Float) -> Bool { a > b }
    @inline(__always) static func select(_ mask: Bool, _ a: Float, _ b: Float) -> Float { mask ? a : b }
    @inline(__always) static func and(_ a: Bool, _ b: Bool) -> Bool { a && b }
    @inline(__always) static func or(_ a: Bool, _ b: Bool) -> Bool { a || b }
    @inline(__always) static func roundedToNearest(_ a: Float) -> Float { a.rounded(.toNearestOrEven) }
    @inline(__always) static func roundedDown(_ a: Float) -> Float { a.rounded(.down) }
    @inline(__always) static func not(_ a: Bool) -> Bool { !a }
}

extension SIMD8: LaneReal where Scalar == Float {
    typealias Mask = SIMDMask<SIMD8<Int32>>
    @inline(__always) init(_ value: Float) { self.init(repeating: value) }
    // Swift.min / Swift.max's own rules (y < x ? y : x, y >= x ? y : x), so lanes match Float exactly.
    @inline(__always) static func minimum(_ a: Self, _ b: Self) -> Self { a.replacing(with: b, where: b .< a) }
    @inline(__always) static func maximum(_ a: Self, _ b: Self) -> Self { a.replacing(with: b, where: b .>= a) }
    @inline(__always) static func isNonNegative(_ a: Self) -> Mask { a .>= Self(repeating: 0) }
    @inline(__always) static func absolute(_ a: Self) -> Self { a.replacing(with: -a, where: a .< 0) }
    @inline(__always) static func isGreater(_ a: Self, _ b: Self) -> Mask { a .> b }
    @inline(__always) static func select(_ mask: Mask, _ a: Self, _ b: Self) -> Self { b.replacing(with: a, where: mask) }
    @inline(__always) static func and(_ a: Mask, _ b: Mask) -> Mask { a .& b }
    @inline(__always) static func or(_ a: Mask, _ b: Mask) -> Mask { a .| b }
    @inline(__always) static func roundedToNearest(_ a: Self) -> Self { a.rounded(.toNearestOrEven) }
    @inline(__always) static func roundedDown(_ a: Self) -> Self { a.rounded(.down) }
    @inline(__always) static func not(_ a: Mask) -> Mask { .!a }
}
