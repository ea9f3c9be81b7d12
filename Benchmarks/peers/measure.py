"""One timed process for the peer scripts: runs ARGV once, its output thrown away, and prints
one JSON line {"case": CASE, "engine": NAME, "cpu": user + sys seconds, "wall": seconds} from the
process's rusage (wait4). On a shared machine CPU time is the figure load inflates least.

    python3 Benchmarks/peers/measure.py CASE NAME ARGV...
"""
import json
import os
import subprocess
import sys
import time

if len(sys.argv) < 4:
    sys.exit("usage: measure.py CASE NAME ARGV...")
case, name, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
start = time.perf_counter()
child = subprocess.Popen(argv, stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
wall = time.perf_counter() - start
if status != 0:
    sys.exit(f"measure: {case} {name} failed ({status})")
print(json.dumps({"case": case, "engine": name, "cpu": usage.ru_utime + usage.ru_stime, "wall": wall}))
