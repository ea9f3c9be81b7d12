/// The engine's fixed numbers, in engine units (metres, seconds, radians). The values are those of
/// the shipping engine (a Box2D 2.x fork) as docs/semantics.md gathers it.
public enum EngineSettings {
    /// 100 points per metre.
    public static let pointsPerMetre: Float = 100
    /// The fixed sub-step, Float(1/120) s. Slightly above 1/120, so n ticks of 1/60 s run 2n − 1.
    public static let subStep: Float = Float(1.0 / 120.0)
    /// Ticks longer than this are treated as 1/60 s.
    public static let maxTick: Double = 0.5
    public static let velocityIterations = 8
    public static let positionIterations = 3
    /// Gravity magnitude 1 = 10 m/s² (1000 pt/s²).
    public static let gravityPerUnit: Float = 10
    /// Elasticity (restitution) and friction of the boundaries (the reference bounds and explicit
    /// boundaries: static bodies), which no UIKit API changes. A contact mixes its two sides'
    /// values by `mixedRestitution` (the larger) and `mixedFriction` (the geometric mean).
    public static let boundaryElasticity = 0.2
    public static let boundaryFriction = 0.2

    /// π as the engine has it: Box2D's `b2_pi` (3.14159265359f) is π rounded to the nearest Float,
    /// bits 0x40490FDB; Swift's `Float.pi` is rounded down (0x40490FDA), one unit lower. Every
    /// engine rule that Box2D writes with `b2_pi` uses this one.
    static let b2Pi: Float = 3.14159265359

    static let linearSlop: Float = 0.005               // 0.5 pt
    static let polygonRadius: Float = 2 * linearSlop   // the 1 pt skin of polygons and edges
    static let angularSlop: Float = 2 / 180 * b2Pi
    static let maxLinearCorrection: Float = 0.2        // 20 pt
    static let maxAngularCorrection: Float = 8 / 180 * b2Pi
    static let baumgarte: Float = 0.2
    static let toiBaumgarte: Float = 0.75
    static let velocityThreshold: Float = 1            // 1 m/s = 100 pt/s: slower impacts do not bounce
    static let maxTranslation: Float = 2               // 200 pt per sub-step
    static let maxRotation: Float = 0.5 * b2Pi
    static let timeToSleep: Float = 0.5
    static let linearSleepTolerance: Float = 0.01      // 1 pt/s
    static let angularSleepTolerance: Float = 2 / 180 * b2Pi
    static let maxSubSteps = 8                         // time-of-impact events per contact per step
    static let toiPositionIterations = 20
    static let aabbMargin: Float = 0.1                 // Box2D's fat-AABB extension, 10 pt
    static let maxPolygonVertices = 16
}

/// The fixed-step rule every engine follows: a tick adds its length to an accumulator, and the
/// world takes one sub-step of `EngineSettings.subStep` for every whole sub-step the accumulator
/// holds (so n ticks of 1/60 s run 2n − 1 sub-steps of Float(1/120) s).
enum SubStepClock {
    @inline(__always)
    static func advance(by length: Double, accumulator: inout Double, step: () -> Void) {
        accumulator += length
        let h = Double(EngineSettings.subStep)
        while accumulator >= h {
            step()
            accumulator -= h
        }
    }
}
