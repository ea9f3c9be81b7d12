// Float 2-D math in engine units (metres, radians). The engine runs in Float, as the shipping
// Box2D-based engine does: device figures round exactly like Float metres (see UnitsTests).

struct Vec2: Equatable, Sendable {
    var x: Float
    var y: Float
    init(_ x: Float, _ y: Float) { self.x = x; self.y = y }
    static var zero: Vec2 { Vec2(0, 0) }

    static func + (a: Vec2, b: Vec2) -> Vec2 { Vec2(a.x + b.x, a.y + b.y) }
    static func - (a: Vec2, b: Vec2) -> Vec2 { Vec2(a.x - b.x, a.y - b.y) }
    static prefix func - (a: Vec2) -> Vec2 { Vec2(-a.x, -a.y) }
    static func * (s: Float, a: Vec2) -> Vec2 { Vec2(s * a.x, s * a.y) }
    static func += (a: inout Vec2, b: Vec2) { a = a + b }
    static func -= (a: inout Vec2, b: Vec2) { a = a - b }

    var length: Float { (x * x + y * y).squareRoot() }
    var lengthSquared: Float { x * x + y * y }
    /// Normalizes in place and returns the former length (0 leaves the vector as it is).
    @discardableResult mutating func normalize() -> Float {
        let l = length
        if l < Float.ulpOfOne { return 0 }
        let inv = 1 / l
        x *= inv; y *= inv
        return l
    }
    var normalized: Vec2 { var v = self; v.normalize(); return v }
    /// Perpendicular `cross(v, 1)`: (y, -x).
    var skewRight: Vec2 { Vec2(y, -x) }
    /// Perpendicular `cross(1, v)`: (-y, x).
    var skewLeft: Vec2 { Vec2(-y, x) }
}

func dot(_ a: Vec2, _ b: Vec2) -> Float { a.x * b.x + a.y * b.y }
func cross(_ a: Vec2, _ b: Vec2) -> Float { a.x * b.y - a.y * b.x }
/// cross(scalar, vector): the velocity of a point at `v` under angular velocity `s`.
func cross(_ s: Float, _ v: Vec2) -> Vec2 { Vec2(-s * v.y, s * v.x) }
func cross(_ v: Vec2, _ s: Float) -> Vec2 { Vec2(s * v.y, -s * v.x) }
func distanceSquared(_ a: Vec2, _ b: Vec2) -> Float { (a - b).lengthSquared }
func distance(_ a: Vec2, _ b: Vec2) -> Float { (a - b).length }
func clamp(_ v: Float, _ lo: Float, _ hi: Float) -> Float { max(lo, min(v, hi)) }

/// A rotation stored as sine and cosine.
struct Rot: Sendable {
    var s: Float
    var c: Float
    /// The rotation by `angle` radians, through the shared `sinCos` (see LaneTrig.swift).
    init(_ angle: Float) { (s, c) = sinCos(angle) }
    init(s: Float, c: Float) { self.s = s; self.c = c }
    static var identity: Rot { Rot(s: 0, c: 1) }
    func apply(_ v: Vec2) -> Vec2 { Vec2(c * v.x - s * v.y, s * v.x + c * v.y) }
    func applyInverse(_ v: Vec2) -> Vec2 { Vec2(c * v.x + s * v.y, -s * v.x + c * v.y) }
}

/// A rigid transform: rotation then translation.
struct Transform: Sendable {
    var p: Vec2
    var q: Rot
    init(p: Vec2, q: Rot) { self.p = p; self.q = q }
    static var identity: Transform { Transform(p: .zero, q: .identity) }
    func apply(_ v: Vec2) -> Vec2 { q.apply(v) + p }
    func applyInverse(_ v: Vec2) -> Vec2 { q.applyInverse(v - p) }

    /// The same bits (so +0 and −0 differ and a NaN matches itself): a function of the transform
    /// alone gives the same answer for both.
    @inline(__always) func isIdentical(to o: Transform) -> Bool {
        (p.x.bitPattern ^ o.p.x.bitPattern) | (p.y.bitPattern ^ o.p.y.bitPattern)
            | (q.s.bitPattern ^ o.q.s.bitPattern) | (q.c.bitPattern ^ o.q.c.bitPattern) == 0
    }
}

/// The motion of a body's centre of mass over one sub-step, for time of impact.
struct Sweep: Sendable {
    var localCenter: Vec2
    var c0: Vec2, c: Vec2
    var a0: Float, a: Float
    /// Fraction of the sub-step already advanced to (0 ... 1).
    var alpha0: Float

    func transform(at beta: Float) -> Transform {
        let center = (1 - beta) * c0 + beta * c
        let angle = (1 - beta) * a0 + beta * a
        let q = Rot(angle)
        return Transform(p: center - q.apply(localCenter), q: q)
    }

    /// Moves the start of the sweep forward to time `alpha`.
    mutating func advance(to alpha: Float) {
        let beta = (alpha - alpha0) / (1 - alpha0)
        c0 += beta * (c - c0)
        a0 += beta * (a - a0)
        alpha0 = alpha
    }

    /// Wraps the start angle into [-π, π] (on a copy used for root finding only: the body's own
    /// angle is a running total).
    mutating func normalize() {
        let twoPi = 2 * EngineSettings.b2Pi
        let d = twoPi * (a0 / twoPi).rounded(.down)
        a0 -= d
        a -= d
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
