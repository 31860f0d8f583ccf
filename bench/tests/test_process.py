#!/usr/bin/env python3
"""Unit check of bench/process.py on the fixed input in fixtures/runs.

Run: python3 bench/tests/test_process.py
Prints one PASS/FAIL line per case; exits non-zero if any case fails.

The fixture has four boots: plain/default unmovable (plain_noretry fails,
plain succeeds through OOM releases), stage1/always none (vfallback
virtual, plain_noretry physical: access-cost ratios 1.50 and 1.30 for
seq against the physical reference of the same cell), stage1/default unmovable (a failed boot that reported 3 of its 10
cells: the other 7 must appear as status=missing), stage1/always unmovable
(cycle and hold cells of plain_noretry, plain and vfallback at orders 1, 3,
and a vmalloc cycle cell at order 1 for the context of a missed p99).

The large-block case (lbs_case) builds three boots with lbs-raw.txt and fio
JSON: plain 64K reads failing with ENOMEM, stage 3 reading through the
fallback, and the XFS buffer-cost rows.

The slab-workload case copies plain-default-unmovable and adds a
stage2/always unmovable boot (meta and slab-raw.txt only), each with a
slab-raw.txt for dentry and buffer_head, into a temporary directory.
"""
import csv
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PROCESS = os.path.join(HERE, "..", "process.py")
FIXTURES = os.path.join(HERE, "fixtures", "runs")
HEADER = ("kernel,variant,accel,scenario,method,order,attempts,successes,p50_ns,"
          "p99_ns,max_ns,seq_ns_per_page,rand_ns_per_page,compact_stall")
SLAB_HEADER = ("kernel,variant,accel,scenario,cache,order,objs_per_slab,files,files_per_s,"
               "alloc_fastpath,alloc_slowpath,alloc_slab,free_slab,order_fallback,alloc_from_partial,"
               "slowpath_per_1000,slabs_after,slabs_virtual_after,slabs_physical_after,merged,"
               "pgsteal_kswapd,pgscan_kswapd,pageoutrun,kswapd_low_wmark_hit_quickly,"
               "kswapd_high_wmark_hit_quickly,compact_daemon_wake,compact_daemon_migrate_scanned,"
               "compact_daemon_free_scanned,slabs_scanned,allocstall_normal,compact_stall,"
               "vfallback_physical,vfallback_virtual")
# plain: dentry order 1 with order fallbacks, buffer_head merged and without
# SLUB_STATS (n/a); stage 2 always: order 4, virtual slabs.
SLAB_PLAIN = """\
scenario=unmovable kernel_release=6.12.118 vf_mode=n/a cache=dentry order=1 objs_per_slab=42 files=4000 centisecs=250 files_per_s=1600.0 alloc_fastpath=7900 alloc_slowpath=100 alloc_slab=95 free_slab=2 order_fallback=95 alloc_from_partial=3 slabs_after=130 slabs_virtual_after=n/a slabs_physical_after=n/a merged=0 pgsteal_kswapd=900 pageoutrun=40 compact_daemon_wake=3 slabs_scanned=5000 allocstall_normal=0 vfallback_physical=n/a vfallback_virtual=n/a
scenario=unmovable kernel_release=6.12.118 vf_mode=n/a cache=buffer_head order=0 objs_per_slab=39 files=4000 centisecs=250 files_per_s=1600.0 alloc_fastpath=n/a alloc_slowpath=n/a alloc_slab=n/a free_slab=n/a order_fallback=n/a alloc_from_partial=n/a slabs_after=n/a slabs_virtual_after=n/a slabs_physical_after=n/a merged=1
"""
SLAB_STAGE2 = """\
scenario=unmovable kernel_release=6.12.118-vf2 vf_mode=always cache=dentry order=4 objs_per_slab=341 files=4000 centisecs=200 files_per_s=2000.0 alloc_fastpath=7976 alloc_slowpath=24 alloc_slab=12 free_slab=0 order_fallback=0 alloc_from_partial=0 slabs_after=30 slabs_virtual_after=12 slabs_physical_after=18 merged=0 pgsteal_kswapd=4000 pageoutrun=120 compact_daemon_wake=11 slabs_scanned=9000 allocstall_normal=2 vfallback_physical=0 vfallback_virtual=12
scenario=unmovable kernel_release=6.12.118-vf2 vf_mode=always cache=buffer_head order=4 objs_per_slab=157 files=4000 centisecs=200 files_per_s=2000.0 alloc_fastpath=4950 alloc_slowpath=50 alloc_slab=26 free_slab=0 order_fallback=0 alloc_from_partial=1 slabs_after=28 slabs_virtual_after=26 slabs_physical_after=2 merged=0
"""
STAGE2_META = """\
kernel=stage2
variant=always
scenario=unmovable
methods=plain_noretry,plain,vfallback,vmalloc,kvmalloc
accel=tcg
mem=2G
cpus=2
bench=quick
boot=PASS
kernel_version=6.12.118-vf2
orders=1,3
"""

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
        check("alloc.csv has 41 rows (34 reported + 7 missing)", len(rows) == 41, f"{len(rows)} rows")

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

        r = row(rows, kernel="stage1", variant="always", scenario="unmovable", method="plain",
                order="1", pattern="hold")
        c = row(rows, kernel="stage1", variant="always", scenario="unmovable", method="plain",
                order="1", pattern="cycle")
        check("hold and cycle cells of one method and order are separate rows",
              r is not None and r["hold"] == "200" and r["p99_ns"] == "9000000"
              and c is not None and c["hold"] == "0" and c["p99_ns"] == "3000", f"{r} {c}")

        readme = os.path.join(out, "README.md")
        text = open(readme).read() if os.path.exists(readme) else ""
        check("writes README.md", bool(text))
        check("README has the held-blocks table with attempts per cell",
              "### Scenario `unmovable`, blocks held" in text and "at most 256 MiB" in text and "released 16 pinned pages" in text
              and "| 3 | 100% · 50.0 µs (64, 16 OOM) | 0% · 1.40 ms (64) | 100% · 70.0 µs (64) |" in text)
        check("README checks the p99 criterion per pattern, naming the orders that miss it",
              "stage1/always, unmovable, cycle (allocate/touch/free cycles), orders where "
              "plain_noretry failed (1,3): vfallback 100% successful: **yes**; vfallback p99 "
              "below plain: **no** (order 1: 80.0 µs vs 3.0 µs [vmalloc 50.0 µs, plain max 6.0 µs], "
              "order 3: 60.0 µs vs 2.0 µs [plain max 4.0 µs])" in text
              and "stage1/always, unmovable, hold (blocks held to the end of the run" in text
              and "below plain: **no** (order 3: 70.0 µs vs 50.0 µs [plain max 100.0 µs])" in text)
        check("README states the conditions (TCG, memory, kernel)",
              "tcg" in text and "memory 2G" in text and "6.12.118" in text and "emulator times" in text)
        check("README has the unmovable table with plain, plain_noretry, vfallback",
              "### Scenario `unmovable`" in text
              and "| order | plain/default plain | plain/default plain_noretry | stage1/default plain |"
              " stage1/default plain_noretry | stage1/default vfallback |" in text)
        check("README table row: order 3 under unmovable",
              "| 3 | 100% · 660.0 µs | 0% · 1.30 ms | **missing** | **missing** | **missing** |" in text)
        check("README: access cost not measurable under TCG (no ratio table for a TCG run)",
              "**Not measurable under TCG**" in text
              and "| 1 | 1.50 | 1.50 | 1.25 | 1.25 |" not in text)
        r = row(rows, kernel="stage1", variant="always", scenario="none", method="vfallback", order="3")
        check("alloc.csv has the in-cell ratio against the physical reference",
              r is not None and r["seq_vs_ref"] == "1.300" and r["rand_vs_ref"] == "1.250")
        check("README check: vfallback 100% where plain_noretry failed",
              "vfallback 100% successful: **yes**" in text)
        check("README names the failed boot", "failed: 1 (stage1/default unmovable: FAIL)" in text)
        check("no slab-raw.txt: README says so",
              "## Slab caches: dentry and buffer_head (SLAB_VFALLBACK on stage 2)\n\n"
              "no slab workload data in this run" in text)
        spath = os.path.join(out, "slab.csv")
        slines = open(spath).read().splitlines() if os.path.exists(spath) else []
        check("no slab-raw.txt: slab.csv has the header only", slines == [SLAB_HEADER], str(slines[:2]))

        for png in ("success_rate.png", "p99_latency.png", "access_cost.png"):
            pth = os.path.join(out, png)
            ok = os.path.exists(pth) and open(pth, "rb").read(8) == b"\x89PNG\r\n\x1a\n"
            check(f"plot {png} written (PNG)", ok)
            check(f"README links {png}", f"]({png})" in text)

    slab_case()
    reclaim_pass_case()
    lbs_case()
    kvm_access_case()
    strict_case()
    repeat_case()
    start_state_case()

    with tempfile.TemporaryDirectory() as empty:
        p = subprocess.run([sys.executable, PROCESS, empty, "--out", os.path.join(empty, "o")],
                           capture_output=True, text=True)
        check("a directory without runs is an error (exit 2, says why)",
              p.returncode == 2 and "no run" in p.stderr, p.stderr.strip())
    p = subprocess.run([sys.executable, PROCESS, "/nonexistent-vf-runs"], capture_output=True, text=True)
    check("a missing directory is an error", p.returncode == 2 and "not a directory" in p.stderr)


def repeat_case():
    """Three boots of one cell: the README gives the median and the spread."""
    with tempfile.TemporaryDirectory() as tmp:
        runs = os.path.join(tmp, "runs")
        for i, factor in ((1, 1), (2, 3), (3, 2)):
            run = os.path.join(runs, f"stage1-always-none-r{i}")
            shutil.copytree(os.path.join(FIXTURES, "stage1-always-none"), run)
            raw = os.path.join(run, "out", "bench-raw.txt")
            lines = []
            for line in open(raw):
                d = dict(kv.split("=", 1) for kv in line.split() if "=" in kv)
                if "p99_ns" in d:
                    line = line.replace(f"p99_ns={d['p99_ns']}", f"p99_ns={int(d['p99_ns']) * factor}")
                lines.append(line)
            open(raw, "w").writelines(lines)
        out = os.path.join(tmp, "out")
        p = subprocess.run([sys.executable, PROCESS, runs, "--out", out], capture_output=True, text=True)
        text = open(os.path.join(out, "README.md")).read() if p.returncode == 0 else ""
        with open(os.path.join(out, "alloc.csv")) as f:
            n = sum(1 for _ in f) - 1
        one = subprocess.run([sys.executable, PROCESS, os.path.join(FIXTURES), "--out",
                              os.path.join(tmp, "o1")], capture_output=True, text=True)
        single = sum(1 for line in open(os.path.join(FIXTURES, "stage1-always-none", "out",
                                                     "bench-raw.txt")))
        check("repeated boots: alloc.csv keeps every boot's cell", n == 3 * single, f"{n} rows")
        check("repeated boots: README cell is the median with the spread and the boot count",
              "| 1 | 100% · 2.0 µs [1.0 µs-3.0 µs], 3 boots |" in text
              and "100% · 60.0 µs [30.0 µs-90.0 µs], 3 boots" in text
              and "Figures are medians over the repeated boots" in text,
              (p.stderr[-300:] or text[:1500]))


def strict_case():
    """A strict boot (no OOM rescue): the headline criterion is PASS only with
    every vfallback attempt successful and no OOM event, and names what failed."""
    for oom, want in (("0", "**PASS** stage1/always, `strict`"), ("3", "**FAIL** stage1/always, `strict`")):
        with tempfile.TemporaryDirectory() as tmp:
            runs = os.path.join(tmp, "runs")
            run = os.path.join(runs, "stage1-always-strict")
            shutil.copytree(os.path.join(FIXTURES, "stage1-always-unmovable"), run)
            meta = os.path.join(run, "meta")
            text = open(meta).read().replace("scenario=unmovable", "scenario=strict")
            text = text.replace("methods=plain_noretry,plain,vfallback",
                                "methods=plain_noretry,plain_mayfail,vfallback")
            open(meta, "w").write(text)
            raw = os.path.join(run, "out", "bench-raw.txt")
            lines = []
            for line in open(raw):
                line = line.replace("scenario=unmovable", "scenario=strict")
                line = line.replace("method=plain ", "method=plain_mayfail ")
                line = line.rstrip("\n") + (f" oom_attempts={oom}" if "method=vfallback" in line
                                            else " oom_attempts=0")
                # The fragmentation held around every cell but one.
                line += (" free_ge_order_before=0 free_ge_order_after=7\n"
                         if "method=plain_noretry order=1 " in line and "hold=0" in line
                         else " free_ge_order_before=0 free_ge_order_after=0\n")
                lines.append(line)
            open(raw, "w").writelines(lines)
            info = os.path.join(run, "out", "bench-info.txt")
            open(info, "w").write(open(info).read().replace("scenario=unmovable", "scenario=strict")
                                  .replace("methods=plain_noretry,plain,vfallback",
                                           "methods=plain_noretry,plain_mayfail,vfallback")
                                  .replace("hold_methods=plain_noretry,plain,vfallback",
                                           "hold_methods=plain_noretry,plain_mayfail,vfallback"))
            out = os.path.join(tmp, "out")
            p = subprocess.run([sys.executable, PROCESS, runs, "--out", out], capture_output=True, text=True)
            text = open(os.path.join(out, "README.md")).read() if p.returncode == 0 else ""
            crit = text.split("## Headline criteria", 1)[-1].split("\n## ", 1)[0]
            check("strict: a cell whose fragmentation collapsed is flagged, the others held",
                  "1 collapsed: stage1/always strict plain_noretry o1/cycle: 7 after" in text
                  and "cells held" in text, text.split("## Checks", 1)[-1][:800])
            check(f"strict criterion with oom_attempts={oom}: {want.split()[0]}",
                  want in crit and "plain_mayfail" in crit and "### Scenario `strict`" in text,
                  (p.stderr[-300:] or crit[:600]))


def kvm_access_case():
    """The same fixture as a KVM run: the access-cost ratios are reported."""
    with tempfile.TemporaryDirectory() as tmp:
        runs = os.path.join(tmp, "runs")
        shutil.copytree(FIXTURES, runs)
        for d in os.listdir(runs):
            meta = os.path.join(runs, d, "meta")
            with open(meta) as f:
                text = f.read().replace("accel=tcg", "accel=kvm")
            with open(meta, "w") as f:
                f.write(text)
        out = os.path.join(tmp, "out")
        p = subprocess.run([sys.executable, PROCESS, runs, "--out", out], capture_output=True, text=True)
        text = open(os.path.join(out, "README.md")).read() if p.returncode == 0 else ""
        check("KVM run: README access-cost ratios virtual/physical per order (vfallback 1.50, 1.30 seq)",
              "| order | stage1/always vfallback (virtual) seq | rand | stage1/always vmalloc seq |" in text
              and "| 1 | 1.50 | 1.50 | 1.25 | 1.25 |" in text
              and "| 3 | 1.30 | 1.25 | 1.30 | 1.25 |" in text
              and "Not measurable under TCG" not in text, p.stderr[-300:])


def slab_case():
    with tempfile.TemporaryDirectory() as tmp:
        runs = os.path.join(tmp, "runs")
        plain = os.path.join(runs, "plain-default-unmovable")
        shutil.copytree(os.path.join(FIXTURES, "plain-default-unmovable"), plain)
        with open(os.path.join(plain, "out", "slab-raw.txt"), "w") as f:
            f.write(SLAB_PLAIN)
        stage2 = os.path.join(runs, "stage2-always-unmovable")
        os.makedirs(os.path.join(stage2, "out"))
        with open(os.path.join(stage2, "meta"), "w") as f:
            f.write(STAGE2_META)
        with open(os.path.join(stage2, "out", "slab-raw.txt"), "w") as f:
            f.write(SLAB_STAGE2)
        out = os.path.join(tmp, "out")
        p = subprocess.run([sys.executable, PROCESS, runs, "--out", out],
                           capture_output=True, text=True)
        check("slab: runs on the slab fixture (exit 0)", p.returncode == 0, p.stderr.strip()[-300:])
        path = os.path.join(out, "slab.csv")
        check("slab: writes slab.csv", os.path.exists(path))
        if not os.path.exists(path):
            return
        with open(path) as f:
            header = f.readline().strip()
        check("slab.csv has the fixed columns", header == SLAB_HEADER, header)
        text = open(os.path.join(out, "README.md")).read() if os.path.exists(os.path.join(out, "README.md")) else ""
        check("slab: README reclaim table, plain against stage 2 in one run",
              "| unmovable | plain/default | 1 | 900 | 40 | 3 | 5000 | 0 | - | - |" in text
              and "| unmovable | stage2/always | 1 | 4000 | 120 | 11 | 9000 | 2 | 0 | 12 |" in text,
              text.split("### Reclaim and compaction", 1)[-1][:700])
        # Issue 15 item 4: stage above plain in every counter: FAIL, with the numbers.
        check("slab: reclaim criterion FAILs when the stage kernel reclaims more than plain",
              "- FAIL: background reclaim around the slab workload, `unmovable`, stage2/always at or "
              "below plain (medians, stage vs plain): pgsteal_kswapd 4000 vs 900, pageoutrun 120 vs 40, "
              "compact_daemon_wake 11 vs 3, slabs_scanned 9000 vs 5000" in text,
              text.split("## Headline criteria", 1)[-1][:1500])
        with open(path) as f:
            rows = list(csv.DictReader(f))
        check("slab.csv has 4 rows (2 kernels x 2 caches)", len(rows) == 4, f"{len(rows)} rows")
        check("slab.csv rows sorted plain first, dentry before buffer_head",
              [(r["kernel"], r["cache"]) for r in rows] ==
              [("plain", "dentry"), ("plain", "buffer_head"), ("stage2", "dentry"), ("stage2", "buffer_head")],
              str([(r["kernel"], r["cache"]) for r in rows]))
        r = row(rows, kernel="plain", variant="default", cache="dentry")
        check("slab row plain/default dentry (values, slowpath_per_1000 12.50, n/a -> empty)",
              r is not None and r["scenario"] == "unmovable" and r["accel"] == "tcg"
              and r["order"] == "1" and r["objs_per_slab"] == "42" and r["files"] == "4000"
              and r["files_per_s"] == "1600.0" and r["alloc_slab"] == "95" and r["free_slab"] == "2"
              and r["order_fallback"] == "95" and r["alloc_from_partial"] == "3"
              and r["slowpath_per_1000"] == "12.50" and r["slabs_after"] == "130"
              and r["slabs_virtual_after"] == "" and r["slabs_physical_after"] == ""
              and r["merged"] == "0", str(r))
        r = row(rows, kernel="plain", cache="buffer_head")
        check("slab row without SLUB_STATS: counters and slowpath_per_1000 empty, merged 1",
              r is not None and r["alloc_fastpath"] == "" and r["alloc_slowpath"] == ""
              and r["slowpath_per_1000"] == "" and r["order"] == "0" and r["merged"] == "1", str(r))
        r = row(rows, kernel="stage2", variant="always", cache="dentry")
        check("slab row stage2/always dentry (order 4, slowpath_per_1000 3.00, virtual slabs)",
              r is not None and r["order"] == "4" and r["objs_per_slab"] == "341"
              and r["slowpath_per_1000"] == "3.00" and r["slabs_virtual_after"] == "12"
              and r["slabs_physical_after"] == "18" and r["accel"] == "tcg", str(r))
        r = row(rows, kernel="stage2", cache="buffer_head")
        check("slab row stage2/always buffer_head slowpath_per_1000 10.00",
              r is not None and r["slowpath_per_1000"] == "10.00", str(r))

        readme = os.path.join(out, "README.md")
        text = open(readme).read() if os.path.exists(readme) else ""
        check("slab: README has the section and the unmovable table header",
              "## Slab caches: dentry and buffer_head (SLAB_VFALLBACK on stage 2)" in text
              and "| kernel/variant | cache | order | objects/slab | files/s | slow path per 1000 allocs "
              "| new slabs (alloc_slab) | virtual / physical slabs after |" in text
              and "no slab workload data" not in text)
        sect = text.split("## Slab caches", 1)[-1].split("\n## ", 1)[0]
        check("slab: README says TCG timings, ratio within one run",
              "TCG emulator timings" in sect and "ratio" in sect and "one run" in sect)
        check("slab: README unmovable table, one row per kernel/variant x cache",
              "### Scenario `unmovable`" in sect
              and "| plain/default | dentry | 1 | 42 | 1600.0 | 12.50 | 95 | n/a |" in sect
              and "| plain/default | buffer_head (merged) | 0 | 39 | 1600.0 | - | - | n/a |" in sect
              and "| stage2/always | dentry | 4 | 341 | 2000.0 | 3.00 | 12 | 12 / 18 |" in sect
              and "| stage2/always | buffer_head | 4 | 157 | 2000.0 | 10.00 | 26 | 26 / 2 |" in sect,
              sect[:1200])
        check("slab: no table for scenarios without slab data", "### Scenario `none`" not in sect)
        check("slab: alloc.csv still written", os.path.exists(os.path.join(out, "alloc.csv")))


LBS_HEADER = "kernel,variant,accel,scenario,fsblock,workload,bytes,errors,mb_per_s,fallback_ios"
STAGE3_META = STAGE2_META.replace("kernel=stage2", "kernel=stage3").replace("variant=always", "variant=default")


def reclaim_pass_case():
    """The reclaim criterion PASSes when the stage kernel's medians are at or
    below plain's; two stage boots, one above plain, give the median."""
    with tempfile.TemporaryDirectory() as tmp:
        runs = os.path.join(tmp, "runs")
        plain = os.path.join(runs, "plain-default-unmovable")
        shutil.copytree(os.path.join(FIXTURES, "plain-default-unmovable"), plain)
        with open(os.path.join(plain, "out", "slab-raw.txt"), "w") as f:
            f.write(SLAB_PLAIN)
        for i, (steal, wake) in enumerate(((0, 0), (100, 2), (2000, 9)), 1):
            d = os.path.join(runs, f"stage2-always-unmovable-r{i}")
            os.makedirs(os.path.join(d, "out"))
            with open(os.path.join(d, "meta"), "w") as f:
                f.write(STAGE2_META)
            with open(os.path.join(d, "out", "slab-raw.txt"), "w") as f:
                f.write(SLAB_STAGE2.replace("pgsteal_kswapd=4000", f"pgsteal_kswapd={steal}")
                        .replace("compact_daemon_wake=11", f"compact_daemon_wake={wake}")
                        .replace("pageoutrun=120", "pageoutrun=40")
                        .replace("slabs_scanned=9000", "slabs_scanned=10"))
        out = os.path.join(tmp, "out")
        p = subprocess.run([sys.executable, PROCESS, runs, "--out", out], capture_output=True, text=True)
        text = open(os.path.join(out, "README.md")).read() if p.returncode == 0 else ""
        check("slab: reclaim criterion PASSes at or below plain (medians over 3 boots)",
              "- PASS: background reclaim around the slab workload, `unmovable`, stage2/always at or "
              "below plain (medians, stage vs plain): pgsteal_kswapd 100 vs 900, pageoutrun 40 vs 40, "
              "compact_daemon_wake 2 vs 3, slabs_scanned 10 vs 5000" in text
              and "| unmovable | stage2/always | 3 | 100 (0-2000) |" in text,
              p.stderr[-300:] or text.split("## Headline criteria", 1)[-1][:1200])


def fio_json(rw, nbytes, bw, err=0, text=""):
    d = "write" if "write" in rw else "read"
    other = "read" if d == "write" else "write"
    return ("fio: some warning before the document\n" +
            '{"jobs": [{"jobname": "%s", "error": %d, "error_text": "%s", '
            '"%s": {"io_bytes": %d, "bw_bytes": %d}, "%s": {"io_bytes": 0, "bw_bytes": 0}}]}\n'
            % (rw, err, text, d, nbytes, bw, other))


def lbs_case():
    """plain/default unmovable: 64K seqread fails with ENOMEM after 5 MB; stage3/default
    unmovable: the same read completes through the fallback; stage3 none: buffer cost."""
    with tempfile.TemporaryDirectory() as tmp:
        runs = os.path.join(tmp, "runs")
        os.makedirs(runs)
        plain = os.path.join(runs, "plain-default-unmovable")
        shutil.copytree(os.path.join(FIXTURES, "plain-default-unmovable"), plain)
        os.makedirs(os.path.join(plain, "lbs"))
        with open(os.path.join(plain, "lbs", "r.json"), "w") as f:
            f.write(fio_json("read", 5 * 1024 * 1024, 2000000, 12, "Cannot allocate memory"))
        with open(os.path.join(plain, "lbs", "w.json"), "w") as f:
            f.write(fio_json("write", 64 * 1024 * 1024, 50000000))
        with open(os.path.join(plain, "lbs-raw.txt"), "w") as f:
            f.write("fsblock=65536 workload=seqwrite rc=0 fallback_ios=0 json=lbs/w.json\n"
                    "fsblock=65536 workload=seqread rc=1 fallback_ios=0 json=lbs/r.json\n"
                    "fsblock=65536 workload=randread rc=1 fallback_ios=0 json=lbs/missing.json\n"
                    "fsblock=16384 workload=metadata rc=0 files=2000 usec=4000000 fallback_ios=0\n")
        st = os.path.join(runs, "stage3-default-unmovable")
        os.makedirs(os.path.join(st, "out", "lbs"))
        with open(os.path.join(st, "meta"), "w") as f:
            f.write(STAGE3_META)
        with open(os.path.join(st, "out", "lbs", "r.json"), "w") as f:
            f.write(fio_json("read", 64 * 1024 * 1024, 25000000))
        with open(os.path.join(st, "out", "lbs-raw.txt"), "w") as f:
            f.write("fsblock=65536 workload=seqread rc=0 fallback_ios=1024 json=lbs/r.json\n")
        stn = os.path.join(runs, "stage3-default-none")
        os.makedirs(os.path.join(stn, "out"))
        with open(os.path.join(stn, "meta"), "w") as f:
            f.write(STAGE3_META.replace("scenario=unmovable", "scenario=none"))
        with open(os.path.join(stn, "out", "lbs-raw.txt"), "w") as f:
            for kind, usecs in (("physical", (1000000, 2000000, 3000000)),
                                ("virtual", (2000000, 2500000, 9000000)),
                                ("vmapped", (4000000, 5000000, 6000000))):
                for rep, u in enumerate(usecs, 1):
                    f.write(f"fsblock=4096 workload=bufcost-{kind} rc=0 files=6000 usec={u} "
                            f"rep={rep} buf_before=10,0,5,5 buf_after=30,0,5,5\n")
        out = os.path.join(tmp, "out")
        p = subprocess.run([sys.executable, PROCESS, runs, "--out", out],
                           capture_output=True, text=True)
        check("lbs: runs on the large-block fixture (exit 0)", p.returncode == 0, p.stderr.strip()[-300:])
        path = os.path.join(out, "largeblock.csv")
        check("lbs: writes largeblock.csv", os.path.exists(path))
        if not os.path.exists(path):
            return
        with open(path) as f:
            header = f.readline().strip()
        check("largeblock.csv starts with the fixed columns", header.startswith(LBS_HEADER + ","), header)
        with open(path) as f:
            rows = list(csv.DictReader(f))
        check("largeblock.csv: 5 I/O rows + 9 buffer-cost rows", len(rows) == 14, f"{len(rows)} rows")
        r = row(rows, kernel="plain", workload="seqread")
        check("plain 64K seqread: 1 error, 5 MiB, ENOMEM text",
              r is not None and r["errors"] == "1" and r["bytes"] == str(5 * 1024 * 1024)
              and r["mb_per_s"] == "2.0" and "errno 12" in r["error_text"], str(r))
        r = row(rows, kernel="plain", workload="randread")
        check("plain randread without fio output: recorded as an error, not dropped",
              r is not None and r["errors"] == "1" and r["bytes"] == "0", str(r))
        r = row(rows, kernel="plain", workload="metadata")
        check("plain 16K metadata: 500 files/s", r is not None and r["files_per_s"] == "500.0"
              and r["errors"] == "0", str(r))
        r = row(rows, kernel="stage3", scenario="unmovable", workload="seqread")
        check("stage3 64K seqread: 0 errors, 25 MB/s, 1024 fallback I/Os",
              r is not None and r["errors"] == "0" and r["mb_per_s"] == "25.0"
              and r["fallback_ios"] == "1024", str(r))
        readme = os.path.join(out, "README.md")
        text = open(readme).read() if os.path.exists(readme) else ""
        sect = text.split("## Large blocks on XFS (stage 3)", 1)[-1].split("\n## ", 1)[0]
        check("lbs: README unmovable table with errors and fallback",
              "| 64K | seqread | 1 err · 2.0 MB/s (errno 12: Cannot allocate memory) | "
              "0 err · 25.0 MB/s · fallback 1024 |" in sect, sect[:1500])
        check("lbs: README buffer cost medians and ratio to vm_map_ram",
              "| stage3/default | physical | 3000 | 2.50 | 20 / 0 / 0 |" in sect
              and "| stage3/default | virtual | 2400 | 2.00 |" in sect
              and "| stage3/default | vmapped | 1200 | 1.00 |" in sect, sect[-900:])


def start_state_case():
    """The fragmentation at the start of a scenario (buddyinfo-SCEN-start,
    unusable-SCEN-start): medians over boots with the spread; a boot
    without the files is left out, not counted as zero."""
    with tempfile.TemporaryDirectory() as tmp:
        runs = os.path.join(tmp, "runs")
        for i, (u10, f10) in enumerate(((0.5, 80), (0.7, 40), (0.6, 60), (None, None)), 1):
            run = os.path.join(runs, f"stage1-always-none-r{i}")
            shutil.copytree(os.path.join(FIXTURES, "stage1-always-none"), run)
            meta = os.path.join(run, "meta")
            text = open(meta).read()
            text = "\n".join("scenario=aged" if ln.startswith("scenario=") else ln
                             for ln in text.splitlines()) + "\n"
            open(meta, "w").write(text)
            raw = os.path.join(run, "out", "bench-raw.txt")
            open(raw, "w").writelines(ln.replace("scenario=none", "scenario=aged") for ln in open(raw))
            if u10 is None:
                continue
            with open(os.path.join(run, "out", "buddyinfo-aged-start"), "w") as f:
                f.write("Node 0, zone      DMA      0      0      0      0      0      0      0      0      1      1      3 \n")
                f.write("Node 0, zone    DMA32   100 50 20 5 4 3 2 1 1 2 %d \n" % f10)
            with open(os.path.join(run, "out", "unusable-aged-start"), "w") as f:
                f.write("Node 0, zone      DMA 0.000 0.000 0.000 0.000 0.000 0.000 0.000 0.000 0.000 0.066 0.200 \n")
                f.write("Node 0, zone    DMA32 0.000 0.100 0.200 0.300 0.400 0.400 0.400 0.400 0.400 0.450 %.3f \n" % u10)
        out = os.path.join(tmp, "out")
        p = subprocess.run([sys.executable, PROCESS, runs, "--out", out], capture_output=True, text=True)
        text = open(os.path.join(out, "README.md")).read() if p.returncode == 0 else ""
        sect = text.split("## Fragmentation at the start of the measurement", 1)[-1].split("\n## ", 1)[0]
        check("start state: aged row, 3 boots with files, medians and min-max of DMA32",
              "| `aged` | stage1/always | DMA32 | 3 | 0.100 | 0.300 | 0.400 | 0.450 | "
              "0.600 (0.500-0.700) | 73 (53-93) | 62 (42-82) |" in sect, (p.stderr[-300:] or sect[:1200]))


if __name__ == "__main__":
    main()
    print(f"process tests: {failures} failure(s)")
    sys.exit(1 if failures else 0)
