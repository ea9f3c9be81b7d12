// Sine and cosine written once for every lane type, so that a body's rotation is the same bits
// in the single world (`Float`) and in the batched engine (`SIMD8<Float>`): a libm call per lane
// would cost more than the rest of a sub-step, and a vector libm would round differently.
//
// Method (Cephes' single-precision sinf/cosf): reduce by the nearest multiple j of π/2 with a
// three-part Cody–Waite split of π/2 (exact products while |j| < 2¹⁵, i.e. |angle| < 51 000 rad),
// evaluate minimax polynomials on [−π/4, π/4], and pick and sign them by j mod 4. Error is about
// 1 ulp against the exact values (tested); sinCos(0) is exactly (0, 1).

/// The sine and cosine of `angle` (radians), lane by lane.
@inline(__always)
func sinCos<L: LaneReal>(_ angle: L) -> (sin: L, cos: L) {
    // Rounding by adding and removing 1.5 × 2²³ (exact while |j| < 2²²): plain arithmetic, so
    // eight lanes cost what one does (SIMD rounding calls libm once per lane here).
    let magic = L(12_582_912)
    let j = (angle * L(0.636_619_772_367_581_3) + magic) - magic   // nearest integer to angle · 2/π
    let r = ((angle - j * L(1.570_312_5)) - j * L(4.837_512_969_970_703e-4)) - j * L(7.549_789_954_891_882e-8)
    let z = r * r
    let sinPoly = r + r * z * (L(-1.666_665_461_1e-1) + z * (L(8.332_160_873_6e-3) + z * L(-1.951_529_589_1e-4)))
    let cosPoly = L(1) - L(0.5) * z
        + z * z * (L(4.166_664_568_298_827e-2) + z * (L(-1.388_731_625_493_765e-3) + z * L(2.443_315_711_809_948e-5)))
    // Quadrant q = j mod 4 in {0, 1, 2, 3}; for integer j, ⌊j/4⌋ is (j − 1.5)/4 rounded (never a tie).
    let q = j - L(4) * (((j - L(1.5)) * L(0.25) + magic) - magic)
    let odd = L.isGreater(q - L(2) * (((q - L(0.5)) * L(0.5) + magic) - magic), L(0.5))
    let s = L.select(odd, cosPoly, sinPoly)
    let c = L.select(odd, sinPoly, cosPoly)
    let sinNegative = L.isGreater(q, L(1.5))                         // q = 2, 3
    let cosNegative = L.isGreater(L(1), L.absolute(q - L(1.5)))      // q = 1, 2
    return (L.select(sinNegative, -s, s), L.select(cosNegative, -c, c))
}
