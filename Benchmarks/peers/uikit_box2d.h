// What every Box2D 2.4.1 peer shares: UIKit's units and stepping (docs/semantics.md) and its
// reference-bounds edges, so the peers build the same world WorldSweep builds, written once.
#pragma once
#include <box2d/box2d.h>

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

}  // namespace uikit
