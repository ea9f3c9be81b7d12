// Store and stage: the fields of every lane (PhysicsWorld.applyFields over lanes). Kinds, region
// structure and members are the batch's structure; every number is per lane. The stage runs
// before the velocity integration of each sub-step, eight lanes at a time through the same
// kernels (`fieldForce`, `fieldRegionContains`), noise, turbulence and custom fields lane by lane
// through the same scalar functions; it adds the fields' forces to the force columns for that
// integration only, and puts the columns back after it.

final class LaneFields {
    /// One field of every lane.
    struct Field {
        let kind: FieldKind
        let region: FieldRegion
        /// Body rows it acts on (moving bodies only: a static item feels nothing).
        let bodies: [Int]
        /// Per lane: a custom field's closure (each world may bring its own).
        let evaluators: [FieldEvaluator?]
        // Per lane.
        let strength: UnsafeMutablePointer<Float>, falloff: UnsafeMutablePointer<Float>, minimumRadius: UnsafeMutablePointer<Float>
        let positionX: UnsafeMutablePointer<Float>, positionY: UnsafeMutablePointer<Float>
        let directionX: UnsafeMutablePointer<Float>, directionY: UnsafeMutablePointer<Float>
        let smoothness: UnsafeMutablePointer<Float>, animationSpeed: UnsafeMutablePointer<Float>
        let firstWidth: UnsafeMutablePointer<Float>, firstHeight: UnsafeMutablePointer<Float>
        let secondWidth: UnsafeMutablePointer<Float>, secondHeight: UnsafeMutablePointer<Float>
        /// Per (member, lane): index = member × lanes + lane.
        let charge: UnsafeMutablePointer<Float>, mass: UnsafeMutablePointer<Float>
    }

    private let columns: Columns
    let fields: [Field]
    /// Body rows some field acts on, and their forces saved while the fields' are added.
    let bodies: [Int]
    let savedFx: UnsafeMutablePointer<Float>, savedFy: UnsafeMutablePointer<Float>

    /// The fields of `worlds` (one per lane); throws when they differ in structure.
    init(worlds: [PhysicsWorld], isStatic: [Bool]) throws {
        let lanes = worlds.count, first = worlds[0].fields
        let columns = Columns()
        self.columns = columns
        for (k, w) in worlds.enumerated() {
            guard w.fields.count == first.count, zip(w.fields, first).allSatisfy({ $0.sharesStructure(with: $1) }) else {
                throw BatchStructureError(world: k, reason: "different fields (kinds, regions or items)")
            }
        }
        var fields: [Field] = []
        for (f, shared) in first.enumerated() {
            func column(_ value: (WorldField) -> Float) -> UnsafeMutablePointer<Float> {
                let c = columns.make(lanes, Float(0))
                for lane in 0..<lanes { c[lane] = value(worlds[lane].fields[f]) }
                return c
            }
            let members = Self.members(of: shared, isStatic: isStatic)
            let charge = columns.make(members.count * lanes, Float(0)), mass = columns.make(members.count * lanes, Float(0))
            for (m, member) in members.enumerated() {
                for lane in 0..<lanes {
                    charge[m * lanes + lane] = worlds[lane].fields[f].charges[member]
                    mass[m * lanes + lane] = worlds[lane].bodies[shared.bodies[member]].mass
                }
            }
            fields.append(Field(kind: shared.kind, region: shared.region, bodies: members.map { shared.bodies[$0] },
                                evaluators: worlds.map { $0.fields[f].evaluator },
                                strength: column(\.parameters.strength), falloff: column(\.parameters.falloff),
                                minimumRadius: column(\.parameters.minimumRadius),
                                positionX: column(\.parameters.position.x), positionY: column(\.parameters.position.y),
                                directionX: column(\.parameters.direction.x), directionY: column(\.parameters.direction.y),
                                smoothness: column(\.parameters.smoothness), animationSpeed: column(\.parameters.animationSpeed),
                                firstWidth: column(\.region.first.width), firstHeight: column(\.region.first.height),
                                secondWidth: column(\.region.second.width), secondHeight: column(\.region.second.height),
                                charge: charge, mass: mass))
        }
        self.fields = fields
        bodies = Array(Set(fields.flatMap(\.bodies))).sorted()
        savedFx = columns.make(bodies.count * lanes, Float(0))
        savedFy = columns.make(bodies.count * lanes, Float(0))
        columns.expect(Self.bytes(lanes: lanes, memberCounts: fields.map(\.bodies.count), bodyCount: bodies.count), of: "LaneFields")
    }

    /// Bytes it holds, as its columns report them.
    var byteCount: Int { columns.byteCount }

    /// The members of `field` it acts on (moving bodies only: a static item feels nothing), as
    /// positions in its body list.
    static func members(of field: WorldField, isStatic: [Bool]) -> [Int] {
        field.bodies.indices.filter { !isStatic[field.bodies[$0]] }
    }

    /// The bytes it allocates, as `init` makes them: per field thirteen numbers per lane and
    /// charge and mass per (member, lane); the saved forces per (body some field acts on, lane).
    static func bytes(lanes: Int, memberCounts: [Int], bodyCount: Int) -> Int {
        memberCounts.reduce(0) { $0 + 13 * Columns.bytes(Float.self, lanes) + 2 * Columns.bytes(Float.self, $1 * lanes) }
            + 2 * Columns.bytes(Float.self, bodyCount * lanes)
    }
}

extension LaneWorld {
    /// Adds every field's force to the force columns of the bodies in solved islands (and sets
    /// the velocity of those in velocity fields), saving the forces first: `restoreForces` puts
    /// them back once the velocities are integrated.
    func applyFields() {
        guard !fields.fields.isEmpty else { return }
        for (k, b) in fields.bodies.enumerated() {
            (fields.savedFx + k * lanes).update(from: bodies.fx + b * lanes, count: lanes)
            (fields.savedFy + k * lanes).update(from: bodies.fy + b * lanes, count: lanes)
        }
        let time = Float(stepCount) * h
        for field in fields.fields {
            for (m, b) in field.bodies.enumerated() {
                forEachRunningGroup { group, _ in applyField(field, member: m, body: b, group: group, time: time) }
            }
        }
    }

    /// Puts back the forces `applyFields` added to: forces last the whole tick, fields' one sub-step.
    func restoreForces() {
        guard !fields.fields.isEmpty else { return }
        for (k, b) in fields.bodies.enumerated() {
            (bodies.fx + b * lanes).update(from: fields.savedFx + k * lanes, count: lanes)
            (bodies.fy + b * lanes).update(from: fields.savedFy + k * lanes, count: lanes)
        }
    }

    /// One field on one body, lanes `group ..< group + 8`: `WorldField.effect`, in lanes.
    private func applyField(_ field: LaneFields.Field, member m: Int, body b: Int, group: Int, time: Float) {
        let i = b * lanes + group, j = m * lanes + group
        let solved = loadMask(details.inIsland, i)
        guard anyLane(solved) else { return }
        let s = V(repeating: EngineSettings.pointsPerMetre)
        let dx = loadLanes(bodies.cx, i) - loadLanes(field.positionX, group)
        let dy = loadLanes(bodies.cy, i) - loadLanes(field.positionY, group)
        let inside = fieldRegionContains(field.region, firstWidth: loadLanes(field.firstWidth, group),
                                         firstHeight: loadLanes(field.firstHeight, group),
                                         secondWidth: loadLanes(field.secondWidth, group),
                                         secondHeight: loadLanes(field.secondHeight, group), x: dx * s, y: dy * s)
        let acts = solved .& inside
        guard anyLane(acts) else { return }
        let vx = loadLanes(bodies.vx, i), vy = loadLanes(bodies.vy, i)
        var fx = V(repeating: 0), fy = V(repeating: 0)
        switch field.kind {
        case .velocity:
            storeLanes(vx.blended(with: loadLanes(field.directionX, group), where: acts), bodies.vx, i)
            storeLanes(vy.blended(with: loadLanes(field.directionY, group), where: acts), bodies.vy, i)
            return
        case .noise, .turbulence, .custom:
            for k in 0..<Self.width where acts[k] {
                let lane = group + k
                let f = field.kind == .custom
                    ? field.evaluators[lane]!.force(dx: dx[k], dy: dy[k], vx: vx[k], vy: vy[k], mass: field.mass[j + k],
                                             charge: field.charge[j + k], h: h)
                    : noiseFieldForce(field.kind, dx: dx[k], dy: dy[k], vx: vx[k], vy: vy[k], mass: field.mass[j + k],
                                      strength: field.strength[lane], falloff: field.falloff[lane],
                                      minimumRadius: field.minimumRadius[lane], smoothness: field.smoothness[lane],
                                      animationSpeed: field.animationSpeed[lane], time: time)
                fx[k] = f.x; fy[k] = f.y
            }
        default:
            (fx, fy) = fieldForce(field.kind, dx: dx, dy: dy, vx: vx, vy: vy, mass: loadLanes(field.mass, j),
                                  charge: loadLanes(field.charge, j), strength: loadLanes(field.strength, group),
                                  falloff: loadLanes(field.falloff, group), minimumRadius: loadLanes(field.minimumRadius, group),
                                  directionX: loadLanes(field.directionX, group), directionY: loadLanes(field.directionY, group))
        }
        let oldX = loadLanes(bodies.fx, i), oldY = loadLanes(bodies.fy, i)
        storeLanes(oldX.blended(with: oldX + fx, where: acts), bodies.fx, i)
        storeLanes(oldY.blended(with: oldY + fy, where: acts), bodies.fy, i)
    }
}
