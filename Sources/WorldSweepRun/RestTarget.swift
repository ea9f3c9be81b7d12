// Where a spring-like behavior brings an item to rest, as plain values (points, lengths, item
// indices), so the spring metrics (SpringTracks) read any trajectory: a live animator's, a plan
// batch's, or one written by hand in a test.

import Foundation
import WorldSweep
import WorldSweepScene

/// The rest an item is pulled towards, and how far from it a state is.
public enum RestTarget: Sendable, Hashable {
    /// A snap: the item's centre at `point`.
    case point(Point)
    /// A spring: the distance between the item's attachment point (its centre plus `offset` in its
    /// own rotating frame) and `anchor` equals `length`.
    case distance(anchor: RestAnchor, offset: Offset, length: Double)
    /// A pendulum (a pin, or a rigid rod, on a fixed point, under gravity): the centre hangs
    /// straight below `pivot`, along `down` (the gravity's direction). How far it is from rest is
    /// the arc to the lowest point: the centre's distance from the pivot times its angle from `down`.
    case swing(pivot: Point, down: Vector)

    /// Whether `target` reads the other item's state (the item–item spring).
    public var otherItem: Int? {
        if case .distance(.item(let other, _), _, _) = self { return other }
        return nil
    }

    /// How far the item is from rest, signed, in points, given its state and (item–item) the other
    /// item's: for a point, the distance along `axis` (the side it first left to: positive) and
    /// the whole distance; for a spring, length now − rest length (stretched positive); for a
    /// swing, the signed arc. `away` is the unsigned distance from rest that settling tests.
    public func displacement(_ s: ItemState, other: ItemState?, axis: Vector?) -> (signed: Double, away: Double) {
        switch self {
        case .point(let p):
            let dx = s.center.x - p.x, dy = s.center.y - p.y
            let away = (dx * dx + dy * dy).squareRoot()
            guard let axis else { return (away, away) }
            return (dx * axis.dx + dy * axis.dy, away)
        case .distance(let anchor, let offset, let length):
            let a = Self.attachmentPoint(s, offset)
            let b: Point
            switch anchor {
            case .point(let p): b = p
            case .item(_, let otherOffset):
                guard let other else { return (0, 0) }
                b = Self.attachmentPoint(other, otherOffset)
            }
            let dx = a.x - b.x, dy = a.y - b.y
            let e = (dx * dx + dy * dy).squareRoot() - length
            return (e, abs(e))
        case .swing(let pivot, let down):
            let rx = s.center.x - pivot.x, ry = s.center.y - pivot.y
            let r = (rx * rx + ry * ry).squareRoot()
            // The angle from `down` to the centre's direction (clockwise positive, y down).
            let angle = atan2(down.dx * ry - down.dy * rx, down.dx * rx + down.dy * ry)
            let arc = r * angle
            return (arc, abs(arc))
        }
    }

    /// An item's centre plus `offset` turned by its angle (clockwise positive with y down, as
    /// the engine turns a body's local points).
    static func attachmentPoint(_ s: ItemState, _ offset: Offset) -> Point {
        guard offset != .zero else { return s.center }
        let c = cos(s.angle), n = sin(s.angle)
        return Point(x: s.center.x + c * offset.horizontal - n * offset.vertical,
                     y: s.center.y + n * offset.horizontal + c * offset.vertical)
    }
}

extension RestTarget {
    /// Per item of the file, its rest target (nil: none), from the first behavior in file order
    /// that gives it one. Read from the file alone, so both engines' recorders agree:
    /// - a snap: its point;
    /// - a spring (a distance attachment with a frequency) on an anchor: its length from the
    ///   anchor, plus its static sag (`staticSag`) where the item falls; between two items: the
    ///   length between their attachment points, for each (plus the sag where one is anchored and
    ///   the other falls). Continuous pushes and fields are not counted: a spring under them is
    ///   measured from its gravity-only rest;
    /// - a rigid rod (a distance attachment without one) on an anchor, or a pin to an anchored
    ///   item, under gravity: the swing to the lowest point straight below the pivot.
    /// Other attachments (sliding, fixed, limit, rods between free items) have no one rest.
    public static func targets(of scene: SceneFile) -> [RestTarget?] {
        var targets = [RestTarget?](repeating: nil, count: scene.items.count)
        // Every world of every sweep asks (both recorders): most have no spring at all.
        let springy = scene.behaviors.contains { spec in
            switch spec.kind {
            case .attachment, .snap: true
            default: false
            }
        }
        guard springy else { return targets }
        let index = Dictionary(uniqueKeysWithValues: scene.items.enumerated().map { ($1.name, $0) })
        var underGravity = Set<String>(), anchored = Set<String>(), resistance: [String: Double] = [:]
        for spec in scene.behaviors {
            switch spec.kind {
            case .gravity: underGravity.formUnion(spec.items)
            case .item(let p):
                // The last item behavior to say wins, as the engine applies them.
                if let r = p.resistance { for name in spec.items { resistance[name] = r } }
                guard let flag = p.anchored else { continue }
                for name in spec.items { if flag { anchored.insert(name) } else { anchored.remove(name) } }
            default: continue
            }
        }
        // The world's gravity (the last gravity behavior's), as a direction.
        let down: Vector? = underGravity.isEmpty ? nil : scene.planInput().gravity.flatMap { g in
            g.dx == 0 && g.dy == 0 ? nil : g
        }
        // How far a spring of `frequency` holding `item` (free, under gravity) stretches past its
        // length at rest: the sag (docs/data.md; 0 where the item does not fall).
        func sag(of item: String, frequency: Double) -> Double {
            guard let down, underGravity.contains(item), !anchored.contains(item) else { return 0 }
            let g = Double(EngineSettings.gravityPerUnit) * (down.dx * down.dx + down.dy * down.dy).squareRoot()
            return Self.staticSag(acceleration: g, frequency: frequency,
                                  resistance: resistance[item] ?? DynamicItemBehavior.Defaults.resistance)
        }
        func give(_ name: String, _ target: RestTarget) {
            if let i = index[name], targets[i] == nil { targets[i] = target }
        }
        for spec in scene.behaviors {
            switch spec.kind {
            case .snap(let snap):
                give(spec.items[0], .point(snap.point))
            case .attachment(let a):
                let spring = (a.frequency ?? 0) > 0
                let length = a.length ?? scene.measuredLength(of: spec)
                switch (a.kind, spec.items.count) {
                case (.distance, 1):
                    let item = spec.items[0], anchor = a.anchor!
                    if spring {
                        give(item, .distance(anchor: .point(anchor), offset: a.offset(of: item),
                                             length: length + sag(of: item, frequency: a.frequency!)))
                    } else if let down, underGravity.contains(item), !anchored.contains(item) {
                        give(item, .swing(pivot: anchor, down: down))
                    }
                case (.distance, 2) where spring:
                    // Hung from an anchored item, a falling item sags as from an anchor point (the
                    // effective mass is its own); two free items fall together and do not.
                    let free = spec.items.filter { !anchored.contains($0) }
                    let stretch = free.count == 1 ? sag(of: free[0], frequency: a.frequency!) : 0
                    for (me, other) in [(spec.items[0], spec.items[1]), (spec.items[1], spec.items[0])] {
                        give(me, .distance(anchor: .item(index[other]!, offset: a.offset(of: other)), offset: a.offset(of: me),
                                           length: length + stretch))
                    }
                case (.pin, 2):
                    let free = spec.items.filter { !anchored.contains($0) }
                    if free.count == 1, let down, underGravity.contains(free[0]) { give(free[0], .swing(pivot: a.anchor!, down: down)) }
                default:
                    continue
                }
            default:
                continue
            }
        }
        return targets
    }
}

extension RestTarget {
    /// How far past its length a spring (distance attachment of `frequency` Hz) stands still
    /// holding an item under a constant acceleration `acceleration` (m/s², along the spring at
    /// rest), in points. Box2D 2.3's soft distance joint at a standstill: each sub-step h the item
    /// gains v = h·a/(1 + h·c) (gravity, then the resistance c's damping); the warm-started impulse
    /// P must cancel it (P = −m·h·a/(1 + h·c)) and leave the solver nothing to do,
    /// bias + γ·P = 0 with bias = C·h·k·γ, so C = m·a/(k(1 + h·c)). With k = m·ω² (m the joint's
    /// effective mass, the item's own: at rest the spring's line passes through its centre) the
    /// mass and γ (the damping ratio) drop out: C = a/(ω²(1 + h·c)), the continuous m·g/k less
    /// the resistance's share of a sub-step.
    public static func staticSag(acceleration: Double, frequency: Double, resistance: Double) -> Double {
        let omega = 2 * Double.pi * frequency, h = Double(EngineSettings.subStep)
        return acceleration / (omega * omega * (1 + h * resistance)) * Double(EngineSettings.pointsPerMetre)
    }
}

/// What a spring's far end is fixed to.
public enum RestAnchor: Sendable, Hashable {
    /// A point of the reference view.
    case point(Point)
    /// Another item (its index in the file), at `offset` from its centre in its own frame.
    case item(Int, offset: Offset)
}

