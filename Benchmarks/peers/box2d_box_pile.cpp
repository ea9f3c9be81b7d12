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
// iterations, 300 ticks; N boxes of 10 x 10 pt, 100 a row on a 20 pt grid from (60, 1900), in
// 2100 x 2100 pt reference bounds (uikit::runBoxGrid, shared with the box curve). The run stops
// early when every box sleeps (the animator pauses).
//
// Continuous collision: UIKit's items that gravity acts on use time of impact against static
// bodies only, which is Box2D's default for dynamic bodies (not bullets) -- the same work
// WorldSweep does. `--bullets` marks every box a bullet, so Box2D also runs time of impact between
// boxes (issue 29's first measurement did): more work than the semantics ask, shown for reference.
#include "uikit_box2d.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

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
    // The pile's grid starts at y = 1900 pt (Benchmarks/box-pile-1000.yaml).
    const double top = 1900;
    long ticksRun = 0;
    if (finalState) { uikit::runBoxGrid(count, top, bullets, true, ticksRun); return 0; }
    std::vector<double> timings;
    double checksum = 0;
    for (int r = 0; r < runs; ++r) {
        auto start = std::chrono::steady_clock::now();
        ticksRun = 0;
        checksum = uikit::runBoxGrid(count, top, bullets, false, ticksRun);
        timings.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(timings.begin(), timings.end());
    std::printf("{\"engine\":\"box2d-2.4.1%s\",\"boxes\":%d,\"runs\":%d,\"ticks\":%ld,\"seconds\":%.6f,\"checksum\":%.6f}\n",
                bullets ? "-bullets" : "", count, runs, ticksRun, timings[timings.size() / 2], checksum);
    return 0;
}
