import Foundation
import Testing
@testable import WorldSweep

/// Attachments and snap against numbers derived by hand: a rod pendulum's period, a spring's
/// frequency and damping ratio, the snap's restoring, limits, the collide-connected rule.
@Suite struct JointTests {
    /// An animator with one undamped item of `size` at `center`, plus `behaviors`.
    func world(_ center: Point, size: Double = 20, angle: Double = 0, gravity: Bool,
               _ behaviors: (View) -> [DynamicBehavior]) -> (View, DynamicAnimator) {
        let view = View(name: "bob", center: center, size: Size(width: size, height: size), angle: angle)
        let animator = DynamicAnimator(referenceBounds: Size(width: 2000, height: 2000))
        if gravity { animator.addBehavior(GravityBehavior(items: [view])) }
        animator.addBehavior(undampedItemBehavior([view]))
        for b in behaviors(view) { animator.addBehavior(b) }
        return (view, animator)
    }

    /// Times (s) at which `x` crosses zero going up, by linear interpolation between ticks; the
    /// state after tick n is at (2n − 1)·h.
    func upwardCrossings(_ x: [Double]) -> [Double] {
        var times: [Double] = []
        for n in 1..<x.count where x[n - 1] < 0 && x[n] >= 0 {
            let t0 = Double(subSteps(afterTicks: n)) * h, t1 = Double(subSteps(afterTicks: n + 1)) * h
            times.append(t0 + (t1 - t0) * (-x[n - 1]) / (x[n] - x[n - 1]))
        }
        return times
    }

    @Test func rigidRodPendulumHasTheSmallAnglePeriod() {
        // L = 200 pt = 2 m, g = 1000 pt/s² = 10 m/s²: T = 2π√(L/g) = 2π√0.2 = 2.8099 s. Started
        // 0.05 rad out (the amplitude's correction, 1 + θ²/16, is 1.0002).
        let anchor = Point(1000, 500), length = 200.0, theta = 0.05
        let (bob, animator) = world(Point(anchor.x + length * sin(theta), anchor.y + length * cos(theta)), gravity: true) {
            [AttachmentBehavior(item: $0, attachedToAnchor: anchor)]
        }
        var x: [Double] = []
        run(animator, ticks: 60 * 12) { _ in x.append(bob.center.x - anchor.x) }
        let crossings = upwardCrossings(x)
        #expect(crossings.count >= 3)
        let period = (crossings.last! - crossings.first!) / Double(crossings.count - 1)
        let expected = 2 * Double.pi * (2.0 / 10.0).squareRoot()
        #expect(abs(period - expected) / expected < 0.01, "period \(period) s, expected \(expected) s")
        // The rod holds its length.
        let r = hypot(bob.center.x - anchor.x, bob.center.y - anchor.y)
        #expect(abs(r - length) < 0.5, "length \(r)")
    }
}
