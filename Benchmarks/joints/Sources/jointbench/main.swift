// Jointed worlds on the batched engine, for callgrind (docs/batched-engine.md, "Joints"): N worlds ×
// 300 ticks of a post with a chain of three pinned arms (limits, friction), a rope and a snapped card.
import WorldSweep

let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1])! : 256
func item(_ x: Double, _ y: Double, _ w: Double, _ h: Double, angle: Double = 0) -> PlanInput.Item {
    PlanInput.Item(center: Point(x, y), size: Size(width: w, height: h), angle: angle, boundsType: .rectangle, path: [])
}
var plans: [WorldPlan] = []
for k in 0..<count {
    let f = Double(k) / Double(count)
    let items = [item(100, 100, 20, 20), item(140, 100, 60, 10), item(200, 100, 60, 10), item(260, 100, 60, 10),
                 item(300, 200, 30, 30), item(100, 400, 60, 60, angle: 0.5 + f)]
    var anchored = DynamicItemBehavior.Settings(); anchored.anchored = true
    var free = DynamicItemBehavior.Settings(); free.resistance = 0; free.angularResistance = 0
    func pin(_ a: Int, _ b: Int, _ x: Double, range: FloatRange, friction: Double) -> PlanInput.Behavior {
        PlanInput.Attachment(kind: .pin, items: [a, b], offsets: [.zero, .zero], anchor: Point(x, 100), length: 0,
                             range: range, frictionTorque: friction)
    }
    let behaviors: [PlanInput.Behavior] = [
        PlanInput.ItemProperties(items: [0, 1, 2, 3, 4, 5], settings: free, velocities: []),
        PlanInput.ItemProperties(items: [0], settings: anchored, velocities: []),
        PlanInput.Gravity(items: [1, 2, 3, 4]),
        pin(0, 1, 110, range: .infinite, friction: 0.01 * f),
        pin(1, 2, 170, range: FloatRange(minimum: -0.5 - f, maximum: 0.5), friction: 0),
        pin(2, 3, 230, range: FloatRange(minimum: -0.3, maximum: 0.8 * f), friction: 0.002),
        PlanInput.Attachment(kind: .limit, items: [3, 4], offsets: [.zero, .zero], anchor: .zero, length: 80 + 20 * f),
        PlanInput.Snap(item: 5, point: Point(160, 300), damping: 0.1 + 0.8 * f),
    ]
    plans.append(WorldPlan(compiling: PlanInput(referenceBounds: Size(width: 320, height: 568), items: items,
                                                behaviors: behaviors, gravity: Vector(dx: 0, dy: 1))))
}
let batch = try PlanBatch(plans)
for _ in 0..<300 { batch.tick() }
var checksum = 0.0
for k in 0..<count { for b in 0..<plans[k].bodyCount where b < 6 { checksum += batch.itemState(k, body: b).center.x } }
print("worlds \(count), checksum \(checksum)")
