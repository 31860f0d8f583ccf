#!/usr/bin/env python3
"""Unit check of bench/fastpath-report.py on a fixed CSV.

Run: python3 bench/tests/test_fastpath_report.py
Prints one PASS/FAIL line per case; exits non-zero if any case fails.

Fixture (written here): three boots, orders 1 and 2. At order 1, plain
against itself stays within 1 %, vfallback is 1.10x at p50 and 1.01x at
p99: FAIL and PASS, neither marked as noise. At order 2, plain against
itself moves by 5 % in one boot and vfallback is 1.02x: PASS, marked
(noise 5.0%). A failed boot row must be ignored.

Fragmented part: two boots, two rounds each; order 1 auto 1300 vs always
1000 ns (1.300: FAIL), order 2 auto 1100 vs 1000 (1.100: PASS), 7 skips
per auto cell.
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPORT = os.path.join(HERE, "..", "fastpath-report.py")
HEADER = ("kernel,boot,load,accel,order,a,b,a_n,a_fail,a_p50,a_p90,a_p99,b_n,b_fail,"
          "b_p50,b_p90,b_p99,b_physical,b_virtual,clock")
FRAG_HEADER = "kernel,boot,accel,order,round,mode,skips,attempts,successes,p50,p99,physical,virtual,oom_attempts,clock"

# (order, a, b): per boot (a_p50, a_p99, b_p50, b_p99)
CELLS = {
    (1, "plain", "plain"): [(1000, 2000, 1005, 2010), (1000, 2000, 995, 1990), (1000, 2000, 1000, 2000)],
    (1, "plain", "vfallback"): [(1000, 2000, 1100, 2020), (1000, 2000, 1100, 2020), (1000, 2000, 1100, 2020)],
    (1, "plain_noreclaim", "vfallback"): [(1000, 2000, 1000, 2000)] * 3,
    (2, "plain", "plain"): [(1000, 2000, 1050, 2000), (1000, 2000, 1000, 2000), (1000, 2000, 1000, 2000)],
    (2, "plain", "vfallback"): [(1000, 2000, 1020, 2040)] * 3,
    (2, "plain_noreclaim", "vfallback"): [(1000, 2000, 1000, 2000)] * 3,
}

fails = passes = 0


def check(name, cond):
    global fails, passes
    print(("PASS: " if cond else "FAIL: ") + name)
    fails += not cond
    passes += bool(cond)


def row_of(md, order, title):
    sect = md.split("### " + title, 1)
    if len(sect) < 2:
        return ""
    for line in sect[1].split("\n##")[0].splitlines():
        if line.startswith(f"| {order} |"):
            return line
    return ""


with tempfile.TemporaryDirectory() as tmp:
    csvf = os.path.join(tmp, "fastpath.csv")
    with open(csvf, "w") as f:
        print(HEADER, file=f)
        for (o, a, b), boots in CELLS.items():
            for i, (a50, a99, b50, b99) in enumerate(boots, 1):
                print(f"current,{i},0.10,tcg,{o},{a},{b},100,0,{a50},{a50},{a99},100,0,{b50},{b50},{b99},100,0,tsc",
                      file=f)
        print("current,4,0.20,failed" + "," * 16, file=f)
    out = subprocess.run([sys.executable, REPORT, csvf], capture_output=True, text=True)
    check("report exits 0", out.returncode == 0)
    md = out.stdout
    check("3 boots counted, the failed one named", "3 boot(s) measured, 1 failed" in md)
    r = row_of(md, 1, "plain vs vfallback")
    check("order 1: p50 ratio 1.100, FAIL", "1.100 (1.100-1.100)" in r and "| FAIL |" in r)
    check("order 1: p99 ratio 1.010, PASS, not marked", r.endswith("| PASS |"))
    r = row_of(md, 2, "plain vs vfallback")
    check("order 2: p50 1.020 PASS marked (noise 5.0%)", "1.020" in r and "PASS (noise 5.0%)" in r)
    r = row_of(md, 1, "A/A: plain vs plain")
    check("order 1 A/A: median 1.000 (0.995-1.005)", "1.000 (0.995-1.005)" in r)
    fcsv = os.path.join(tmp, "fastpath-frag.csv")
    with open(fcsv, "w") as f:
        print(FRAG_HEADER, file=f)
        for b in (1, 2):
            for o, auto in ((1, 1300), (2, 1100)):
                for r in (1, 2):
                    print(f"current,{b},tcg,{o},{r},auto,7,100,100,{auto},{2 * auto},0,100,0,tsc", file=f)
                    print(f"current,{b},tcg,{o},{r},always,0,100,100,1000,2000,0,100,0,tsc", file=f)
    out = subprocess.run([sys.executable, REPORT, csvf, fcsv], capture_output=True, text=True)
    md = out.stdout
    r = row_of(md, 1, "Under fragmentation")
    check("frag order 1: 4 rounds, ratio 1.300, FAIL, 28 skips",
          "| 4 |" in r and "1.300 (1.300-1.300)" in r and "| 28 |" in r and r.endswith("| FAIL | FAIL |"))
    r = row_of(md, 2, "Under fragmentation")
    check("frag order 2: ratio 1.100, PASS", "1.100" in r and r.endswith("| PASS | PASS |"))
    # Two kernels: each gets its section, and a side-by-side table.
    two = os.path.join(tmp, "two.csv")
    with open(two, "w") as f:
        print(HEADER, file=f)
        for kern, b50 in (("before", 1100), ("current", 1040)):
            for i in (1, 2):
                for a, b in (("plain", "plain"), ("plain", "vfallback")):
                    bb = 1000 if b == "plain" else b50
                    print(f"{kern},{i},0.10,tcg,1,{a},{b},100,0,1000,1000,2000,100,0,{bb},{bb},2000,100,0,tsc",
                          file=f)
    out = subprocess.run([sys.executable, REPORT, two], capture_output=True, text=True)
    md = out.stdout
    check("two kernels: a section each, before first",
          "## Kernel: before" in md and md.index("## Kernel: before") < md.index("## Kernel: current"))
    check("two kernels: side-by-side row plain/vfallback p50 1.100 -> 1.040",
          "| plain/vfallback p50 | 1 | 1.100 | 1.040 |" in md)
    # --collect: one boot's guest output appended to both CSVs.
    txt = os.path.join(tmp, "fastpath.txt")
    with open(txt, "w") as f:
        print("mode: [auto] always", file=f)
        print("pair a=plain b=vfallback order=2 iters=10 a_n=10 a_fail=0 a_p50_ns=900 a_p90_ns=950 "
              "a_p99_ns=990 a_physical=10 a_virtual=0 b_n=10 b_fail=0 b_p50_ns=1000 b_p90_ns=1050 "
              "b_p99_ns=1100 b_physical=10 b_virtual=0 elapsed_ms=1 budget_hit=0 clock=tsc", file=f)
        print("frag order=1 round=1 mode=auto skips=5 method=vfallback order=1 iters=10 hold=0 attempts=10 "
              "successes=10 p50_ns=2000 p99_ns=3000 max_ns=4000 physical=0 virtual=10 oom_attempts=0 clock=tsc",
              file=f)
    c2, f2 = os.path.join(tmp, "c2.csv"), os.path.join(tmp, "f2.csv")
    out = subprocess.run([sys.executable, REPORT, "--collect", txt, "before,1,0.1,tcg", "before,1,tcg", c2, f2],
                         capture_output=True, text=True)
    check("collect exits 0", out.returncode == 0)
    check("collect: pair row", open(c2).read().strip() ==
          "before,1,0.1,tcg,2,plain,vfallback,10,0,900,950,990,10,0,1000,1050,1100,10,0,tsc")
    check("collect: frag row (the cell's own order, not the run's)", open(f2).read().strip() ==
          "before,1,tcg,1,1,auto,5,10,10,2000,3000,0,10,0,tsc")
    with open(txt, "a") as f:
        print("pair a=plain b=vfallback order=3", file=f)
    out = subprocess.run([sys.executable, REPORT, "--collect", txt, "x", "y", c2, f2], capture_output=True, text=True)
    check("collect: a truncated line is an error that names it", out.returncode != 0 and "lacks" in out.stderr)
    # Other pairs (PAIRS=...): their own sections, the method against
    # itself first as the floor, b's physical share and failures, no goal
    # verdict; "pairfrag" lines under a "-fragmented" kernel label.
    gen = os.path.join(tmp, "gen.csv")
    with open(gen, "w") as f:
        print(HEADER, file=f)
        for i in (1, 2, 3):
            print(f"current,{i},0.10,tcg-icount,3,vfallback,kvmalloc_2025,100,0,1000,1000,2000,100,1,"
                  f"{1500 + 100 * i},1600,3000,60,39,tsc", file=f)
            print(f"current,{i},0.10,tcg-icount,3,vfallback,vfallback,100,0,1000,1000,2000,100,0,"
                  f"{980 + 10 * i},1000,2000,100,0,tsc", file=f)
    out = subprocess.run([sys.executable, REPORT, gen], capture_output=True, text=True)
    md = out.stdout
    check("other pairs: exit 0, the A/A pair listed before the comparison",
          out.returncode == 0 and 0 <= md.find("### A/A: vfallback vs vfallback") < md.find("### vfallback vs kvmalloc_2025"))
    r = row_of(md, 3, "vfallback vs kvmalloc_2025")
    check("other pairs: ratio 1.700 (1.600-1.800), b physical/virtual 180 / 117, failures 0 / 3, no verdict",
          "1.700 (1.600-1.800)" in r and "| 180 / 117 |" in r and "| 0 / 3 |" in r and "PASS" not in r and "FAIL" not in r)
    r = row_of(md, 3, "A/A: vfallback vs vfallback")
    check("other pairs: the A/A row 1.000 (0.990-1.010)", "1.000 (0.990-1.010)" in r)
    with open(txt, "w") as f:
        print("pairfrag a=vfallback b=kvmalloc order=2 iters=10 a_n=10 a_fail=0 a_p50_ns=900 a_p90_ns=950 "
              "a_p99_ns=990 b_n=10 b_fail=0 b_p50_ns=1000 b_p90_ns=1050 b_p99_ns=1100 b_physical=0 "
              "b_virtual=10 clock=tsc", file=f)
    c3, f3 = os.path.join(tmp, "c3.csv"), os.path.join(tmp, "f3.csv")
    out = subprocess.run([sys.executable, REPORT, "--collect", txt, "current,2,0.1,tcg", "current,2,tcg", c3, f3],
                         capture_output=True, text=True)
    check("collect: a pairfrag row goes to the pair CSV as kernel current-fragmented",
          out.returncode == 0 and open(c3).read().strip() ==
          "current-fragmented,2,0.1,tcg,2,vfallback,kvmalloc,10,0,900,950,990,10,0,1000,1050,1100,0,10,tsc")
    # Held allocations under pressure (PRESSURE=reclaim): collected into
    # the hold CSV; false fallbacks counted only in boots where plain got
    # every block (order 3: boots 1 and 2, vfallback virtual 2 % and 6 %:
    # median 4 %, FAIL; order 1: 0.5 %, PASS; order 9: plain missed in
    # every boot: not measured).
    with open(txt, "w") as f:
        print("hold method=vfallback order=3 iters=100 hold=100 attempts=100 successes=100 p50_ns=10 "
              "p99_ns=20 path=mixed physical=98 virtual=2 memfree_kb=5000 clock=ktime", file=f)
        print("pair a=plain b=vfallback order=3 iters=10 a_n=10 a_fail=0 a_p50_ns=900 a_p90_ns=950 "
              "a_p99_ns=990 b_n=10 b_fail=0 b_p50_ns=1000 b_p90_ns=1050 b_p99_ns=1100 b_physical=10 "
              "b_virtual=0 clock=tsc", file=f)
    c4, f4, h4 = (os.path.join(tmp, n) for n in ("c4.csv", "f4.csv", "h4.csv"))
    out = subprocess.run([sys.executable, REPORT, "--collect", txt, "current,1,0.1,tcg", "current,1,tcg", c4, f4, h4],
                         capture_output=True, text=True)
    check("collect: a hold line goes to the hold CSV",
          out.returncode == 0 and open(h4).read().strip() == "current,1,tcg,3,vfallback,100,100,98,2,10,20,5000,ktime")
    hold = os.path.join(tmp, "hold.csv")
    with open(hold, "w") as f:
        print("kernel,boot,accel,order,method,attempts,successes,physical,virtual,p50_ns,p99_ns,memfree_kb,clock", file=f)
        for b, (pl3, vv3) in enumerate([(100, 2), (100, 6), (97, 1)], 1):
            print(f"current,{b},tcg,3,plain,100,{pl3},0,0,10,20,1,ktime", file=f)
            print(f"current,{b},tcg,3,vfallback,100,100,{100 - vv3},{vv3},10,20,1,ktime", file=f)
            print(f"current,{b},tcg,1,plain,200,200,0,0,10,20,1,ktime", file=f)
            print(f"current,{b},tcg,1,vfallback,200,200,199,1,10,20,1,ktime", file=f)
            print(f"current,{b},tcg,9,plain,10,9,0,0,10,20,1,ktime", file=f)
            print(f"current,{b},tcg,9,vfallback,10,10,5,5,10,20,1,ktime", file=f)
            print(f"current,{b},tcg,3,plain_noretry,100,90,0,0,10,20,1,ktime", file=f)
    with open(c4, "w") as f:
        print(HEADER, file=f)
        print("current,1,0.10,tcg,3,plain,vfallback,10,0,900,950,990,10,0,1000,1050,1100,10,0,tsc", file=f)
    out = subprocess.run([sys.executable, REPORT, c4, f4, hold], capture_output=True, text=True)
    md = out.stdout
    check("hold: the section is there", out.returncode == 0 and "### Held allocations under page-cache pressure" in md)
    check("hold: the title says page-cache pressure, not the fast-path goals",
          md.startswith("# Allocations under page-cache pressure") and "Goals 1 and 3" not in md)
    check("hold: plain vs vfallback without an A/A pair gets no verdict",
          "no verdict (no A/A pair)" in row_of(md, 3, "plain vs vfallback") and "PASS" not in row_of(md, 3, "plain vs vfallback"))
    check("hold: order 3 false fallbacks over the 2 boots where plain got every block: 4.0 % (2.0-6.0), FAIL",
          "| 3 | vfallback | 2 | 4.0% (2.0%-6.0%) | FAIL |" in md)
    check("hold: order 1 false fallbacks 0.5 %, PASS", "| 1 | vfallback | 3 | 0.5% (0.5%-0.5%) | PASS |" in md)
    check("hold: a method without a virtual path has no false-fallback row, its success share is shown",
          "| 3 | plain_noretry |" not in md.split("false fallbacks <= 1 %")[1] and
          "| 3 | plain_noretry | 3 | 90.0% (90.0%-90.0%) | 90.0% (90.0%-90.0%) | 0.0% (0.0%-0.0%) |" in md)
    check("hold: order 9 not measured (plain missed blocks in every boot)",
          "| 9 | vfallback | 0 | - | not measured" in md)
    check("hold: plain's success at order 3 is the median 100 % (97-100)",
          "| 3 | plain | 3 | 100.0% (97.0%-100.0%) |" in md)
    bad = os.path.join(tmp, "empty.csv")
    with open(bad, "w") as f:
        print(HEADER, file=f)
    out = subprocess.run([sys.executable, REPORT, bad], capture_output=True, text=True)
    check("no successful boot: non-zero exit with a message", out.returncode != 0 and "no successful boot" in out.stderr)

print(f"{passes} passed, {fails} failed")
sys.exit(1 if fails else 0)
