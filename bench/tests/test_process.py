#!/usr/bin/env python3
"""Unit check of bench/process.py on the fixed input in fixtures/runs.

Run: python3 bench/tests/test_process.py
Prints one PASS/FAIL line per case; exits non-zero if any case fails.

The fixture has three boots: plain/default unmovable (plain_noretry fails,
plain succeeds through OOM releases), stage1/always none (vfallback
virtual, plain_noretry physical: access-cost ratios 1.50 and 1.30 for
seq against the physical reference of the same cell), stage1/default unmovable (a failed boot that reported 3 of its 10
cells: the other 7 must appear as status=missing).
"""
import csv
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PROCESS = os.path.join(HERE, "..", "process.py")
FIXTURES = os.path.join(HERE, "fixtures", "runs")
HEADER = ("kernel,variant,accel,scenario,method,order,attempts,successes,p50_ns,"
          "p99_ns,max_ns,seq_ns_per_page,rand_ns_per_page,compact_stall")

failures = 0


def check(name, cond, detail=""):
    global failures
    if cond:
        print(f"PASS: process: {name}")
    else:
        failures += 1
        print(f"FAIL: process: {name}" + (f" ({detail})" if detail else ""))


def row(rows, **kw):
    for r in rows:
        if all(r.get(k) == v for k, v in kw.items()):
            return r
    return None


def main():
    with tempfile.TemporaryDirectory() as out:
        p = subprocess.run([sys.executable, PROCESS, FIXTURES, "--out", out],
                           capture_output=True, text=True)
        check("runs on the fixture (exit 0)", p.returncode == 0, p.stderr.strip()[-300:])

        path = os.path.join(out, "alloc.csv")
        check("writes alloc.csv", os.path.exists(path))
        if not os.path.exists(path):
            return
        with open(path) as f:
            header = f.readline().strip()
        check("alloc.csv starts with the fixed columns", header.startswith(HEADER + ","), header[:160])
        with open(path) as f:
            rows = list(csv.DictReader(f))
        check("alloc.csv has 28 rows (21 reported + 7 missing)", len(rows) == 28, f"{len(rows)} rows")

        r = row(rows, kernel="plain", variant="default", scenario="unmovable",
                method="plain_noretry", order="3")
        check("row plain/default unmovable plain_noretry order 3",
              r is not None and r["attempts"] == "200" and r["successes"] == "0"
              and r["p99_ns"] == "1300000" and r["compact_stall"] == "402" and r["accel"] == "tcg"
              and r["seq_ns_per_page"] == "-1" and r["status"] == "ok",
              str(r and {k: r[k] for k in HEADER.split(",")}))
        check("perf columns: dTLB-load-misses recorded as unsupported",
              r is not None and r["perf_dtlb_load_misses"] == "unsupported"
              and r["perf_task_clock_ms"] == "61.00")
        r = row(rows, kernel="plain", variant="default", scenario="unmovable", method="plain", order="1")
        check("row keeps oom_released and success_rate",
              r is not None and r["oom_released"] == "9728" and r["success_rate"] == "100.0")
        r = row(rows, kernel="stage1", variant="default", scenario="unmovable",
                method="vfallback", order="3")
        check("a cell the failed boot did not report is recorded as missing, successes 0",
              r is not None and r["status"] == "missing" and r["successes"] == "0"
              and r["boot"] == "FAIL", str(r))
        check("plain kernel has no vfallback rows",
              row(rows, kernel="plain", method="vfallback") is None)
        r = row(rows, kernel="stage1", variant="always", scenario="none", method="vfallback", order="1")
        check("vfallback row carries path and vfallback_* deltas",
              r is not None and r["path"] == "virtual" and r["vfallback_virtual"] == "201"
              and r["access_path"] == "virtual")

        readme = os.path.join(out, "README.md")
        text = open(readme).read() if os.path.exists(readme) else ""
        check("writes README.md", bool(text))
        check("README states the conditions (TCG, memory, kernel)",
              "tcg" in text and "memory 2G" in text and "6.12.118" in text and "emulator times" in text)
        check("README has the unmovable table with plain, plain_noretry, vfallback",
              "### Scenario `unmovable`" in text
              and "| order | plain/default plain | plain/default plain_noretry | stage1/default plain |"
              " stage1/default plain_noretry | stage1/default vfallback |" in text)
        check("README table row: order 3 under unmovable",
              "| 3 | 100% · 660.0 µs | 0% · 1.30 ms | **missing** | **missing** | **missing** |" in text)
        check("README access-cost ratios virtual/physical per order (vfallback 1.50, 1.30 seq)",
              "| order | stage1/always vfallback (virtual) seq | rand | stage1/always vmalloc seq |" in text
              and "| 1 | 1.50 | 1.50 | 1.25 | 1.25 |" in text
              and "| 3 | 1.30 | 1.25 | 1.30 | 1.25 |" in text)
        r = row(rows, kernel="stage1", variant="always", scenario="none", method="vfallback", order="3")
        check("alloc.csv has the in-cell ratio against the physical reference",
              r is not None and r["seq_vs_ref"] == "1.300" and r["rand_vs_ref"] == "1.250")
        check("README check: vfallback 100% where plain_noretry failed",
              "vfallback 100% successful: **yes**" in text)
        check("README names the failed boot", "failed: 1 (stage1/default unmovable: FAIL)" in text)

        for png in ("success_rate.png", "p99_latency.png", "access_cost.png"):
            pth = os.path.join(out, png)
            ok = os.path.exists(pth) and open(pth, "rb").read(8) == b"\x89PNG\r\n\x1a\n"
            check(f"plot {png} written (PNG)", ok)
            check(f"README links {png}", f"]({png})" in text)

    with tempfile.TemporaryDirectory() as empty:
        p = subprocess.run([sys.executable, PROCESS, empty, "--out", os.path.join(empty, "o")],
                           capture_output=True, text=True)
        check("a directory without runs is an error (exit 2, says why)",
              p.returncode == 2 and "no run" in p.stderr, p.stderr.strip())
    p = subprocess.run([sys.executable, PROCESS, "/nonexistent-vf-runs"], capture_output=True, text=True)
    check("a missing directory is an error", p.returncode == 2 and "not a directory" in p.stderr)


if __name__ == "__main__":
    main()
    print(f"process tests: {failures} failure(s)")
    sys.exit(1 if failures else 0)
