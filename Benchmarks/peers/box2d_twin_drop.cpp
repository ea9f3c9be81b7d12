// The twin-drop sweep (Sweeps/twin-drop.yaml) in Box2D 2.4.1 -- Debian's libbox2d-dev, the same
// algorithm as the Box2D 2.x fork UIKit ships -- scalar, one world at a time per thread, as a user
// would run it without WorldSweep: what batching buys is the ratio to this.
//
//   box2d_twin_drop [--worlds N] [--threads T] [--runs R]
//   box2d_twin_drop --first-point    # final state of the sweep's first point, no jitter, to set
//                                    # beside `worldsweep trace Sweeps/twin-drop.yaml` (tick 300)
//
// prints one JSON object per line: {"engine":"box2d-2.4.1","threads":T,"worlds":N,"runs":R,
// "seconds":median,"worldTicksPerSecond":N*300/median}. World i runs sweep world i mod 768, as
// `worldsweep bench` counts them.
//
// The same world as WorldSweep builds it, with UIKit's settings (docs/semantics.md):
// 100 pt per metre, y down (gravity +10 m/s^2 on y), ticks of 1/60 s feeding sub-steps of
// float(1/120) s through an accumulator (2n - 1 sub-steps for n ticks), 8 velocity and 3 position
// iterations; two 50 x 50 pt boxes, density 1 (bottom: the swept density), friction 0.2,
// restitution 0.1 (top) and the swept elasticity (bottom), damping 0.1 (Box2D 2.4 damps by
// 1 / (1 + h c) as UIKit does); the reference bounds as four static edges 1 pt outside
// 320 x 568 pt and the ledge at y = 468 pt, each its own static body, friction and restitution 0.2;
// the continuous push on top, magnitude N along +x, applied at the start of each tick and kept for
// all its sub-steps. A world stops early when both boxes sleep (WorldSweep's runner drops a world
// when its animator pauses); world-ticks are counted as 300 per world either way, as bench counts.
// The sweep's grid is the same (16 elasticities x 3 densities x 16 push magnitudes, in that
// nesting); the +-2 pt jitter of top's centre is drawn from this program's own seeded generator
// (same distribution, not the same draws).
#include <box2d/box2d.h>

#include "uikit_box2d.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

using uikit::kPointsPerMetre, uikit::kTicks, uikit::addEdge;

struct WorldParameters {
    float topX, topY;           // points
    float bottomElasticity, bottomDensity, pushMagnitude;
};

std::vector<WorldParameters> sweepWorlds() {
    std::vector<WorldParameters> worlds;
    std::mt19937_64 random(42);
    std::uniform_real_distribution<double> jitter(-2.0, 2.0);
    const double densities[] = {0.5, 1, 2};
    for (int e = 0; e < 16; ++e) {
        for (double density : densities) {
            for (int m = 0; m < 16; ++m) {
                WorldParameters p;
                p.topX = float(60 + jitter(random));
                p.topY = float(30 + jitter(random));
                p.bottomElasticity = float(e / 15.0);
                p.bottomDensity = float(density);
                p.pushMagnitude = float(m * 0.1);
                worlds.push_back(p);
            }
        }
    }
    return worlds;
}

/// Runs one world for 300 ticks (fewer when both boxes fall asleep); returns a checksum of where
/// the boxes ended, so the work cannot be optimised away. With `print`, prints the boxes' final
/// centres (points) and angles as `worldsweep trace` does.
double runWorld(const WorldParameters& p, bool print = false) {
    b2World world(b2Vec2(0, 10));
    world.SetAutoClearForces(false);   // a push's force lasts the whole tick
    b2Body* top = uikit::addBox(world, p.topX, p.topY, 50, 1.0f, 0.1f);
    b2Body* bottom = uikit::addBox(world, 220, 50, 50, p.bottomDensity, p.bottomElasticity);
    uikit::addBounds(world, 320, 568);
    addEdge(world, 0, 468, 320, 468);
    uikit::runTicks(
        world, [&] { if (p.pushMagnitude != 0) top->ApplyForce(b2Vec2(p.pushMagnitude, 0), top->GetPosition(), true); },
        [&] {
            world.ClearForces();
            return !top->IsAwake() && !bottom->IsAwake();
        });
    if (print) {
        const char* names[] = {"top", "bottom"};
        b2Body* boxes[] = {top, bottom};
        for (int i = 0; i < 2; ++i) {
            b2Vec2 c = boxes[i]->GetPosition();
            std::printf("%s,%.9g,%.9g,%.9g\n", names[i], c.x * kPointsPerMetre, c.y * kPointsPerMetre, boxes[i]->GetAngle());
        }
    }
    return top->GetPosition().x + bottom->GetPosition().y;
}

double timeRun(const std::vector<WorldParameters>& sweep, int worlds, int threads, double& checksum) {
    std::atomic<int> next{0};
    std::vector<double> sums(threads, 0);
    auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
        pool.emplace_back([&, t] {
            for (int i = next++; i < worlds; i = next++) sums[t] += runWorld(sweep[i % sweep.size()]);
        });
    }
    for (auto& thread : pool) thread.join();
    auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    checksum = 0;
    for (double s : sums) checksum += s;
    return seconds;
}

}  // namespace

int main(int argc, char** argv) {
    int worlds = 768, threads = 1, runs = 3;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--first-point") {
            std::printf("item,x,y,angle\n");
            runWorld(WorldParameters{60, 30, 0, 0.5f, 0}, true);
            return 0;
        }
        int* target = a == "--worlds" ? &worlds : a == "--threads" ? &threads : a == "--runs" ? &runs : nullptr;
        if (!target || i + 1 >= argc || (*target = std::atoi(argv[++i])) < 1) {
            std::fprintf(stderr, "usage: box2d_twin_drop [--worlds N] [--threads T] [--runs R]\n");
            return 2;
        }
    }
    auto sweep = sweepWorlds();
    std::vector<double> timings;
    double checksum = 0;
    for (int r = 0; r < runs; ++r) timings.push_back(timeRun(sweep, worlds, threads, checksum));
    std::sort(timings.begin(), timings.end());
    double median = timings[timings.size() / 2];
    std::printf("{\"engine\":\"box2d-2.4.1\",\"threads\":%d,\"worlds\":%d,\"runs\":%d,\"seconds\":%.6f,"
                "\"worldTicksPerSecond\":%.1f,\"checksum\":%.6f}\n",
                threads, worlds, runs, median, worlds * double(kTicks) / median, checksum);
    return 0;
}
