#!/usr/bin/env python3
"""Unit check of bench/perf-report.py on fixed CSVs.

Run: python3 bench/tests/test_perf_report.py
Prints one PASS/FAIL line per case; exits non-zero if any case fails.

Fixtures (written here):
- fastpath.csv: kernels "before" and "current", two boots each. current's
  vfallback/plain is 1.02 at p50 and p99 at order 1 and 1.05 at p99 at
  order 2: goal 1 FAIL, the order-2 p99 cell named FAIL and the others
  PASS; "before" (1.50 everywhere) must not count. A failed boot row is
  ignored.
- test-vmalloc.csv: two tests, two boot pairs; test a 1.01 (PASS), test b
  1.10 (FAIL): goal 4 FAIL; align_shift_alloc_test (2.00, failed, as it
  does by design): shown, not judged. With test b at 1.00: PASS; another
  test that failed, or one measured on one kernel only: FAIL.
- fastpath.csv has orders 1 and 2 only: goal 1 names orders 3-10 as not
  measured.
- workloads.csv with a metric of plain only: goal 5 FAIL.
- workloads.csv: files/s 0.99 of plain (PASS), slow path 2.0 vs 3.0 per
  1000 (PASS): goal 5 PASS; with A/A rows (plainaa 1.02 and 0.96 of
  plain) the same, the A/A cell 0.990 (0.960-1.020) shown.
- No deferred.csv and no fastpath-frag.csv: goals 2 and 3 "not measured".
- deferred.csv with orders 1-10 in none and unmovable at 0.9x vmalloc:
  goal 2 PASS; without none order 10: FAIL, naming the missing cell.
- perf-run.txt: absent (separate runs), without CSV digests (not one
  run), with the CSV's digest (one run, its record shown), with the CSV
  rewritten after (not one run, the CSV named).
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPORT = os.path.join(HERE, "..", "perf-report.py")
FP = ("kernel,boot,load,accel,order,a,b,a_n,a_fail,a_p50,a_p90,a_p99,b_n,b_fail,"
      "b_p50,b_p90,b_p99,b_physical,b_virtual,clock")
fails = 0


def check(name, cond):
    global fails
    print(f"{'PASS' if cond else 'FAIL'}: perf-report: {name}")
    fails += not cond


def fp_row(kern, boot, order, a50, a99, b50, b99):
    return f"{kern},{boot},0.5,tcg,{order},plain,vfallback,100,0,{a50},0,{a99},100,0,{b50},0,{b99},100,0,tsc"


def write(d, name, lines):
    with open(os.path.join(d, name), "w") as f:
        f.write("\n".join(lines) + "\n")


def report(d):
    r = subprocess.run([sys.executable, REPORT, d], capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def verdict_row(out, goal):
    for ln in out.splitlines():
        if ln.startswith(f"| {goal}. "):
            return ln
    return ""


with tempfile.TemporaryDirectory() as d:
    fp = [FP]
    for b in (1, 2):
        fp += [fp_row("before", b, 1, 1000, 2000, 1500, 3000), fp_row("before", b, 2, 1000, 2000, 1500, 3000),
               fp_row("current", b, 1, 1000, 2000, 1020, 2040), fp_row("current", b, 2, 1000, 2000, 1020, 2100)]
    fp.append("current,3,0.5,failed" + "," * 16)
    write(d, "fastpath.csv", fp)
    tv = ["boot,kernel,run,worker,test,usec,failed,accel"]
    for b in (1, 2):
        for w in (0, 1):
            tv += [f"{b},plain,1,{w},a,1000,0,tcg", f"{b},3,1,{w},a,1010,0,tcg",
                   f"{b},plain,1,{w},align_shift_alloc_test,1000,1,tcg",
                   f"{b},3,1,{w},align_shift_alloc_test,2000,1,tcg",
                   f"{b},plain,1,{w},b,1000,0,tcg", f"{b},3,1,{w},b,1100,0,tcg"]
    write(d, "test-vmalloc.csv", tv)
    wl = ["boot,kernel,metric,value,accel"]
    for b in (1, 2):
        wl += [f"{b},plain,slab workload files/s,100.0,tcg", f"{b},3,slab workload files/s,99.0,tcg",
               f"{b},plain,dentry alloc_slowpath per 1000,3.0,tcg", f"{b},3,dentry alloc_slowpath per 1000,2.0,tcg"]
    write(d, "workloads.csv", wl)
    rc, out = report(d)
    check("exits 0", rc == 0)
    check("goal 1 FAIL (order-2 p99 1.05)", "| FAIL |" in verdict_row(out, 1))
    check("goal 1 reads kernel 'current', not 'before'", "kernel 'current', 2 boots" in verdict_row(out, 1))
    check("goal 1 order 1 passes at p50 and p99", "| 1 | 1.020 (1.020-1.020) | PASS | 1.020 (1.020-1.020) | PASS |" in out)
    check("goal 1 order 2 p99 fails", "| 2 | 1.020 (1.020-1.020) | PASS | 1.050 (1.050-1.050) | FAIL |" in out)
    check("goals 2 and 3 not measured", "not measured" in verdict_row(out, 2) and "not measured" in verdict_row(out, 3))
    check("goal 4 FAIL (test b 1.10)", "| FAIL |" in verdict_row(out, 4) and "| b | 1.100 (1.100-1.100) | FAIL |" in out)
    check("align_shift_alloc_test (fails by design) is shown, not judged",
          "| align_shift_alloc_test | 2.000 (2.000-2.000) | not judged" in out)
    check("goal 1 names the orders it lacks", "orders 3,4,5,6,7,8,9,10 not measured" in verdict_row(out, 1))
    check("goal 4 test a passes", "| a | 1.010 (1.010-1.010) | PASS |" in out)
    check("goal 5 PASS", "| PASS |" in verdict_row(out, 5))
    tv = [ln.replace(",b,1100,", ",b,1000,") for ln in tv]
    write(d, "test-vmalloc.csv", tv)
    rc, out = report(d)
    check("goal 4 PASS once every test is within 1.02", "| PASS |" in verdict_row(out, 4))
    write(d, "test-vmalloc.csv", tv + ["1,plain,1,0,d,1000,1,tcg", "1,3,1,0,d,1000,1,tcg"])
    rc, out = report(d)
    check("any other test that failed fails goal 4", "| FAIL |" in verdict_row(out, 4)
          and "| d | 1.000 (1.000-1.000) | FAIL: the test failed |" in out)
    write(d, "test-vmalloc.csv", tv + ["1,plain,1,0,e,1000,0,tcg"])
    rc, out = report(d)
    check("a test measured on one kernel only fails goal 4", "| FAIL |" in verdict_row(out, 4)
          and "| e | - | FAIL: not measured on both kernels |" in out)
    write(d, "test-vmalloc.csv", tv)
    write(d, "workloads.csv", wl + ["1,plain,lbs 64K seqread MB/s,300.0,tcg"])
    rc, out = report(d)
    check("a workload metric measured on one kernel only fails goal 5", "| FAIL |" in verdict_row(out, 5))
    write(d, "workloads.csv", wl + ["1,plainaa,slab workload files/s,102.0,tcg",
                                    "2,plainaa,slab workload files/s,96.0,tcg"])
    rc, out = report(d)
    check("an A/A boot of plain (plainaa) is shown beside the ratio and does not count as the stage",
          "| PASS |" in verdict_row(out, 5) and "with an A/A boot" in verdict_row(out, 5)
          and "| slab workload files/s | 100.0 | 99.0 | 0.990 (0.990-0.990) | 0.990 (0.960-1.020) | PASS |" in out)
    wl = [ln.replace("3,slab workload files/s,99.0", "3,slab workload files/s,97.0") for ln in wl]
    write(d, "workloads.csv", wl)
    rc, out = report(d)
    check("goal 5 FAIL at 0.97", "| FAIL |" in verdict_row(out, 5))
with tempfile.TemporaryDirectory() as d:
    hdr = ("scenario,variant,deferred_max,boot,method,order,attempts,successes,p50_ns,p99_ns,max_ns,"
           "vfallback_deferred,accel,kernel_release")
    dc = [hdr]
    for sc in ("none", "unmovable"):
        for o in range(1, 11):
            for b in (1, 2):
                dc += [f"{sc},always,7770,{sc}-{b},vfallback,{o},10,10,1,900,1,0,tcg,6.12.118",
                       f"{sc},always,7770,{sc}-{b},vmalloc,{o},10,10,1,1000,1,0,tcg,6.12.118"]
    write(d, "deferred.csv", dc)
    rc, out = report(d)
    check("goal 2 PASS with every order in both scenarios at 0.9", "| PASS |" in verdict_row(out, 2))
    write(d, "deferred.csv", [ln for ln in dc if not ln.startswith("none,always,7770,none-1,vfallback,10,")
                              and not ln.startswith("none,always,7770,none-2,vfallback,10,")])
    rc, out = report(d)
    check("goal 2 cannot pass with a scenario/order cell missing, and names it",
          "| FAIL |" in verdict_row(out, 2) and "none 10" in verdict_row(out, 2))
with tempfile.TemporaryDirectory() as d:
    write(d, "fastpath.csv", [FP] + [fp_row("current", b, o, 1000, 2000, 1000, 2000)
                                     for b in (1, 2) for o in (1, 2)])
    rc, out = report(d)
    check("goal 1 cannot pass with orders 3-10 missing, even if orders 1-2 pass",
          "| FAIL |" in verdict_row(out, 1) and "not measured" in verdict_row(out, 1))
with tempfile.TemporaryDirectory() as d:
    import hashlib
    rows = [FP] + [fp_row("current", b, o, 1000, 2000, 1000, 2000) for b in (1, 2) for o in range(1, 11)]
    write(d, "fastpath.csv", rows)
    rc, out = report(d)
    check("without perf-run.txt the report says separate runs", "**Separate runs**" in out)
    digest = hashlib.sha256(open(os.path.join(d, "fastpath.csv"), "rb").read()).hexdigest()
    write(d, "perf-run.txt", ["run: bench/goals.sh, commit abc1234", "step fastpath: rc=0, 10 s"])
    rc, out = report(d)
    check("a perf-run.txt that records no CSV is not one run", "**Not one run**" in out
          and "records no CSV" in out)
    write(d, "perf-run.txt", ["run: bench/goals.sh, commit abc1234", "step fastpath: rc=0, 10 s",
                              f"sha256 {digest} fastpath.csv"])
    rc, out = report(d)
    check("perf-run.txt with every CSV unchanged: one run, the record shown",
          "**One run**" in out and "commit abc1234" in out and "sha256" not in out)
    write(d, "perf-profile-x.txt", ["# a profile of a later run", " 10.00%  f"])
    rc, out = report(d)
    check("a profile that the run did not record: not one run, and it is named",
          "**Not one run**" in out and "perf-profile-x.txt (not in the record)" in out)
    os.remove(os.path.join(d, "perf-profile-x.txt"))
    write(d, "fastpath.csv", rows + [fp_row("current", 3, 1, 1000, 2000, 1000, 2000)])
    rc, out = report(d)
    check("a CSV rewritten after the run: not one run, and it is named",
          "**Not one run**" in out and "fastpath.csv changed" in out)
with tempfile.TemporaryDirectory() as d:
    write(d, "perf-profile-t.txt", ["# a profile", "    53.68%  swapper          [k] default_idle" + " " * 300 + "-      -   "])
    rc, out = report(d)
    check("a profile line is shown without perf's empty trailing columns and their padding",
          "\n    53.68%  swapper          [k] default_idle\n" in out)
rc, out = report("/nonexistent-dir")
check("a missing directory is refused with a message", rc != 0 and "usage" in out)
sys.exit(1 if fails else 0)
