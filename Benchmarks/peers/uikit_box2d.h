// What every Box2D 2.4.1 peer shares: UIKit's units and stepping (docs/semantics.md), its boxes
// and reference-bounds edges, the tick loop, and the grid of boxes that the box pile and the box
// curve drop, so the peers build the same worlds WorldSweep builds, written once.
#pragma once
#include <box2d/box2d.h>

#include <cstdio>
#include <vector>

namespace uikit {

constexpr float kPointsPerMetre = 100.0f;
constexpr int kTicks = 300;
constexpr double kTick = 1.0 / 60.0;
// Sub-steps of float(1/120) s fed by an accumulator of 1/60 s ticks: 2n - 1 sub-steps for n ticks.
const float kSubStep = float(1.0 / 120.0);

inline b2Vec2 metres(double x, double y) { return b2Vec2(float(x) / kPointsPerMetre, float(y) / kPointsPerMetre); }

/// One side of the reference bounds: a two-sided edge on its own static body, friction and
/// restitution 0.2 (UIKit's boundaries, which no API sets).
inline void addEdge(b2World& world, double x1, double y1, double x2, double y2) {
    b2BodyDef def;   // static
    b2Body* body = world.CreateBody(&def);
    b2EdgeShape edge;
    edge.SetTwoSided(metres(x1, y1), metres(x2, y2));
    b2FixtureDef fixture;
    fixture.shape = &edge;
    fixture.friction = 0.2f;
    fixture.restitution = 0.2f;
    body->CreateFixture(&fixture);
}

/// The reference bounds of a `width` x `height` pt world: four edges 1 pt outside it.
inline void addBounds(b2World& world, double width, double height) {
    addEdge(world, -1, -1, width + 1, -1);
    addEdge(world, width + 1, -1, width + 1, height + 1);
    addEdge(world, width + 1, height + 1, -1, height + 1);
    addEdge(world, -1, height + 1, -1, -1);
}

/// A dynamic item: a square of `side` pt centred at (x, y) pt, friction 0.2, damping 0.1
/// (Box2D 2.4 damps by 1 / (1 + h c), as UIKit does).
inline b2Body* addBox(b2World& world, double x, double y, double side, float density, float restitution,
                      bool bullet = false) {
    b2BodyDef def;
    def.type = b2_dynamicBody;
    def.position = metres(x, y);
    def.linearDamping = 0.1f;
    def.angularDamping = 0.1f;
    def.bullet = bullet;
    b2Body* body = world.CreateBody(&def);
    b2PolygonShape box;
    float half = float(side) / kPointsPerMetre / 2;
    box.SetAsBox(half, half);
    b2FixtureDef fixture;
    fixture.shape = &box;
    fixture.density = density;
    fixture.friction = 0.2f;
    fixture.restitution = restitution;
    body->CreateFixture(&fixture);
    return body;
}

/// Up to 300 ticks as the animator runs them: `beforeTick()`, then the tick's sub-steps of
/// float(1/120) s through the accumulator (8 velocity, 3 position iterations), then
/// `afterTick()`, which says whether to stop (every item asleep: the animator pauses). Returns
/// the ticks run.
template <class BeforeTick, class AfterTick>
int runTicks(b2World& world, BeforeTick beforeTick, AfterTick afterTick) {
    double accumulator = 0;
    int tick = 0;
    while (tick < kTicks) {
        beforeTick();
        accumulator += kTick;
        while (accumulator >= double(kSubStep)) {
            world.Step(kSubStep, 8, 3);
            accumulator -= double(kSubStep);
        }
        ++tick;
        if (afterTick()) break;
    }
    return tick;
}

/// Whether every one of `bodies` sleeps.
inline bool allAsleep(const std::vector<b2Body*>& bodies) {
    for (b2Body* b : bodies) if (b->IsAwake()) return false;
    return true;
}

/// The box grid of the pile and the curve: `count` boxes of 10 x 10 pt, density 1,
/// restitution 0.5 (the scenes' item behavior), 100 a row on a 20 pt grid whose first row is
/// at y = `top` pt, from x = 60 pt, in 2 100 x 2 100 pt reference bounds; run until every box
/// sleeps or 300 ticks. Adds the ticks run to `ticksRun` and returns a checksum of where the
/// boxes ended, so no work can be left out; with `print`, every box's final centre (points)
/// and angle.
inline double runBoxGrid(int count, double top, bool bullets, bool print, long& ticksRun) {
    const double bounds = 2100;
    b2World world(b2Vec2(0, 10));
    std::vector<b2Body*> boxes;
    for (int i = 0; i < count; ++i) {
        boxes.push_back(addBox(world, 60 + 20 * (i % 100), top + 20 * (i / 100), 10, 1.0f, 0.5f, bullets));
    }
    addBounds(world, bounds, bounds);
    ticksRun += runTicks(world, [] {}, [&] { return allAsleep(boxes); });
    double sum = 0;
    if (print) std::printf("item,x,y,angle\n");
    for (int i = 0; i < count; ++i) {
        b2Vec2 c = boxes[i]->GetPosition();
        sum += c.x + c.y;
        if (print) std::printf("b%d,%.9g,%.9g,%.9g\n", i, c.x * kPointsPerMetre, c.y * kPointsPerMetre, boxes[i]->GetAngle());
    }
    return sum;
}

}  // namespace uikit
