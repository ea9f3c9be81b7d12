"""The fuzz suite's generators for tune files, command-line overrides and two processes on one
folder, with the checks that go with them (fuzz.py draws from them)."""
import json
import os
import re
import subprocess

TUNE_SEEDS = ["tune-bounce", "tune-snap", "tune-bounces", "tune-spring-settle", "tune-spring-curve"]
TUNE_RANGES = ["[0.1, 0.9]", "[0.9, 0.1]", "[0.5, 0.5]", "{min: 0.2, max: 0.8}", "{min: 0.2, max: 0.8, log: true}",
               "{min: 0, max: 1, log: true}", "{choice: [0.3, 0.6]}", "{choice: [0.5]}", "{choice: []}",
               "{min: 1, max: 3, integer: true}", "{min: 0.5, max: 1.5, integer: true}", "[-1, 2]", "[0, 1e39]", "[.nan, 1]"]
TUNE_WANTS = ["{target: 100, within: 0.5}", "{target: 100, within: 1e-170}", "{target: 100, within: 5e-324}",
              "{target: 100, within: 0}", "{max: 3}", "minimize", "maximize", "{min: 5, max: 1}", "{target: 1e308, within: 1}"]
TUNE_BUDGETS = ["1", "2", "0", "-1", "16", "48", "1e12", "1099511627777", "abc"]


def tune_case(rng, source: bytes) -> bytes:
    """A seed problem with its tune section mutated and its tuned keys written another way."""
    source = source.replace(b"budget: ", b"budget: 48 #", 1) if rng.random() < 0.7 else source
    r = rng.random()
    if r < 0.2:
        source = re.sub(rb"(?m)^(    [A-Za-z_.-]+: ).*$", lambda m: m.group(1) + rng.choice(TUNE_RANGES).encode(), source, count=1)
    elif r < 0.35:
        source = re.sub(rb"(?m)^(    [A-Za-z_.]+\.[a-z_0-9]+: )(\{target|\{max|\{min|minimize|maximize).*$",
                        lambda m: m.group(1) + rng.choice(TUNE_WANTS).encode(), source, count=1)
    elif r < 0.5:
        source = re.sub(rb"(?m)^(  budget: ).*$", lambda m: m.group(1) + rng.choice(TUNE_BUDGETS).encode(), source, count=1)
    elif r < 0.6:
        source = source.replace(b"tune:\n", b"tune:\n  population: " + rng.choice([b"2", b"3", b"100001", b"8"]) + b"\n", 1)
    # How the tuned values are written: anchors, tags, CRLF, a byte-order mark, the tune section first.
    w = rng.random()
    if w < 0.15:
        source = re.sub(rb"elasticity: ([0-9.]+)", rb"elasticity: &e \1", source, count=1)
    elif w < 0.25:
        source = re.sub(rb"damping: ([0-9.]+)", rb"damping: !!float \1", source, count=1)
    elif w < 0.35:
        source = source.replace(b"\n", b"\r\n")
    elif w < 0.42:
        source = b"\xef\xbb\xbf" + source
    elif w < 0.5 and b"\ntune:" in source:
        head, tune = source.split(b"\ntune:", 1)
        source = b"tune:" + tune.rstrip(b"\n") + b"\n" + head + b"\n"
    return source


def check_tune(out, rc, binary):
    """A search that ends 0 or 1 leaves a best.yaml that validates, has no tune section, and holds
    each tuned key's reported value."""
    problems = []
    if rc == 2 and os.path.exists(out):
        problems.append("a refused tune left its output folder behind")
    if rc not in (0, 1):
        return problems
    best = os.path.join(out, "best.yaml")
    if not os.path.exists(best):
        return problems + ["tune ended 0 or 1 without best.yaml"]
    with open(best, "rb") as f:
        text = f.read()
    if re.search(rb"(?m)^\s*tune:", text.replace(b"\xef\xbb\xbf", b"")):
        problems.append("best.yaml keeps a tune section")
    proc = subprocess.run([binary, "validate", best], capture_output=True, timeout=30, stdin=subprocess.DEVNULL)
    if proc.returncode != 0:
        problems.append("best.yaml does not validate: " + proc.stderr.decode("utf-8", "replace").strip()[:200])
    try:
        with open(os.path.join(out, "tune.json")) as f:
            answer = json.load(f)
        for value in answer.get("best", {}).get("values", []):
            if repr(float(value)).encode() not in text and str(value).encode() not in text:
                problems.append(f"best.yaml does not hold the found value {value}")
    except (OSError, ValueError) as e:
        problems.append(f"tune.json unreadable: {e}")
    return problems


OVERRIDE_KEYS = ["bouncy.elasticity", "card.center.y", "spring.frequency", "spring.damping", "snap.damping", "fall.magnitude",
                 "top.size.width", "nope.key", "world.ticks", "sweep.replicas", "sweep.seed", "x"]
OVERRIDE_VALUES = ["0.3", "2", "0", "-1", "1e39", "abc", "0.2,0.4", "linspace:0,1,3", "{values: [0.1, 0.2]}", "[1, 2]", ""]


def overrides(rng):
    """--set / --sweep arguments over keys a file sweeps, tunes, or does not have."""
    args = []
    for _ in range(rng.choice([1, 1, 2])):
        flag = rng.choice(["--set", "--sweep"])
        args += [flag, rng.choice(OVERRIDE_KEYS) + "=" + rng.choice(OVERRIDE_VALUES)]
    return args


def check_shared_folder(out):
    """Two processes on one folder: the finished one's files are whole."""
    problems = []
    worlds = os.path.join(out, "worlds.csv")
    if os.path.exists(os.path.join(out, "summary.json")):
        try:
            with open(os.path.join(out, "summary.json")) as f:
                json.load(f)
        except ValueError:
            problems.append("summary.json is not valid JSON after two processes shared the folder")
        with open(worlds, "rb") as f:
            ids = [line.split(b",", 1)[0] for line in f.read().split(b"\n")[1:] if line]
        if len(ids) != len(set(ids)):
            problems.append("worlds.csv holds a world twice after two processes shared the folder")
    return problems
