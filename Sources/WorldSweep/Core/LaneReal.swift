// What the shared kernels need of a number: plain Float for one world, SIMD8<Float> for eight
// worlds side by side. Comparisons give masks and `select` picks per lane, so a kernel written
// once runs branch-free on lanes and as ordinary code on a single world.

protocol LaneReal {
    associatedtype Mask
    /// Worlds side by side in one value: 1 for `Float`, 8 for `SIMD8<Float>`.
    static var laneCount: Int { get }
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
    /// a ≥ b per lane.
    static func isGreaterOrEqual(_ a: Self, _ b: Self) -> Mask
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
    /// Whether any lane of the mask is set (for one world: the flag itself).
    static func any(_ a: Mask) -> Bool
    /// Whether every lane of the mask is set (for one world: the flag itself).
    static func all(_ a: Mask) -> Bool
}

extension Float: LaneReal {
    @inline(__always) static var laneCount: Int { 1 }
    @inline(__always) static func minimum(_ a: Float, _ b: Float) -> Float { min(a, b) }
    @inline(__always) static func maximum(_ a: Float, _ b: Float) -> Float { max(a, b) }
    @inline(__always) static func isNonNegative(_ a: Float) -> Bool { a >= 0 }
    @inline(__always) static func absolute(_ a: Float) -> Float { abs(a) }
    @inline(__always) static func isGreater(_ a: Float, _ b: Float) -> Bool { a > b }
    @inline(__always) static func isGreaterOrEqual(_ a: Float, _ b: Float) -> Bool { a >= b }
    @inline(__always) static func select(_ mask: Bool, _ a: Float, _ b: Float) -> Float { mask ? a : b }
    @inline(__always) static func and(_ a: Bool, _ b: Bool) -> Bool { a && b }
    @inline(__always) static func or(_ a: Bool, _ b: Bool) -> Bool { a || b }
    @inline(__always) static func roundedToNearest(_ a: Float) -> Float { a.rounded(.toNearestOrEven) }
    @inline(__always) static func roundedDown(_ a: Float) -> Float { a.rounded(.down) }
    @inline(__always) static func not(_ a: Bool) -> Bool { !a }
    @inline(__always) static func any(_ a: Bool) -> Bool { a }
    @inline(__always) static func all(_ a: Bool) -> Bool { a }
}

extension SIMD8: LaneReal where Scalar == Float {
    typealias Mask = SIMDMask<SIMD8<Int32>>
    @inline(__always) static var laneCount: Int { 8 }
    @inline(__always) init(_ value: Float) { self.init(repeating: value) }
    /// −a per lane as Float negates: the sign bit flipped (the standard library's SIMD negation
    /// is 0 − a, which makes +0 of +0 where Float makes −0, so a kernel's zeros kept other signs).
    @inline(__always) static prefix func - (a: Self) -> Self {
        unsafeBitCast(unsafeBitCast(a, to: SIMD8<UInt32>.self) ^ SIMD8<UInt32>(repeating: 0x8000_0000), to: Self.self)
    }
    // Swift.min / Swift.max's own rules (y < x ? y : x, y >= x ? y : x), so lanes match Float exactly.
    @inline(__always) static func minimum(_ a: Self, _ b: Self) -> Self { a.blended(with: b, where: b .< a) }
    @inline(__always) static func maximum(_ a: Self, _ b: Self) -> Self { a.blended(with: b, where: b .>= a) }
    @inline(__always) static func isNonNegative(_ a: Self) -> Mask { a .>= Self(repeating: 0) }
    @inline(__always) static func absolute(_ a: Self) -> Self { a.blended(with: -a, where: a .< 0) }
    @inline(__always) static func isGreater(_ a: Self, _ b: Self) -> Mask { a .> b }
    @inline(__always) static func isGreaterOrEqual(_ a: Self, _ b: Self) -> Mask { a .>= b }
    @inline(__always) static func select(_ mask: Mask, _ a: Self, _ b: Self) -> Self { b.blended(with: a, where: mask) }
    @inline(__always) static func and(_ a: Mask, _ b: Mask) -> Mask { a .& b }
    @inline(__always) static func or(_ a: Mask, _ b: Mask) -> Mask { a .| b }
    @inline(__always) static func roundedToNearest(_ a: Self) -> Self { a.rounded(.toNearestOrEven) }
    @inline(__always) static func roundedDown(_ a: Self) -> Self { a.rounded(.down) }
    @inline(__always) static func not(_ a: Mask) -> Mask { .!a }
    @inline(__always) static func any(_ a: Mask) -> Bool { anyLane(a) }
    @inline(__always) static func all(_ a: Mask) -> Bool { allLanes(a) }
}

extension SIMD8 where Scalar == Float {
    /// `replacing(with:where:)` as a bitwise blend: the same bits, but one vector operation where
    /// the standard library's generic version (at the baseline x86-64 target) loops lane by lane.
    @inline(__always) func blended(with other: Self, where mask: SIMDMask<SIMD8<Int32>>) -> Self {
        let m = unsafeBitCast(mask, to: SIMD8<Int32>.self)
        let a = unsafeBitCast(self, to: SIMD8<Int32>.self), b = unsafeBitCast(other, to: SIMD8<Int32>.self)
        return unsafeBitCast(a ^ ((a ^ b) & m), to: Self.self)
    }
    @inline(__always) func blended(with scalar: Float, where mask: SIMDMask<SIMD8<Int32>>) -> Self {
        blended(with: Self(repeating: scalar), where: mask)
    }
}

extension SIMD8 where Scalar == Int32 {
    @inline(__always) func blended(with other: Self, where mask: SIMDMask<SIMD8<Int32>>) -> Self {
        let m = unsafeBitCast(mask, to: SIMD8<Int32>.self)
        return self ^ ((self ^ other) & m)
    }
    @inline(__always) func blended(with scalar: Int32, where mask: SIMDMask<SIMD8<Int32>>) -> Self {
        blended(with: Self(repeating: scalar), where: mask)
    }
}

/// Whether any / every lane of a mask is set, by looking at its bits (the standard library's
/// `any` and `all` reduce lane by lane).
@inline(__always) func anyLane(_ mask: SIMDMask<SIMD8<Int32>>) -> Bool {
    let words = unsafeBitCast(mask, to: SIMD4<UInt64>.self)
    return (words[0] | words[1] | words[2] | words[3]) != 0
}
@inline(__always) func allLanes(_ mask: SIMDMask<SIMD8<Int32>>) -> Bool {
    let words = unsafeBitCast(mask, to: SIMD4<UInt64>.self)
    return (words[0] & words[1] & words[2] & words[3]) == UInt64.max
}

/// Lanes that are 0 or −1, as a mask (SIMDMask stores exactly that).
@inline(__always) func maskFromFlags(_ flags: SIMD8<Int32>) -> SIMDMask<SIMD8<Int32>> {
    unsafeBitCast(flags, to: SIMDMask<SIMD8<Int32>>.self)
}
/// Lanes that are not zero: x | −x has its sign bit set exactly then.
@inline(__always) func nonZeroLanes(_ x: SIMD8<Int32>) -> SIMDMask<SIMD8<Int32>> {
    maskFromFlags((x | (0 &- x)) &>> 31)
}
/// Lanes equal to `k`.
@inline(__always) func lanesEqual(_ x: SIMD8<Int32>, _ k: Int32) -> SIMDMask<SIMD8<Int32>> {
    let d = x ^ SIMD8(repeating: k)
    return maskFromFlags(~((d | (0 &- d)) &>> 31))
}
