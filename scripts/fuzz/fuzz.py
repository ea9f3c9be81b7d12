#!/usr/bin/env python3
"""Seeded, grammar-aware fuzzing of worldsweep's inputs: sweep files and command lines.

Each case takes one of the example sweeps (made short: few ticks), applies a few mutations that
know the file's grammar (numbers, generators, keys, names, flow lists and maps, bytes) or the
command line's (options with bad values, odd output folders), runs the built binary on it and
checks the promises of the README's reliability section:

  - no crash: the process ends by exit, never by a signal;
  - no hang: every case ends within --timeout seconds;
  - the exit code is one of 0 (done), 1 (a run failed), 2 (bad input), 130 (interrupted);
  - a refusal (exit 2) is one line on stderr, printable (no raw control bytes), with no raw
    runtime or Foundation text, and nothing is written for it (the output folder stays absent);
  - nothing it did not write is deleted (a folder named like one of its outputs keeps its files);
  - a finished run's worlds.csv holds only finite numbers (or empty cells for failed worlds);
  - no refusal carries libyaml's own wording (every syntax error is said in the format's words);
  - tune (the tune generator: the seed problems with mutated tune sections, keys written in flow,
    block, anchored, tagged, CRLF or BOM form): a search that ends 0 or 1 leaves a best.yaml that
    validates, has no tune section, and gives each tuned key the value tune.json reports;
  - overrides (the override generator): --set / --sweep of swept, tuned and unknown keys on run,
    validate, tune and trace, and compare / missing / merge of the runs they made;
  - one folder, two processes: a second run on a running run's folder is refused (exit 2) and
    the first's worlds.csv ends whole (every world once), its summary.json valid JSON.

    scripts/fuzz/fuzz.py --bin .build/release/worldsweep --cases 300 --seed 1
    scripts/fuzz/fuzz.py --bin ... --cases 20000 --seed 7 --keep /tmp/fuzz-findings
    scripts/fuzz/fuzz.py --bin ... --cases 10000 --start 10000 --seed 7   # the second half of it

A failing case is written to --keep (file, command, output) so that it replays exactly. The last
line is "fuzz: N passed, M failed".
"""
import argparse
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generators import TUNE_SEEDS, check_shared_folder, check_tune, overrides, tune_case  # noqa: E402

EXAMPLES = ["twin-drop", "ledge-squares", "push-offset", "spinner", "million-drops", "pendulum", "spring-card", "spring-hang", "snap", "radial-gravity"]

# Numbers that have broken parsers and engines before, or sit on a boundary.
NUMBERS = ["0", "-0", "-1", "1", "2", "0.5", "1e39", "-1e39", "1e-300", "1e308", "-1e308", "5e-324",
           "1e-19", "1e-45", "3.4e38", "1e30", "-1e30", ".nan", ".inf", "-.inf", "nan", "inf",
           "4611686018427387904", "9223372036854775807", "-9223372036854775808", "18446744073709551616",
           "1099511627776", "0x10", "1_000", "0.30000000000000004", "1/0", "0/0", "1/60", "-1/60",
           "1e400", "0.1", "100000", "65536"]
JUNK_SCALARS = ["abc", "''", '""', "~", "null", "true", "[]", "{}", "[1, 2, 3]", "{a: 1}", "\"\\x1b[31mred\"",
                "\"a\\nb\"", "é", "🙂", "&anchor 1", "*alias", "!!binary aGk=", "? x", "- 1", "|", ">"]
GENERATORS = ["{range: [0, 1, 1e-19]}", "{range: [0, 1, 0]}", "{range: [0, 1, -0.1]}", "{range: [1, 0, 0.1]}",
              "{linspace: [-1e308, 1e308, 3]}", "{linspace: [0, 1, 0]}", "{linspace: [0, 1, -3]}",
              "{linspace: [0, 1, 1e20]}", "{logspace: [5e-324, 1, 3]}", "{logspace: [0, 1, 3]}",
              "{logspace: [-1, 1, 3]}", "{values: []}", "{values: [.nan]}", "{values: [1e39, 1]}",
              "{uniform: [0, 1e39]}", "{uniform: [1, 0]}", "{loguniform: [0, 1]}", "{loguniform: [1e-300, 1e300]}",
              "{range: [0, 1.5, 0.1]}", "{linspace: [0, 1, 3]}", "{values: [0.3, 0.7]}"]
KEYS = ["center", "size", "angle", "shape", "path", "type", "items", "mode", "magnitude", "direction",
        "elasticity", "friction", "density", "resistance", "angular_resistance", "allows_rotation",
        "anchored", "charge", "linear_velocity", "angular_velocity", "active", "offset", "bounds", "tick",
        "duration", "ticks", "kind", "parameters", "samples", "seed", "replicas", "jitter", "metrics",
        "reference_bounds", "boundaries", "from", "to", "insets", "name", "description", "linspace",
        "range", "values", "logspace", "uniform", "loguniform", "\x1b[2J", "a\tb", "x.y.z"]
BYTES = [b"\xff", b"\xfe\xff", b"\x00", b"\x1b[31m", b"\r", b"\xc3", b"\xe2\x82", b"\t", b"\x7f", b"\xef\xbb\xbf"]

NUMBER_RE = re.compile(rb"(?<![A-Za-z_.\d])-?\d+(?:\.\d+)?(?:e-?\d+)?(?:/\d+)?(?![A-Za-z_\d])")
GENERATOR_RE = re.compile(rb"\{(?:range|linspace|logspace|values|uniform|loguniform):[^}]*\}")
KEY_RE = re.compile(rb"(?m)^(\s*)([A-Za-z_][A-Za-z0-9_.]*):")
NAME_RE = re.compile(rb"\b(top|bottom|a|b|c|d|e|card|rotor|flicked|driven|bouncy|stiff|shove|fall|walls|material|floor|spin|flick|drive)\b")


def shorten(source: bytes) -> bytes:
    """The example made cheap to run: a few ticks, so a case takes milliseconds, not seconds."""
    source = re.sub(rb"(?m)^(\s*)duration:.*$", rb"\1ticks: 12", source)
    source = re.sub(rb"(?m)^(\s*)ticks: \d+", rb"\1ticks: 12", source)
    source = re.sub(rb"(?m)^(\s*)replicas: \d+", rb"\1replicas: 2", source)
    source = source.replace(b"{linspace: [0.01, 1, 100]}", b"{linspace: [0.01, 1, 4]}")
    return source


def replace_match(rng, source, pattern, choices):
    matches = list(pattern.finditer(source))
    if not matches:
        return source
    m = rng.choice(matches)
    return source[:m.start()] + rng.choice(choices).encode() + source[m.end():]


def mutate(rng: random.Random, source: bytes) -> bytes:
    kind = rng.randrange(13)
    lines = source.split(b"\n")
    if kind <= 2:
        return replace_match(rng, source, NUMBER_RE, NUMBERS)
    if kind == 3:
        return replace_match(rng, source, GENERATOR_RE, GENERATORS)
    if kind == 4:
        return replace_match(rng, source, NUMBER_RE, JUNK_SCALARS)
    if kind == 5:
        matches = list(KEY_RE.finditer(source))
        if matches:
            m = rng.choice(matches)
            return source[:m.start(2)] + rng.choice(KEYS).encode() + source[m.end(2):]
        return source
    if kind == 6:
        i = rng.randrange(len(lines))
        del lines[i]
        return b"\n".join(lines)
    if kind == 7:
        i = rng.randrange(len(lines))
        lines.insert(rng.randrange(len(lines) + 1), lines[i])
        return b"\n".join(lines)
    if kind == 8:
        if rng.random() < 0.1:   # issue 30: a UTF-8 byte-order mark (accepted) or a UTF-16 one (refused)
            return rng.choice([b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff"]) + source
        pos = rng.randrange(len(source) + 1)
        return source[:pos] + rng.choice(BYTES) + source[pos:]
    if kind == 9:
        return source[:rng.randrange(len(source) + 1)]
    if kind == 10:
        matches = list(NAME_RE.finditer(source))
        if matches:
            m = rng.choice(matches)
            new = rng.choice([b"x" * rng.choice([1, 80, 5000]), b"a\x1bb", b"", b"top", b"bounds", b"a b", b"n\xffm"])
            return source[:m.start()] + new + source[m.end():]
        return source
    if kind == 11:
        i = rng.randrange(len(lines))
        indent = rng.choice([b"", b" ", b"    ", b"\t"])
        lines[i] = indent + lines[i].lstrip()
        return b"\n".join(lines)
    # Sweep sizes that should be refused before anything is allocated.
    extra = rng.choice([b"  replicas: 1099511627777", b"  samples: 9223372036854775807", b"  replicas: -1",
                        b"  samples: 0", b"  seed: -5", b"  seed: 1e300", b"  jitter: {top.center: [1e39, 2]}",
                        b"  jitter: {top.center: [.nan, 2]}", b"  jitter: {nope.center: 2}",
                        # Issue 30: values a sweep reaches that its keys' rules refuse.
                        b"  jitter: {hinge.range: [1, 1]}", b"  jitter: {rail.axis.x: 2}", b"  jitter: {rod.length: 1e6}",
                        b"  replicas: 9223372036854775807"])
    return source.replace(b"sweep:\n", b"sweep:\n" + extra + b"\n", 1)


def bad_count(rng):
    return rng.choice(["0", "-1", "-0", "1.5", "abc", "", "4611686018427387904", "9223372036854775807",
                       "99999999999999999999", "1e3", " 2", "0x2", "65537", "1000000"])


def command_line(rng, file, out):
    """A command over the case's file, with a chance of bad option values."""
    which = rng.choices(["validate", "run", "trace", "merge", "missing"], weights=[50, 28, 16, 3, 3])[0]
    held = None
    if which == "validate":
        args = ["validate", file]
        if rng.random() < 0.1:
            args += ["--max-worlds", bad_count(rng)]
    elif which == "run":
        # A mutated count can make a valid sweep of minutes (65 536 × 3 × 2 worlds): capped, so a
        # long run is a refusal to check rather than a timeout mistaken for a hang.
        args = ["run", file, "--out", out, "--quiet", "--max-worlds", "5000", "--threads", "1"]
        r = rng.random()
        if r < 0.08:
            args[-1] = bad_count(rng)
        elif r < 0.14:
            args += ["--chunk-size", bad_count(rng)]
        elif r < 0.20:
            args += ["--shard", rng.choice(["0", "3", "-1", "x"]), "--of", bad_count(rng)]
        elif r < 0.24:
            args[3] = rng.choice(["", "/proc/nope", "/dev/null", file, file + "/inside"])
        elif r < 0.27:
            # An output folder holding a folder by one of the names a run writes: refused, kept.
            held_name = rng.choice(["worlds.csv", "summary.json", "partners.csv", "report.html", "run.json"])
            os.makedirs(os.path.join(out, held_name))
            with open(os.path.join(out, held_name, "keep.txt"), "w") as f:
                f.write("not worldsweep's")
            args += ["--force"]
            held = held_name
    elif which == "trace":
        args = ["trace", file, "--ticks", rng.choice(["3", "5"])]
        if rng.random() < 0.15:
            args[-1] = bad_count(rng)
        if rng.random() < 0.2:
            args.append("--events")
    else:
        args = [which, rng.choice([out, file, "/nonexistent/dir", ""])]
    if which in ("run", "trace") and rng.random() < 0.2:
        key = rng.choice(["bouncy.elasticity", "shove.magnitude", "top.size", "fall.magnitude", "nope.key",
                          "material.density", "card.center.y", "spin.angular_velocity", "x"])
        args += ["--set", key + "=" + rng.choice(NUMBERS + JUNK_SCALARS[:4])]
    return which, args, held


RAW_TEXT = re.compile(r"NSCocoaErrorDomain|Error Domain=|Fatal error|EncodingError|DecodingError|Swift/|"
                      r"Foundation\.|_GenericObjCError|\bCocoaError\b|Thread \d|Stack dump|"
                      r"CodingKeys|keyNotFound|dataCorrupted|UserInfo=|yaml_set_max_nest_level|"
                      # libyaml's own wording: every syntax error is said in the format's words.
                      r"did not find expected|while parsing a|while scanning a|not allowed in this context|"
                      r"could not find expected|cannot start any token|found undefined alias")


def check(which, args, rc, stdout, stderr, out, timed_out, held=None):
    """The promises, as a list of broken ones (empty: the case passed)."""
    problems = []
    if timed_out:
        return ["hang (timed out)"]
    if rc < 0:
        problems.append(f"crash (signal {-rc}: {signal.Signals(-rc).name})")
    elif rc not in (0, 1, 2, 130):
        problems.append(f"exit code {rc}")
    text = stderr.decode("utf-8", "replace")
    if RAW_TEXT.search(text):
        problems.append("raw runtime text in stderr")
    if rc == 2:
        if text.count("\n") != 1 or not text.endswith("\n"):
            problems.append(f"refusal is {text.count(chr(10))} lines, not one")
        if any(ord(ch) < 32 and ch != "\n" for ch in text) or "\x7f" in text:
            problems.append("control bytes in the refusal")
        if "error" not in text:
            problems.append("refusal does not say 'error'")
        if which == "run" and os.path.exists(out) and not held:
            problems.append("a refused run left its output folder behind")
    if held and not os.path.exists(os.path.join(out, held, "keep.txt")):
        problems.append(f"deleted a file inside the folder {held}, which it did not write")
    if which == "run" and rc == 0:
        worlds = os.path.join(out, "worlds.csv")
        if "--shard" in args:
            # A shard writes into its own folder.
            shard, count = args[args.index("--shard") + 1], args[args.index("--of") + 1]
            worlds = os.path.join(out, "shards", f"{int(shard)}-of-{int(count)}", "worlds.csv")
        if not os.path.exists(worlds):
            problems.append("run exited 0 without worlds.csv")
        else:
            with open(worlds, "rb") as f:
                body = f.read()
            if re.search(rb"(?i)(^|,)(nan|-?inf)(,|$)", body.replace(b"\n", b",\n"), re.M):
                problems.append("non-finite number in worlds.csv")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", required=True, help="the worldsweep executable")
    parser.add_argument("--cases", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start", type=int, default=0,
                        help="first case number (cases are numbered per seed, so runs over disjoint ranges split one run)")
    parser.add_argument("--timeout", type=float, default=30)
    parser.add_argument("--keep", help="folder for failing cases (default: a temporary one, printed)")
    parser.add_argument("--sweeps", default=os.path.join(os.path.dirname(__file__), "..", "..", "Sweeps"))
    opts = parser.parse_args()

    bases = []
    tune_bases = []
    for name in TUNE_SEEDS:
        with open(os.path.join(opts.sweeps, name + ".yaml"), "rb") as f:
            tune_bases.append((name, f.read()))
    for name in EXAMPLES:
        with open(os.path.join(opts.sweeps, name + ".yaml"), "rb") as f:
            bases.append((name, shorten(f.read())))
    # Seeds kept beside the fuzzer (not in Sweeps/, whose outputs golden.sh pins).
    seeds = os.path.join(os.path.dirname(__file__), "seeds")
    for entry in sorted(os.listdir(seeds)) if os.path.isdir(seeds) else []:
        if entry.endswith(".yaml"):
            with open(os.path.join(seeds, entry), "rb") as f:
                bases.append((entry[:-5], shorten(f.read())))
    keep = opts.keep or tempfile.mkdtemp(prefix="worldsweep-fuzz-findings-")
    work = tempfile.mkdtemp(prefix="worldsweep-fuzz-")
    # The curve seed problem reads curves/ beside its file.
    shutil.copytree(os.path.join(opts.sweeps, "curves"), os.path.join(work, "curves"))
    passed = failed = 0
    try:
        for case in range(opts.start, opts.start + opts.cases):
            rng = random.Random(f"{opts.seed}:{case}")
            generator = rng.random()
            if generator < 0.12:
                name, source = rng.choice(tune_bases)
                source = tune_case(rng, shorten(source))
                if rng.random() < 0.3:
                    source = mutate(rng, source)
            else:
                name, source = rng.choice(bases)
                for _ in range(rng.choice([1, 1, 1, 2, 3])):
                    source = mutate(rng, source)
            file = os.path.join(work, f"case-{case}.yaml")
            with open(file, "wb") as f:
                f.write(source)
            out = os.path.join(work, f"out-{case}")
            if generator < 0.12:
                which = rng.choice(["tune", "tune", "validate"])
                args = [which, file] + (["--out", out, "--quiet", "--threads", "1", "--max-worlds", "5000"] if which == "tune" else [])
                args += overrides(rng) if rng.random() < 0.2 else []
                held = None
            elif generator < 0.22:
                which = rng.choice(["run", "validate", "trace", "tune"])
                args = [which, file] + {"run": ["--out", out, "--quiet", "--threads", "1", "--max-worlds", "5000"],
                                        "tune": ["--out", out, "--quiet", "--threads", "1"],
                                        "trace": ["--ticks", "3"], "validate": []}[which] + overrides(rng)
                held = None
            elif generator < 0.25:
                which, args, held = "shared", ["run", file, "--out", out, "--quiet", "--threads", "1", "--max-worlds", "5000"], None
            else:
                which, args, held = command_line(rng, file, out)
            timed_out = False
            first = None
            if which == "shared":
                # A second process on a running run's folder: refused, or the first had finished.
                first = subprocess.Popen([opts.bin] + args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                         stdin=subprocess.DEVNULL, env=dict(os.environ, TERM="dumb"))
                import time
                time.sleep(rng.choice([0, 0.01, 0.05]))
                args = args + rng.choice([[], ["--resume"], ["--force"]])
            try:
                proc = subprocess.run([opts.bin] + args, capture_output=True, timeout=opts.timeout,
                                      env=dict(os.environ, TERM="dumb"), stdin=subprocess.DEVNULL)
                rc, stdout, stderr = proc.returncode, proc.stdout, proc.stderr
            except subprocess.TimeoutExpired as e:
                rc, stdout, stderr, timed_out = -1, e.stdout or b"", e.stderr or b"", True
            problems = []
            if first is not None:
                if rng.random() < 0.3:
                    first.kill()
                try:
                    first.wait(timeout=opts.timeout)
                except subprocess.TimeoutExpired:
                    first.kill(); first.wait()
                    problems.append("hang (the first of two processes timed out)")
                if first.returncode not in (0, 1, 2, -9):
                    problems.append(f"first process ended {first.returncode}")
                # The lock of a killed process is no lock: --resume takes the folder and finishes it.
                if first.returncode == -9 and rc == 2 and os.path.exists(os.path.join(out, "run.json")):
                    resumed = subprocess.run([opts.bin] + args[:9] + ["--resume"], capture_output=True, timeout=opts.timeout,
                                             stdin=subprocess.DEVNULL)
                    if resumed.returncode not in (0, 1):
                        problems.append(f"--resume after kill -9 ended {resumed.returncode}: "
                                        + resumed.stderr.decode("utf-8", "replace")[:200])
                problems += check_shared_folder(out)
                which = "run" if rc != 2 else "shared"
            problems += check(which, args, rc, stdout, stderr, out, timed_out, held)
            if which == "tune" and not timed_out:
                problems += check_tune(out, rc, opts.bin)
            if which == "run" and rc == 0 and "--shard" not in args and generator < 0.22 and not timed_out:
                # compare reads a run with its recorded overrides: a run compares with itself.
                report = out + "-compare"
                cmp = subprocess.run([opts.bin, "compare", out, out, "--out", report], capture_output=True,
                                     timeout=opts.timeout, stdin=subprocess.DEVNULL)
                if cmp.returncode != 0:
                    problems.append("compare of a run with itself failed: " + cmp.stderr.decode("utf-8", "replace")[:200])
                shutil.rmtree(report, ignore_errors=True)
            if problems:
                failed += 1
                case_dir = os.path.join(keep, f"seed{opts.seed}-case{case}")
                os.makedirs(case_dir, exist_ok=True)
                shutil.copy(file, os.path.join(case_dir, "case.yaml"))
                with open(os.path.join(case_dir, "report.txt"), "w") as f:
                    f.write(f"base: {name}\ncommand: worldsweep {' '.join(repr(a) for a in args)}\nexit: {rc}\n")
                    f.write("problems: " + "; ".join(problems) + "\n--- stderr ---\n")
                    f.write(stderr.decode("utf-8", "replace")[:4000])
                print(f"case {case} ({name}, {which}): {'; '.join(problems)} — {case_dir}", file=sys.stderr)
            else:
                passed += 1
            if (case + 1 - opts.start) % 1000 == 0:
                print(f"fuzz: {case + 1 - opts.start} cases so far, {failed} failed", file=sys.stderr, flush=True)
            shutil.rmtree(out, ignore_errors=True)
            os.remove(file)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if failed:
        print(f"failing cases kept in {keep}", file=sys.stderr)
    print(f"fuzz: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
