// 3-D simplex noise with its analytic gradient (after Gustavson's sdnoise3 / srdnoise3: skewed
// simplex grid, corner kernel (r² − d²)⁴, gradients on the cube's 12 edge midpoints), for the
// noise and turbulence fields. r² = 0.5 (scale 105, values about ±1) rather than the original
// 0.6 (scale 28): with 0.6 a corner still contributes outside its simplices, so the noise and
// the force jump as an item crosses a cell boundary. Scalar Float only: the batch calls it lane by lane,
// so both engines get the same bits. The permutation is our own (a fixed shuffle), so values are
// not Gustavson's table's; the shape of the noise is.

enum SimplexNoise {
    /// 0 ..< 256 shuffled by a fixed linear congruential generator, repeated twice so that
    /// index sums up to 511 need no wrap.
    static let permutation: [Int] = {
        var p = Array(0..<256)
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for i in stride(from: 255, to: 0, by: -1) {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let j = Int((state >> 33) % UInt64(i + 1))
            p.swapAt(i, j)
        }
        return p + p
    }()

    /// The 12 edge midpoints of the unit cube.
    static let gradients: [(Float, Float, Float)] = [
        (1, 1, 0), (-1, 1, 0), (1, -1, 0), (-1, -1, 0),
        (1, 0, 1), (-1, 0, 1), (1, 0, -1), (-1, 0, -1),
        (0, 1, 1), (0, -1, 1), (0, 1, -1), (0, -1, -1),
    ]

    /// The noise n at (x, y, z) and ∂n/∂x, ∂n/∂y, ∂n/∂z; zero where a coordinate is not finite
    /// or too large for the grid's integer corners.
    static func evaluate(x: Float, y: Float, z: Float) -> (value: Float, gx: Float, gy: Float, gz: Float) {
        let limit: Float = 16_777_216
        guard abs(x) < limit, abs(y) < limit, abs(z) < limit else { return (0, 0, 0, 0) }
        let f3: Float = 1.0 / 3, g3: Float = 1.0 / 6
        // Skew to the simplex grid and find the cell.
        let s = (x + y + z) * f3
        let i = Int((x + s).rounded(.down)), j = Int((y + s).rounded(.down)), k = Int((z + s).rounded(.down))
        let t = Float(i + j + k) * g3
        let x0 = x - (Float(i) - t), y0 = y - (Float(j) - t), z0 = z - (Float(k) - t)
        // Which of the six simplices of the cell: order the offsets.
        let (i1, j1, k1, i2, j2, k2): (Int, Int, Int, Int, Int, Int)
        if x0 >= y0 {
            if y0 >= z0 { (i1, j1, k1, i2, j2, k2) = (1, 0, 0, 1, 1, 0) }
            else if x0 >= z0 { (i1, j1, k1, i2, j2, k2) = (1, 0, 0, 1, 0, 1) }
            else { (i1, j1, k1, i2, j2, k2) = (0, 0, 1, 1, 0, 1) }
        } else {
            if y0 < z0 { (i1, j1, k1, i2, j2, k2) = (0, 0, 1, 0, 1, 1) }
            else if x0 < z0 { (i1, j1, k1, i2, j2, k2) = (0, 1, 0, 0, 1, 1) }
            else { (i1, j1, k1, i2, j2, k2) = (0, 1, 0, 1, 1, 0) }
        }
        let corners: [(Float, Float, Float, Int, Int, Int)] = [
            (x0, y0, z0, 0, 0, 0),
            (x0 - Float(i1) + g3, y0 - Float(j1) + g3, z0 - Float(k1) + g3, i1, j1, k1),
            (x0 - Float(i2) + 2 * g3, y0 - Float(j2) + 2 * g3, z0 - Float(k2) + 2 * g3, i2, j2, k2),
            (x0 - 1 + 3 * g3, y0 - 1 + 3 * g3, z0 - 1 + 3 * g3, 1, 1, 1),
        ]
        let ii = i & 255, jj = j & 255, kk = k & 255
        var n: Float = 0, gx: Float = 0, gy: Float = 0, gz: Float = 0
        for (cx, cy, cz, di, dj, dk) in corners {
            let falloff = 0.5 - cx * cx - cy * cy - cz * cz
            guard falloff > 0 else { continue }
            let hash = permutation[ii + di + permutation[jj + dj + permutation[kk + dk]]] % 12
            let (ax, ay, az) = gradients[hash]
            let dot = ax * cx + ay * cy + az * cz
            let t2 = falloff * falloff, t4 = t2 * t2
            n += t4 * dot
            // d/dx of t⁴ · (g · c) = −8 t³ (g · c) x + t⁴ g_x.
            let k8 = -8 * t2 * falloff * dot
            gx += k8 * cx + t4 * ax
            gy += k8 * cy + t4 * ay
            gz += k8 * cz + t4 * az
        }
        return (105 * n, 105 * gx, 105 * gy, 105 * gz)
    }


    /// The noise value itself (for tests: the gradient against finite differences).
    static func value(x: Float, y: Float, z: Float) -> Float { evaluate(x: x, y: y, z: z).value }

    static func gradient(x: Float, y: Float, z: Float) -> (x: Float, y: Float, z: Float) {
        let e = evaluate(x: x, y: y, z: z)
        return (e.gx, e.gy, e.gz)
    }
}
