#!/usr/bin/env python3
"""Box2D 2.3 reference traces for the scenes in Tests/Box2DReference/.

Runs each scene file (*.yaml there) in real Box2D 2.3 -- PyPI's `box2d` 2.3.10, float32 -- set up
as UIKit Dynamics sets up its engine, and writes NAME.csv beside it:
`tick,item,x,y,angle`, one row per item after every tick, in points and radians, each value the
shortest text that reads back as the same float32 (what Box2D held). The test
(Tests/WorldSweepSceneTests/Box2DReferenceTests.swift) runs the same files through
`DynamicAnimator` and compares.

    pip install box2d==2.3.10 pyyaml numpy
    python3 scripts/reference/box2d23_stacks.py          # rewrites Tests/Box2DReference/*.csv

What is matched, and how (see docs/semantics.md):
- Coordinates: the engine works in y-down metres (gravity +y, angles clockwise on screen), which
  is Box2D's own algebra with y read downwards, so Box2D gets the same numbers: gravity (0, 10),
  positions and sizes as float32(points) / float32(100), computed in float32 as the engine does.
- Time: every tick of 1/60 s is added (in double) to an accumulator that runs sub-steps of
  float32(1/120) s while it holds one, so n ticks run 2n - 1 sub-steps; 8 velocity and 3 position
  iterations; warm starting and continuous collision on, sub-stepping off.
- Bodies in the order the animator adds them (items in order of first appearance in the
  behaviors, then the reference-bounds edges top, right, bottom, left, each its own static body
  from corner to corner, 1 pt outside the bounds); Box2D prepends each, as the engine mirrors.
- Materials: items friction/restitution 0.2 unless an item behavior sets them, density 1,
  boundaries 0.2 / 0.2; Box2D's own mixing (sqrt of frictions, max of restitutions); polygon
  skin b2_polygonRadius (1 pt); sleeping on with Box2D's defaults (0.5 s, 1 pt/s, 2 deg/s).

Where the bundled Box2D differs from what the engine reproduces, the scenes keep the difference
out of play so it cannot hide the engine's own:
- it damps by 1 - h c instead of 1 / (1 + h c): every scene sets resistance and
  angular_resistance to 0 (no damping), and this script refuses a scene that does not;
- it advances sweeps as (1 - beta) c0 + beta c inside time of impact: items start resting or a
  few points above what they land on, at under 100 pt/s, so no time-of-impact event happens (the
  script runs every scene again with continuous collision off and refuses to write unless the two
  traces agree to the bit);
- it finds polygon separation by hill climbing, measured in world coordinates (2.4 and the engine
  scan every normal in the second polygon's frame): for boxes both find the same face, but the
  separation's last bits differ, which decides touching only where a separation lands exactly on
  the threshold. So the scenes start 0.5 pt apart, never with skins exactly touching (there the
  pyramid tipped one way in Box2D and stayed level in the engine: docs/box2d-reference.md).
"""
import glob
import os
import sys

import numpy as np
import yaml
import Box2D

f32 = np.float32
PPM = f32(100)
TICK = 1.0 / 60.0
SUB_STEP = float(f32(1.0 / 120.0))


def metres(points):
    return float(f32(points) / PPM)


def text(value):
    """Shortest text reading back as the same float32; integral values without '.0', -0 as 0."""
    v = f32(value)
    if v == 0:
        return "0"
    s = np.format_float_positional(v, unique=True, trim="-")
    return s


def item_settings(scene, name):
    """Friction, restitution, density, velocity: engine defaults, then each item behavior that sets
    one, in behavior order (last setter wins)."""
    s = {"friction": 0.2, "elasticity": 0.2, "density": 1.0, "resistance": 0.1,
         "angular_resistance": 0.1, "linear_velocity": [0, 0], "angular_velocity": 0}
    for b in scene["behaviors"].values():
        if b["type"] == "item" and name in b["items"]:
            for key in s:
                if key in b:
                    s[key] = b[key]
    return s


def trace(path, continuous):
    scene = yaml.safe_load(open(path))
    width, height = scene["world"]["bounds"]
    ticks = scene["world"]["ticks"]
    order = []
    for b in scene["behaviors"].values():
        for item in b.get("items", []):
            if item not in order:
                order.append(item)
    world = Box2D.b2World(gravity=(0, 10), doSleep=True)
    world.warmStarting = True
    world.continuousPhysics = continuous
    world.subStepping = False
    bodies = {}
    for name in order:
        item = scene["items"][name]
        s = item_settings(scene, name)
        if s["resistance"] != 0 or s["angular_resistance"] != 0:
            sys.exit(f"{path}: {name}: resistance must be 0 (Box2D 2.3.10 damps by 1 - h c)")
        w, h = (f32(v) / PPM for v in item["size"])
        body = world.CreateDynamicBody(position=(metres(item["center"][0]), metres(item["center"][1])),
                                       angle=float(f32(item.get("angle", 0))))
        body.CreateFixture(shape=Box2D.b2PolygonShape(box=(float(w / f32(2)), float(h / f32(2)))),
                           density=float(f32(s["density"])), friction=float(f32(s["friction"])),
                           restitution=float(f32(s["elasticity"])))
        body.linearDamping = 0
        body.angularDamping = 0
        vx, vy = (f32(v) / PPM for v in s["linear_velocity"])
        body.linearVelocity = (float(vx), float(vy))
        body.angularVelocity = float(f32(s["angular_velocity"]))
        bodies[name] = body
    for b in scene["behaviors"].values():
        if b["type"] == "collision" and b.get("reference_bounds"):
            corners = [(-1, -1), (width + 1, -1), (width + 1, height + 1), (-1, height + 1)]
            for k in range(4):
                a, c = corners[k], corners[(k + 1) % 4]
                edge = Box2D.b2EdgeShape(vertices=[(metres(a[0]), metres(a[1])), (metres(c[0]), metres(c[1]))])
                world.CreateStaticBody(fixtures=Box2D.b2FixtureDef(shape=edge, friction=float(f32(0.2)),
                                                                   restitution=float(f32(0.2))))
    rows = ["tick,item,x,y,angle"]
    accumulator = 0.0
    for tick in range(1, ticks + 1):
        accumulator += TICK
        while accumulator >= SUB_STEP:
            world.Step(SUB_STEP, 8, 3)
            accumulator -= SUB_STEP
        for name in order:
            b = bodies[name]
            p = b.transform.position
            rows.append(f"{tick},{name},{text(f32(p.x) * PPM)},{text(f32(p.y) * PPM)},{text(b.angle)}")
    return rows


def run(path):
    rows = trace(path, continuous=True)
    if rows != trace(path, continuous=False):
        sys.exit(f"{path}: time of impact changed the trace; keep the scene slower")
    out = os.path.splitext(path)[0] + ".csv"
    with open(out, "w") as f:
        f.write("\n".join(rows) + "\n")
    print(f"{out}: {rows[-1].split(',')[0]} ticks, {len(rows) - 1} rows")


if __name__ == "__main__":
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Box2DReference"))
    files = sys.argv[1:] or sorted(glob.glob(os.path.join(root, "*.yaml")))
    for path in files:
        run(path)
