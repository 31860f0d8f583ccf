#!/usr/bin/env python3
"""Unit check of bench/window-scaling-report.py on fixed guest output.

Run: python3 bench/tests/test_window_scaling_report.py
Prints one PASS/FAIL line per case; exits non-zero if any case fails.

Fixture (written here): kernels "before" (2 boots) and "stage" (1 boot),
two reps per boot, order 1, vfallback and vmalloc from 1 and 2 threads.
before: vfallback 1000 ops/s alone and 1200 with 2 threads in boot 1 rep
1 (1.2x), 1000/1400 in the other three (1.4x): median scaling 1.4,
median 1-thread 1000. stage: vfallback 1500 alone, 2700 with 2 threads
(1.8x); vmalloc 2000/3000 on both kernels (ratio 1.00). A boot without
output (failed) must be ignored; a malformed line must stop the report.
vfallback over vmalloc in the same boot and rep: before 0.50 (1000/2000)
alone and 0.47 (1400/3000, three of four) with 2 threads; stage 0.75 and
0.90. A profile of the stage
kernel: alloc_vmap_area 4.0 + rb_insert_color 1.5 = 5.5 % vmap-area
functions, _raw_spin_lock 2.0 %.
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPORT = os.path.join(HERE, "..", "window-scaling-report.py")

fails = passes = 0


def case(name, ok, detail=""):
    global fails, passes
    if ok:
        passes += 1
        print(f"PASS: {name}")
    else:
        fails += 1
        print(f"FAIL: {name} {detail}")


def line(rep, method, threads, ops_s):
    return (f"par rep={rep} method={method} order=1 threads={threads} cpus=2 ms=2000 "
            f"hold=4 ops={ops_s * 2} ops_per_s={ops_s} fail=0 virtual={ops_s * 2 if method == 'vfallback' else 0} "
            f"thread_min_ops={ops_s} thread_max_ops={ops_s} elapsed_ms=2000\n")


def boot(root, name, label, cells):
    d = os.path.join(root, name)
    os.makedirs(d)
    with open(os.path.join(d, "label"), "w") as f:
        f.write(label + "\n")
    with open(os.path.join(d, "accel"), "w") as f:
        f.write("tcg\n")
    with open(os.path.join(d, "winscale.txt"), "w") as f:
        f.write("mode: always\ncpus: 2\n")
        for c in cells:
            f.write(line(*c))


def run(root, out):
    return subprocess.run([sys.executable, REPORT, root, out, "2G", "2", "before", "stage"],
                          capture_output=True, text=True)


with tempfile.TemporaryDirectory() as tmp:
    root = os.path.join(tmp, "raw")
    out = os.path.join(tmp, "out")
    os.makedirs(out)
    vm = [(r, "vmalloc", t, 2000 if t == 1 else 3000) for r in (1, 2) for t in (1, 2)]
    boot(root, "winscale-before-1", "before",
         [(1, "vfallback", 1, 1000), (1, "vfallback", 2, 1200),
          (2, "vfallback", 1, 1000), (2, "vfallback", 2, 1400)] + vm)
    boot(root, "winscale-before-2", "before",
         [(r, "vfallback", t, 1000 if t == 1 else 1400) for r in (1, 2) for t in (1, 2)] + vm)
    boot(root, "winscale-stage-1", "stage",
         [(r, "vfallback", t, 1500 if t == 1 else 2700) for r in (1, 2) for t in (1, 2)] + vm)
    os.makedirs(os.path.join(root, "winscale-stage-2"))  # failed boot: no output
    with open(os.path.join(root, "winscale-stage-1", "perf-par-vfallback.txt"), "w") as f:
        f.write("# perf record\n    10.00%  [k] vfb_par_fn   -  -\n     4.00%  [k] alloc_vmap_area  -  -\n"
                "     2.00%  [k] _raw_spin_lock  -  -\n     1.50%  [k] rb_insert_color  -  -\n")
    p = run(root, out)
    case("report exits 0", p.returncode == 0, p.stderr)
    md = open(os.path.join(out, "window-scaling.md")).read() if p.returncode == 0 else ""
    rows = open(os.path.join(out, "window-scaling.csv")).read().splitlines() if p.returncode == 0 else []
    case("csv: header and one row per cell of the boots with output", len(rows) == 1 + 24, f"{len(rows)} lines")
    case("boots counted per kernel (failed boot left out)", "before 2, stage 1" in md, md[:300])
    case("median ops/s per kernel", "| vfallback | 1 | 1 | 1000 | 1500 |" in md, md)
    case("scaling: median of same-boot ratios", "| vfallback | 1 | 2 | 1.40 | 1.80 |" in md, md)
    case("stage over before", "| vfallback | 1 | 1 | 1.50 |" in md and "| vfallback | 1 | 2 | 1.93 |" in md, md)
    case("vmalloc reference at 1.00", "| vmalloc | 1 | 1 | 1.00 |" in md and "| vmalloc | 1 | 2 | 1.00 |" in md, md)
    case("vfallback over vmalloc, same boot and rep", "| vfallback | 1 | 1 | 0.50 | 0.75 |" in md
         and "| vfallback | 1 | 2 | 0.47 | 0.90 |" in md, md)
    case("profile shares: vmap-area functions and spinlocks",
         "| stage | vfallback | winscale-stage-1 | 5.5 | 2.0 | vfb_par_fn 10.0, alloc_vmap_area 4.0" in md, md)
    case("accelerator named", "accelerator tcg" in md, md[:300])

    bad = os.path.join(tmp, "bad")
    boot(bad, "winscale-stage-1", "stage", [])
    with open(os.path.join(bad, "winscale-stage-1", "winscale.txt"), "a") as f:
        f.write("par rep=1 method=vfallback order=1 threads=x\n")
    p = run(bad, out)
    case("a malformed line stops the report and names the file",
         p.returncode != 0 and "winscale.txt" in (p.stderr + p.stdout), p.stderr)

    empty = os.path.join(tmp, "empty")
    os.makedirs(os.path.join(empty, "winscale-stage-1"))
    p = run(empty, out)
    case("no output at all is an error", p.returncode != 0 and "every boot failed" in (p.stderr + p.stdout), p.stderr)

print(f"{passes} passed, {fails} failed")
sys.exit(1 if fails else 0)
