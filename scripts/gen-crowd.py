#!/usr/bin/env python3
"""Writes a crowd scene for memory measurements (docs/reliability.md): N small items (6 x 6 pt on a
20 pt grid, so each item's box, grown by the contact margin, overlaps its neighbours'), falling under
gravity and colliding with each other and the reference bounds, for TICKS ticks (default 30).

    scripts/gen-crowd.py N [TICKS] > crowd.yaml
"""
import math
import sys

if len(sys.argv) not in (2, 3):
    sys.exit("usage: scripts/gen-crowd.py N [TICKS] > crowd.yaml")
n = int(sys.argv[1])
ticks = int(sys.argv[2]) if len(sys.argv) == 3 else 30
cols = int(math.sqrt(n)) + 1
side = 20 * cols + 40
lines = [f"name: crowd{n}", f"world: {{bounds: [{side}, {side}], ticks: {ticks}}}", "items:"]
lines += [f"  i{k}: {{center: [{20 + k % cols * 20}, {20 + k // cols * 20}], size: [6, 6]}}" for k in range(n)]
names = ", ".join(f"i{k}" for k in range(n))
lines += ["behaviors:", f"  fall: {{type: gravity, items: [{names}]}}",
          f"  walls: {{type: collision, items: [{names}], reference_bounds: true}}"]
print("\n".join(lines))
