#!/usr/bin/env python3
"""Box2D 2.3 reference traces for the jointed scenes of Tests/Box2DReference/joints/scenes.json.

Runs each scene in real Box2D 2.3 (PyPI's `box2d` 2.3.10, float32) set up as the engine sets up
UIKit's attachments, and writes joints/NAME.csv: `tick,item,x,y,angle` after every tick, points
and radians, each value the shortest text that reads back as the same float32. The test
(Tests/WorldSweepTests/JointReferenceTests.swift) builds the same scenes with AttachmentBehavior
on a DynamicAnimator and compares (scene files are not used: their keys belong to the scene format).

    pip install box2d==2.3.10 numpy
    python3 scripts/reference/box2d23_joints.py

Set-up, as box2d23_stacks.py (docs/box2d-reference.md) plus the joints:
- y-down metres: gravity (0, 10); positions, sizes and offsets float32(points) / float32(100);
  ticks of 1/60 s summed in double, sub-steps of float32(1/120) s; 8 velocity, 3 position
  iterations; warm starting on; sleeping with Box2D's defaults.
- Bodies in the engine's order: the items as listed (anchored ones static, with their box), then
  one static ground body per anchor attachment at its anchor, in attachment order; joints in
  attachment order (Box2D prepends both, as the engine's walk mirrors).
- Attachments (engine's WorldPlan.compileJoints): anchor distance = distance joint ground → item,
  localAnchorA 0, localAnchorB the offset, length the distance between the attachment points when
  made (double, then float32 / 100), frequency and damping ratio as given; item–item distance the
  same between the items; pin = revolute at the anchor (local points of the anchor, reference
  angle B − A), `range` the angle limits, `friction` a motor of speed 0 with that maximum torque;
  sliding to an anchor = prismatic ground → item along `axis` (Box2D normalizes it), `range`
  translation limits in points, `friction` the maximum motor force; fixed = weld at the anchor;
  limit = rope with the measured length as its maximum.
- Kept out of play, as for the stacks: no damping (2.3.10 damps by 1 − h·c), and no contacts at
  all (every fixture in group −1), so neither 2.3's time-of-impact sweep nor its polygon
  separation can differ; the scenes test the joints and the island order alone.
"""
import json
import math
import os
import sys

import numpy as np
import Box2D

f32 = np.float32
PPM = f32(100)
TICK = 1.0 / 60.0
SUB_STEP = float(f32(1.0 / 120.0))


def metres(v):
    return float(f32(v) / PPM)


def vec(p):
    return (metres(p[0]), metres(p[1]))


def text(value):
    v = f32(value)
    if v == 0:
        return "0"
    return np.format_float_positional(v, unique=True, trim="-")


def attachment_point(item, offset):
    """The engine's AttachmentBehavior.attachmentPoint, in double."""
    angle = item.get("angle", 0.0)
    c, s = math.cos(angle), math.sin(angle)
    return (item["center"][0] + c * offset[0] - s * offset[1], item["center"][1] + s * offset[0] + c * offset[1])


def local_point(body_center, point):
    """b2Body::GetLocalPoint for a body at angle 0, in float32 as the engine computes it."""
    return (float(f32(metres(point[0])) - f32(metres(body_center[0]))),
            float(f32(metres(point[1])) - f32(metres(body_center[1]))))


def trace(scene, ticks=300):
    world = Box2D.b2World(gravity=(0, 10), doSleep=True)
    world.warmStarting = True
    world.continuousPhysics = True
    world.subStepping = False
    items = {it["name"]: it for it in scene["items"]}
    bodies = {}
    for it in scene["items"]:
        if it.get("angle", 0) != 0:
            sys.exit(f"{scene['name']}: items start at angle 0 (local points are computed for that)")
        w, h = (f32(v) / PPM for v in it["size"])
        make = world.CreateStaticBody if it.get("anchored") else world.CreateDynamicBody
        body = make(position=vec(it["center"]), angle=0.0)
        body.CreateFixture(shape=Box2D.b2PolygonShape(box=(float(w / f32(2)), float(h / f32(2)))),
                           density=1.0, friction=float(f32(0.2)), restitution=float(f32(0.2)),
                           filter=Box2D.b2Filter(groupIndex=-1))
        body.linearDamping = 0
        body.angularDamping = 0
        body.gravityScale = 1.0 if it.get("gravity") else 0.0
        bodies[it["name"]] = body
    for a in scene["attachments"]:
        names = a["items"]
        offsets = a.get("offsets", [[0, 0]] * len(names))
        anchor = a.get("anchor", [0, 0])
        on_anchor = len(names) == 1
        if on_anchor:
            body_a = world.CreateStaticBody(position=vec(anchor))
            center_a = anchor
        else:
            body_a = bodies[names[0]]
            center_a = items[names[0]]["center"]
        body_b = bodies[names[-1]]
        center_b = items[names[-1]]["center"]
        kind = a["kind"]
        if kind in ("distance", "limit"):
            pb = attachment_point(items[names[-1]], offsets[-1])
            pa = anchor if on_anchor else attachment_point(items[names[0]], offsets[0])
            measured = math.hypot(pb[0] - pa[0], pb[1] - pa[1])
            local_a = (0.0, 0.0) if on_anchor else vec(offsets[0])
            length = float(f32(measured) / PPM)
            if kind == "distance":
                d = Box2D.b2DistanceJointDef(bodyA=body_a, bodyB=body_b, localAnchorA=local_a, localAnchorB=vec(offsets[-1]),
                                             length=length, frequencyHz=float(f32(a.get("frequency", 0))),
                                             dampingRatio=float(f32(a.get("damping", 0))), collideConnected=not on_anchor)
            else:
                d = Box2D.b2RopeJointDef(bodyA=body_a, bodyB=body_b, localAnchorA=local_a, localAnchorB=vec(offsets[-1]),
                                         maxLength=length)
        elif kind in ("pin", "sliding", "fixed"):
            local_a = (0.0, 0.0) if on_anchor else local_point(center_a, anchor)
            local_b = local_point(center_b, anchor)
            lo, hi = a.get("range", [None, None])
            friction = float(f32(a.get("friction", 0)))
            if kind == "pin":
                d = Box2D.b2RevoluteJointDef(bodyA=body_a, bodyB=body_b, localAnchorA=local_a, localAnchorB=local_b,
                                             referenceAngle=0.0, enableLimit=lo is not None,
                                             lowerAngle=float(f32(lo or 0)), upperAngle=float(f32(hi or 0)),
                                             enableMotor=friction > 0, motorSpeed=0.0, maxMotorTorque=friction)
            elif kind == "sliding":
                d = Box2D.b2PrismaticJointDef(bodyA=body_a, bodyB=body_b, localAnchorA=local_a, localAnchorB=local_b,
                                              localAxisA=(float(f32(a["axis"][0])), float(f32(a["axis"][1]))),
                                              referenceAngle=0.0, enableLimit=lo is not None,
                                              lowerTranslation=metres(lo or 0), upperTranslation=metres(hi or 0),
                                              enableMotor=friction > 0, motorSpeed=0.0, maxMotorForce=friction)
            else:
                d = Box2D.b2WeldJointDef(bodyA=body_a, bodyB=body_b, localAnchorA=local_a, localAnchorB=local_b,
                                         referenceAngle=0.0, frequencyHz=float(f32(a.get("frequency", 0))),
                                         dampingRatio=float(f32(a.get("damping", 0))))
        else:
            sys.exit(f"{scene['name']}: unknown kind {kind}")
        world.CreateJoint(d)
    rows = ["tick,item,x,y,angle"]
    accumulator = 0.0
    for tick in range(1, ticks + 1):
        accumulator += TICK
        while accumulator >= SUB_STEP:
            world.Step(SUB_STEP, 8, 3)
            accumulator -= SUB_STEP
        for it in scene["items"]:
            b = bodies[it["name"]]
            p = b.transform.position
            rows.append(f"{tick},{it['name']},{text(f32(p.x) * PPM)},{text(f32(p.y) * PPM)},{text(b.angle)}")
    return rows


if __name__ == "__main__":
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Box2DReference", "joints"))
    scenes = json.load(open(os.path.join(root, "scenes.json")))["scenes"]
    wanted = sys.argv[1:]
    for scene in scenes:
        if wanted and scene["name"] not in wanted:
            continue
        rows = trace(scene)
        out = os.path.join(root, scene["name"] + ".csv")
        with open(out, "w") as f:
            f.write("\n".join(rows) + "\n")
        print(f"{out}: {rows[-1].split(',')[0]} ticks, {len(rows) - 1} rows")
