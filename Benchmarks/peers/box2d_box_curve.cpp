// The box curve (Benchmarks/peers/box-curve.sh) in Box2D 2.4.1 -- Debian's libbox2d-dev, the same
// algorithm as the Box2D 2.x fork UIKit ships: W worlds of N boxes each, stepped one world after
// another on one thread, what `worldsweep run` of the curve's scene for that N is set beside.
//
//   box2d_box_curve --boxes N [--worlds W] [--final]
//
// prints one JSON object: {"engine":"box2d-2.4.1","boxes":N,"worlds":W,"worldTicks":T,
// "checksum":C}; with --final, the first world's boxes at the end (points, radians) instead.
//
// The scene as WorldSweep builds it from the curve's file, with UIKit's settings
// (docs/semantics.md): 100 pt per metre, y down (gravity +10 m/s^2 on y), ticks of 1/60 s feeding
// sub-steps of float(1/120) s through an accumulator, 8 velocity and 3 position iterations, 300
// ticks; N boxes of 10 x 10 pt, 100 a row on a 20 pt grid from (60, 60) downwards, density 1,
// friction 0.2, restitution 0.5 (the scene's item behavior), damping 0.1 (Box2D 2.4 damps by
// 1 / (1 + h c) as UIKit does); the reference bounds of 2100 x 2100 pt as four static edges 1 pt
// outside, each its own static body, friction and restitution 0.2. A world stops early when every
// box sleeps (the animator pauses and the runner drops the world).
//
// Continuous collision: Box2D's default, time of impact of dynamic bodies against static bodies
// only (no bullets), which is what UIKit's items do and what WorldSweep runs: the same physics.
#include <box2d/box2d.h>

#include "uikit_box2d.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using uikit::kPointsPerMetre, uikit::kTicks, uikit::kTick, uikit::kSubStep, uikit::metres, uikit::addEdge;
constexpr double kBounds = 2100;

b2Body* addBox(b2World& world, double x, double y) {
    b2BodyDef def;
    def.type = b2_dynamicBody;
    def.position = metres(x, y);
    def.linearDamping = 0.1f;
    def.angularDamping = 0.1f;
    b2Body* body = world.CreateBody(&def);
    b2PolygonShape box;
    float half = 10.0f / kPointsPerMetre / 2;
    box.SetAsBox(half, half);
    b2FixtureDef fixture;
    fixture.shape = &box;
    fixture.density = 1.0f;
    fixture.friction = 0.2f;
    fixture.restitution = 0.5f;
    body->CreateFixture(&fixture);
    return body;
}

/// Runs one world for 300 ticks (fewer once every box sleeps); adds the ticks it ran to
/// `worldTicks` and returns a checksum of where the boxes ended, so no work can be left out.
double runWorld(int count, double top, bool print, long& worldTicks) {
    b2World world(b2Vec2(0, 10));
    std::vector<b2Body*> boxes;
    for (int i = 0; i < count; ++i) boxes.push_back(addBox(world, 60 + 20 * (i % 100), top + 20 * (i / 100)));
    addEdge(world, -1, -1, kBounds + 1, -1);
    addEdge(world, kBounds + 1, -1, kBounds + 1, kBounds + 1);
    addEdge(world, kBounds + 1, kBounds + 1, -1, kBounds + 1);
    addEdge(world, -1, kBounds + 1, -1, -1);
    double accumulator = 0;
    for (int tick = 0; tick < kTicks; ++tick) {
        accumulator += kTick;
        while (accumulator >= double(kSubStep)) {
            world.Step(kSubStep, 8, 3);
            accumulator -= double(kSubStep);
        }
        ++worldTicks;
        bool anyAwake = false;
        for (b2Body* b : boxes) anyAwake = anyAwake || b->IsAwake();
        if (!anyAwake) break;
    }
    double sum = 0;
    if (print) std::printf("item,x,y,angle\n");
    for (int i = 0; i < count; ++i) {
        b2Vec2 c = boxes[i]->GetPosition();
        sum += c.x + c.y;
        if (print) std::printf("b%d,%.9g,%.9g,%.9g\n", i, c.x * kPointsPerMetre, c.y * kPointsPerMetre, boxes[i]->GetAngle());
    }
    return sum;
}

}  // namespace

int main(int argc, char** argv) {
    int count = 0, worlds = 1, top = 60;
    bool finalState = false;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--final") { finalState = true; continue; }
        int* target = a == "--boxes" ? &count : a == "--worlds" ? &worlds : a == "--top" ? &top : nullptr;
        if (!target || i + 1 >= argc || (*target = std::atoi(argv[++i])) < 1) count = 0, i = argc;
    }
    if (count < 1 || count > 10000) {
        std::fprintf(stderr, "usage: box2d_box_curve --boxes N [--worlds W] [--final]\n");
        return 2;
    }
    long worldTicks = 0;
    if (finalState) { runWorld(count, top, true, worldTicks); return 0; }
    double checksum = 0;
    for (int w = 0; w < worlds; ++w) checksum += runWorld(count, top, false, worldTicks);
    std::printf("{\"engine\":\"box2d-2.4.1\",\"boxes\":%d,\"worlds\":%d,\"worldTicks\":%ld,\"checksum\":%.6f}\n",
                count, worlds, worldTicks, checksum);
    return 0;
}
