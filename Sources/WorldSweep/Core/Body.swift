// A rigid body: one shape, its mass from density, and its motion state. Static bodies (boundaries
// and anchored items) have zero inverse mass and never move.

struct Body: Sendable {
    var alive = true
    var isStatic: Bool
    var shape: Shape
    var density: Float = 1
    /// A body without a material (a boundary) keeps the boundaries' values.
    var friction = Float(EngineSettings.boundaryFriction)
    var restitution = Float(EngineSettings.boundaryElasticity)
    var linearDamping: Float = 0.1
    var angularDamping: Float = 0.1
    var gravityScale: Float = 0
    var fixedRotation = false
    /// Uses time of impact against static bodies (items that gravity or push act on).
    var usesTOI = false

    var mass: Float = 0, invMass: Float = 0
    var inertia: Float = 0, invI: Float = 0
    var sweep: Sweep
    var xf: Transform
    var v = Vec2.zero
    var w: Float = 0
    var force = Vec2.zero
    var torque: Float = 0
    var awake = true
    var sleepTime: Float = 0
    var islandFlag = false

    init(shape: Shape, position: Vec2, angle: Float, isStatic: Bool) {
        self.shape = shape
        self.isStatic = isStatic
        xf = Transform(p: position, q: Rot(angle))
        sweep = Sweep(localCenter: .zero, c0: position, c: position, a0: angle, a: angle, alpha0: 0)
        resetMassData()
    }

    var isDynamic: Bool { !isStatic }
    /// Awake and dynamic: a pair's contact is updated, and may be swept, only if one of its bodies is.
    var isActive: Bool { awake && isDynamic }

    /// Recomputes mass, centre of mass and inertia from the shape and density, keeping the
    /// velocity of the new centre of mass consistent.
    mutating func resetMassData() {
        mass = 0; invMass = 0; inertia = 0; invI = 0
        if isStatic {
            sweep.localCenter = .zero
            sweep.c0 = xf.p; sweep.c = xf.p
            sweep.a0 = sweep.a
            return
        }
        let md = shape.massData(density: density)
        var localCenter = Vec2.zero
        if md.mass > 0 {
            mass = md.mass
            invMass = 1 / mass
            localCenter = md.center
        } else {
            mass = 1; invMass = 1
        }
        if md.inertia > 0 && !fixedRotation {
            inertia = md.inertia - mass * dot(localCenter, localCenter)
            invI = 1 / inertia
        }
        let oldCenter = sweep.c
        sweep.localCenter = localCenter
        sweep.c = xf.apply(localCenter)
        sweep.c0 = sweep.c
        v += cross(w, sweep.c - oldCenter)
    }

    mutating func synchronizeTransform() {
        xf.q = Rot(sweep.a)
        xf.p = sweep.c - xf.q.apply(sweep.localCenter)
    }

    /// Moves the body back to the time-of-impact point `alpha` of its sweep.
    mutating func advance(to alpha: Float) {
        sweep.advance(to: alpha)
        sweep.c = sweep.c0
        sweep.a = sweep.a0
        synchronizeTransform()
    }

    /// Wakes the body or puts it to sleep, by the rules both engines share (`wakeUp`, `fallAsleep`).
    mutating func setAwake(_ flag: Bool) {
        if flag {
            _ = wakeUp(&awake, sleepTime: &sleepTime)
        } else {
            awake = false
            var vx = v.x, vy = v.y, fx = force.x, fy = force.y
            fallAsleep(true, sleepTime: &sleepTime, vx: &vx, vy: &vy, w: &w, fx: &fx, fy: &fy, torque: &torque)
            v = Vec2(vx, vy); force = Vec2(fx, fy)
        }
    }

    /// A force in newtons at a world point (torque about the centre of mass follows).
    mutating func applyForce(_ f: Vec2, at point: Vec2) {
        guard isDynamic else { return }
        setAwake(true)
        Self.addForce(f, at: point, center: sweep.c, force: &force, torque: &torque)
    }

    /// An impulse in N·s at a world point: Δv = P / m, Δω = r × P / I.
    mutating func applyImpulse(_ p: Vec2, at point: Vec2) {
        guard isDynamic else { return }
        setAwake(true)
        Self.addImpulse(p, at: point, center: sweep.c, invMass: invMass, invI: invI, v: &v, w: &w)
    }

    // The two push rules, written once: the batched engine applies pushes on its lanes with these.
    @inline(__always)
    static func addForce(_ f: Vec2, at point: Vec2, center: Vec2, force: inout Vec2, torque: inout Float) {
        addForce(fx: f.x, fy: f.y, atX: point.x, atY: point.y, centerX: center.x, centerY: center.y,
                 forceX: &force.x, forceY: &force.y, torque: &torque)
    }

    /// The force rule over lanes (Float for one world): force += f; torque += (point − center) × f.
    @inline(__always)
    static func addForce<L: LaneReal>(fx: L, fy: L, atX: L, atY: L, centerX: L, centerY: L,
                                      forceX: inout L, forceY: inout L, torque: inout L) {
        forceX = forceX + fx; forceY = forceY + fy
        torque = torque + ((atX - centerX) * fy - (atY - centerY) * fx)
    }

    @inline(__always)
    static func addImpulse(_ p: Vec2, at point: Vec2, center: Vec2, invMass: Float, invI: Float, v: inout Vec2, w: inout Float) {
        v += invMass * p
        w += invI * cross(point - center, p)
    }
}
