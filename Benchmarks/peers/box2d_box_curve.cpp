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
// ticks; N boxes of 10 x 10 pt, 100 a row on a 20 pt grid from (60, TOP) downwards (--top,
// default 60), in 2100 x 2100 pt reference bounds (uikit::runBoxGrid, shared with the box pile).
// A world stops early when every box sleeps (the animator pauses and the runner drops the world).
//
// Continuous collision: Box2D's default, time of impact of dynamic bodies against static bodies
// only (no bullets), which is what UIKit's items do and what WorldSweep runs: the same physics.
#include "uikit_box2d.h"

#include <cstdio>
#include <cstdlib>
#include <string>

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
    if (finalState) { uikit::runBoxGrid(count, top, false, true, worldTicks); return 0; }
    double checksum = 0;
    for (int w = 0; w < worlds; ++w) checksum += uikit::runBoxGrid(count, top, false, false, worldTicks);
    std::printf("{\"engine\":\"box2d-2.4.1\",\"boxes\":%d,\"worlds\":%d,\"worldTicks\":%ld,\"checksum\":%.6f}\n",
                count, worlds, worldTicks, checksum);
    return 0;
}
