// What a compiled plan says of an item's mass, for metrics that weigh motion (a written metric's
// kinetic energy): read off the body the engine makes, so it is the engine's own figure.

extension WorldPlan {
    /// Item `item`'s mass (kg) and rotational inertia about its centre of mass (kg·m²) as its body
    /// gets them (density, shape, rotation allowed); zero for an item without a body or an
    /// anchored one.
    public func massAndInertia(ofItem item: Int) -> (mass: Double, inertia: Double) {
        guard item < bodyOfItem.count, let b = bodyOfItem[item], let material = bodies[b].material, !material.isStatic else {
            return (0, 0)
        }
        var body = bodies[b].makeBody()
        material.apply(to: &body)
        return (Double(body.mass), Double(body.inertia))
    }
}
