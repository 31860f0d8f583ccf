#!/usr/bin/env python3
"""Unit check of bench/lb-fallback-io-report.py on fixed guest output.

Run: python3 bench/tests/test_lb_fallback_io_report.py
Prints one PASS/FAIL line per case; exits non-zero if any case fails.

Fixture (written here), 64 MiB parts: kernel "before" (2 boots) and
"stage" (1 boot), two reps per boot. before: cache write 1000 ms (64
MB/s), cache read 500 ms (128), fallback write 2000 ms (32), fallback
read 1000 ms (64), except boot 2 rep 2 where the cache read took 400 ms
(160: ratio 0.40); fallback/cache medians 0.50 (write) and 0.50 (read).
stage: fallback write 1000 ms (64), read 800 ms (80): over before 2.00
and 1.25. One stage part failed (rc 1): listed, left out. A boot
without output (failed) is ignored; a malformed line stops the report;
no label file of a known kernel stops it too.
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPORT = os.path.join(HERE, "..", "lb-fallback-io-report.py")

fails = passes = 0


def case(name, ok, detail=""):
    global fails, passes
    if ok:
        passes += 1
        print(f"PASS: {name}")
    else:
        fails += 1
        print(f"FAIL: {name} {detail}")


def boot(root, name, label, parts):
    d = os.path.join(root, name)
    os.makedirs(d)
    with open(os.path.join(d, "label"), "w") as f:
        f.write(label + "\n")
    with open(os.path.join(d, "accel"), "w") as f:
        f.write("tcg\n")
    if parts is None:
        return
    with open(os.path.join(d, "lbio.txt"), "w") as f:
        for rep, path, op, ms, rc in parts:
            blocks = 1024 if path == "fallback" else 0
            f.write(f"lbio rep={rep} path={path} op={op} mb=64 ms={ms} rc={rc} fallback_blocks={blocks}\n")


def before_parts(cache_read_rep2=500):
    out = []
    for rep in (1, 2):
        out += [(rep, "cache", "write", 1000, 0),
                (rep, "cache", "read", cache_read_rep2 if rep == 2 else 500, 0),
                (rep, "fallback", "write", 2000, 0),
                (rep, "fallback", "read", 1000, 0)]
    return out


def run(root, res, *labels):
    return subprocess.run([sys.executable, REPORT, root, res, "2G", "2", *labels],
                          capture_output=True, text=True)


with tempfile.TemporaryDirectory() as t:
    raw, res = os.path.join(t, "raw"), os.path.join(t, "res")
    boot(raw, "lbio-before-1", "before", before_parts())
    boot(raw, "lbio-before-2", "before", before_parts(cache_read_rep2=400))
    stage = []
    for rep in (1, 2):
        stage += [(rep, "cache", "write", 1000, 0), (rep, "cache", "read", 500, 0),
                  (rep, "fallback", "write", 1000, 0), (rep, "fallback", "read", 800, 0)]
    stage.append((3, "fallback", "read", 5, 1))
    boot(raw, "lbio-stage-1", "stage", stage)
    boot(raw, "lbio-stage-2", "stage", None)
    p = run(raw, res, "before", "stage")
    case("report runs", p.returncode == 0, p.stderr)
    md = open(os.path.join(res, "lb-fallback-io.md")).read() if p.returncode == 0 else ""
    rows = open(os.path.join(res, "lb-fallback-io.csv")).read().splitlines() if p.returncode == 0 else []
    case("csv: one row per part, header first", len(rows) == 1 + 8 + 8 + 9, f"{len(rows)} rows")
    case("before write: cache 64.0, fallback 32.0, ratio 0.50 (n=4)",
         "| before | write | 64.0 | 32.0 | 0.50 (n=4) |" in md, md)
    case("before read: median ratio 0.50 over the same boot and rep (one 0.40)",
         "| before | read | 128.0 | 64.0 | 0.50 (n=4) |" in md, md)
    case("stage over before: write 2.00, read 1.25", "| stage | 2.00 | 1.25 |" in md, md)
    case("a failed part is listed and left out",
         "stage lbio-stage-1 rep 3 fallback read: rc 1" in md and
         "| stage | read | 128.0 | 80.0 | 0.62 (n=2) |" in md, md)
    case("boots per kernel: a boot without output is not counted", "before 2, stage 1" in md, md)
    case("conditions named: accelerator and memory", "accelerator tcg" in md and "2G / 2 CPUs" in md, md)

    bad = os.path.join(t, "bad")
    boot(bad, "lbio-before-1", "before", before_parts())
    with open(os.path.join(bad, "lbio-before-1", "lbio.txt"), "a") as f:
        f.write("lbio rep=3 path=cache op=read\n")
    p = run(bad, os.path.join(t, "res2"), "before")
    case("a malformed line stops the report", p.returncode != 0 and "without" in p.stderr, p.stderr)

    odd = os.path.join(t, "odd")
    boot(odd, "lbio-other-1", "other", before_parts())
    p = run(odd, os.path.join(t, "res3"), "before")
    case("a boot of an unknown kernel stops the report", p.returncode != 0 and "other" in p.stderr, p.stderr)

    p = run(os.path.join(t, "none"), os.path.join(t, "res4"), "before")
    case("a missing raw directory is refused", p.returncode != 0 and "not a directory" in p.stderr, p.stderr)

print(f"{passes} passed, {fails} failed")
sys.exit(1 if fails else 0)
