// Benchmarks/box-pile-1000.yaml in Box2D 2.4.1 -- Debian's libbox2d-dev, the same algorithm as the
// Box2D 2.x fork UIKit ships -- one big world: what `worldsweep run` of that scene is set beside.
//
//   box2d_box_pile [--boxes N] [--runs R] [--bullets]
//   box2d_box_pile --final         # every box's final centre (points) and angle, for a look
//                                  # beside `worldsweep trace Benchmarks/box-pile-1000.yaml`
//
// prints one JSON object per line: {"engine":"box2d-2.4.1","boxes":N,"bullets":B,"runs":R,
// "seconds":median,...}.
//
// The scene as WorldSweep builds it, with UIKit's settings (docs/semantics.md):
// 100 pt per metre, y down (gravity +10 m/s^2 on y), ticks of 1/60 s feeding sub-steps of
// float(1/120) s through an accumulator (2n - 1 sub-steps for n ticks), 8 velocity and 3 position
// iterations, 300 ticks; N boxes of 10 x 10 pt, 100 a row on a 20 pt grid from (60, 1900), density
// 1, friction 0.2, restitution 0.5 (the scene's item behavior), damping 0.1 (Box2D 2.4 damps by
// 1 / (1 + h c) as UIKit does); the reference bounds of 2100 x 2100 pt as four static edges 1 pt
// outside, each its own static body, friction and restitution 0.2. The run stops early when every
// box sleeps (the animator pauses).
//
// Continuous collision: UIKit's items that gravity acts on use time of impact against static
// bodies only, which is Box2D's default for dynamic bodies (not bullets) -- the same work
// WorldSweep does. `--bullets` marks every box a bullet, so Box2D also runs time of impact between
// boxes (issue 29's first measurement did): more work than the semantics ask, shown for reference.
#include <box2d/box2d.h>

#include "uikit_box2d.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using uikit::kPointsPerMetre, uikit::kTicks, uikit::kTick, uikit::kSubStep, uikit::metres, uikit::addEdge;
constexpr double kBounds = 2100;

b2Body* addBox(b2World& world, double x, double y, bool bullet) {
    b2BodyDef def;
    def.type = b2_dynamicBody;
    def.position = metres(x, y);
    def.linearDamping = 0.1f;
    def.angularDamping = 0.1f;
    def.bullet = bullet;
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

/// Runs the pile for 300 ticks (fewer once every box sleeps); returns a checksum of where the
/// boxes ended so the work cannot be optimised away; with `print`, every box's final state.
double runPile(int count, bool bullets, bool print, int& ticksRun) {
    b2World world(b2Vec2(0, 10));
    std::vector<b2Body*> boxes;
    for (int i = 0; i < count; ++i) boxes.push_back(addBox(world, 60 + 20 * (i % 100), 1900 + 20 * (i / 100), bullets));
    addEdge(world, -1, -1, kBounds + 1, -1);
    addEdge(world, kBounds + 1, -1, kBounds + 1, kBounds + 1);
    addEdge(world, kBounds + 1, kBounds + 1, -1, kBounds + 1);
    addEdge(world, -1, kBounds + 1, -1, -1);
    double accumulator = 0;
    ticksRun = 0;
    for (int tick = 0; tick < kTicks; ++tick) {
        accumulator += kTick;
        while (accumulator >= double(kSubStep)) {
            world.Step(kSubStep, 8, 3);
            accumulator -= double(kSubStep);
        }
        ++ticksRun;
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
    int count = 1000, runs = 3;
    bool bullets = false, finalState = false;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--bullets") { bullets = true; continue; }
        if (a == "--final") { finalState = true; continue; }
        int* target = a == "--boxes" ? &count : a == "--runs" ? &runs : nullptr;
        if (!target || i + 1 >= argc || (*target = std::atoi(argv[++i])) < 1) {
            std::fprintf(stderr, "usage: box2d_box_pile [--boxes N] [--runs R] [--bullets] [--final]\n");
            return 2;
        }
    }
    int ticksRun = 0;
    if (finalState) { runPile(count, bullets, true, ticksRun); return 0; }
    std::vector<double> timings;
    double checksum = 0;
    for (int r = 0; r < runs; ++r) {
        auto start = std::chrono::steady_clock::now();
        checksum = runPile(count, bullets, false, ticksRun);
        timings.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(timings.begin(), timings.end());
    std::printf("{\"engine\":\"box2d-2.4.1%s\",\"boxes\":%d,\"runs\":%d,\"ticks\":%d,\"seconds\":%.6f,\"checksum\":%.6f}\n",
                bullets ? "-bullets" : "", count, runs, ticksRun, timings[timings.size() / 2], checksum);
    return 0;
}
