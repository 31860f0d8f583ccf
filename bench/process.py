#!/usr/bin/env python3
"""Turn raw benchmark outputs into results/: alloc.csv, slab.csv, README.md, plots.

Usage: process.py [--out DIR] [--title TEXT] RUNS_DIR

RUNS_DIR holds one directory per boot (kernel x variant x scenario), each
with a `meta` file written by the host (key=value lines: kernel, variant,
accel, mem, cpus, scenario, boot, methods, orders, ...) and the guest's
outputs, either directly or under out/: bench-raw.txt (one key=value line
per cell), bench-info.txt, perf-top-*.txt, slab-raw.txt (the slab workload:
one key=value line per cache), lbs-raw.txt (the large-block workload: one
key=value line per measurement, fio JSON files next to it). A cell that a boot should have
measured but did not report (crash, timeout) becomes a row with
status=missing and successes=0: failed cells are recorded, never dropped.

Writes DIR/alloc.csv (the first columns are fixed, see COLUMNS), DIR/slab.csv
(SLAB_COLUMNS), DIR/largeblock.csv (LBS_COLUMNS first), DIR/README.md (tables written from the data) and DIR/*.png
(matplotlib, Agg backend).
Absolute times under TCG are emulator times: the headline figures are
ratios within one boot.
"""
import argparse
import csv
import json
import os
import statistics
import sys

COLUMNS = ["kernel", "variant", "accel", "scenario", "method", "order",
           "attempts", "successes", "p50_ns", "p99_ns", "max_ns",
           "seq_ns_per_page", "rand_ns_per_page", "compact_stall"]
EXTRA = ["status", "run", "iters", "pattern", "hold", "success_rate", "path", "physical", "virtual",
         "access_path", "ref_seq_ns_per_page", "ref_rand_ns_per_page", "seq_vs_ref",
         "rand_vs_ref", "elapsed_ms", "budget_hit", "clock",
         "vfallback_physical", "vfallback_virtual", "vfallback_fail",
         "vfallback_free", "oom_released", "oom_calls", "unusable_before", "unusable_after",
         "free_ge_order_before", "free_ge_order_after", "compact_fail",
         "compact_success", "compact_migrate_scanned", "compact_free_scanned",
         "compact_isolated", "pgmigrate_success", "pgmigrate_fail",
         "allocstall_dma32", "allocstall_normal", "oom_kill", "perf_stat",
         "perf_task_clock_ms", "perf_page_faults", "perf_dtlb_load_misses",
         "kernel_release", "vf_mode", "mem", "cpus", "guest_cpus", "boot",
         "oom_attempts", "oom_assisted", "oom_notifier_calls", "ok_n", "ok_p50_ns", "ok_p99_ns",
         "ok_max_ns", "assisted_n", "assisted_p50_ns", "assisted_p99_ns", "assisted_max_ns",
         "fail_n", "fail_p50_ns", "fail_p99_ns", "fail_max_ns", "frag_state"]
SLAB_COLUMNS = ["kernel", "variant", "accel", "scenario", "cache", "order", "objs_per_slab",
                "files", "files_per_s", "alloc_fastpath", "alloc_slowpath", "alloc_slab",
                "free_slab", "order_fallback", "alloc_from_partial", "slowpath_per_1000",
                "slabs_after", "slabs_virtual_after", "slabs_physical_after", "merged",
                "pgsteal_kswapd", "pgscan_kswapd", "pageoutrun", "kswapd_low_wmark_hit_quickly",
                "kswapd_high_wmark_hit_quickly", "compact_daemon_wake",
                "compact_daemon_migrate_scanned", "compact_daemon_free_scanned", "slabs_scanned",
                "allocstall_normal", "compact_stall", "vfallback_physical", "vfallback_virtual"]
RECLAIM_SHOWN = ["pgsteal_kswapd", "pageoutrun", "compact_daemon_wake", "slabs_scanned",
                 "allocstall_normal", "vfallback_physical", "vfallback_virtual"]
SLAB_CACHES = ["dentry", "buffer_head"]
LBS_COLUMNS = ["kernel", "variant", "accel", "scenario", "fsblock", "workload", "bytes", "errors",
               "mb_per_s", "fallback_ios"]
LBS_EXTRA = ["rc", "files", "files_per_s", "usec", "rep", "buf_physical", "buf_virtual",
             "buf_bulk", "buf_vmapped", "error_text"]
LBS_WORKLOADS = ["seqwrite", "randwrite", "seqread", "randread", "metadata", "setup"]
BUF_KINDS = ["physical", "virtual", "vmapped"]
METHODS = ["plain_noretry", "plain", "plain_mayfail", "vfallback", "vmalloc", "kvmalloc"]
HEADLINE_METHODS = ["plain", "plain_mayfail", "plain_noretry", "vfallback"]
SCENARIOS = ["none", "aged", "strict", "movable", "unmovable"]
PATTERNS = ["cycle", "hold"]	# free each block at once | keep every block to the end
VARIANTS = ["default", "always", "debug"]
QUICK_ORDERS = [1, 3, 5, 7, 9, 10]
FULL_ORDERS = list(range(1, 11))


def kv_line(line):
    """Parse 'k=v k=v ...' (values without spaces) into a dict."""
    out = {}
    for tok in line.split():
        if "=" in tok:
            k, v = tok.split("=", 1)
            out[k] = v
    return out


def read_kv_file(path):
    """A key=value file (one or more pairs per line); {} if absent."""
    d = {}
    try:
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line.startswith("cmdline="):
                    d["cmdline"] = line[len("cmdline="):]
                elif line and not line.startswith("#"):
                    d.update(kv_line(line))
    except OSError:
        pass
    return d


def num(v):
    """int or float from a raw value; None for n/a, empty or -1 markers."""
    if v is None or v in ("", "n/a", "unsupported"):
        return None
    try:
        x = float(v)
    except ValueError:
        return None
    if x == -1:
        return None
    return int(x) if x.is_integer() else x


def kernel_key(k):
    """plain first, then stage kernels by number."""
    if k == "plain":
        return (0, 0)
    digits = "".join(c for c in k if c.isdigit())
    return (1, int(digits) if digits else 99)


def find_runs(root):
    """Directories under root (itself or one/two levels down) with a meta file."""
    runs = []
    for dirpath, dirnames, filenames in os.walk(root):
        if "meta" in filenames:
            runs.append(dirpath)
            dirnames[:] = []
        elif dirpath[len(root):].count(os.sep) >= 2:
            dirnames[:] = []
    return sorted(runs)


def guest_file(run, name):
    for p in (os.path.join(run, "out", name), os.path.join(run, name)):
        if os.path.exists(p):
            return p
    return os.path.join(run, name)


def expected_cells(meta, info):
    methods = (info.get("methods") or meta.get("methods") or "").split(",")
    methods = [m for m in methods if m]
    orders = (info.get("orders") or meta.get("orders") or "").split(",")
    orders = [int(o) for o in orders if o.strip().isdigit()]
    if not orders:
        orders = FULL_ORDERS if meta.get("bench") == "full" else QUICK_ORDERS
    if not methods:
        methods = [m for m in METHODS if m != "vfallback" or meta.get("kernel") != "plain"]
    held = [m for m in (info.get("hold_methods") or "").split(",") if m in methods]
    return [(m, o, "cycle") for o in orders for m in methods] + \
        [(m, o, "hold") for o in orders for m in held], orders


FRAGMENTED = ("unmovable", "strict")


def frag_state(row):
    """Under a fragmenter: 'held' when no free block of the cell's order or
    above existed before or after it and vfallback found no physical block;
    else 'collapsed (...)' with what gave it away. '' elsewhere."""
    if row.get("scenario") not in FRAGMENTED or row.get("status") != "ok":
        return ""
    before, after = num(row.get("free_ge_order_before")), num(row.get("free_ge_order_after"))
    if before is None and after is None:
        return ""	# not recorded: neither held nor collapsed
    phys = num(row.get("physical")) if row.get("method") == "vfallback" else 0
    why = []
    if before:
        why.append(f"{int(before)} free blocks >= order before")
    if after:
        why.append(f"{int(after)} after")
    if phys:
        why.append(f"vfallback physical {int(phys)}")
    return "collapsed (" + ", ".join(why) + ")" if why else "held"


def load_run(run):
    """Rows (dicts with COLUMNS + EXTRA) of one boot, missing cells included."""
    meta = read_kv_file(os.path.join(run, "meta"))
    info = read_kv_file(guest_file(run, "bench-info.txt"))
    base = {
        "kernel": meta.get("kernel", "?"),
        "variant": meta.get("variant", "?"),
        "accel": meta.get("accel", "?"),
        "mem": meta.get("mem", ""),
        "cpus": meta.get("cpus", ""),
        "guest_cpus": info.get("cpus", ""),
        "boot": meta.get("boot", ""),
        "run": os.path.basename(run.rstrip(os.sep)),
    }
    scenario = meta.get("scenario") or info.get("scenario") or "?"
    rows = {}
    raw = guest_file(run, "bench-raw.txt")
    if os.path.exists(raw):
        with open(raw) as f:
            for line in f:
                d = kv_line(line)
                if "method" not in d or "order" not in d:
                    continue
                row = dict(base)
                row["scenario"] = d.get("scenario", scenario)
                for k in COLUMNS[4:] + EXTRA:
                    if k in d and k not in base:
                        row[k] = d[k]
                row["status"] = d.get("status", "ok")
                row["hold"] = d.get("hold", "0")
                row["pattern"] = "hold" if (num(row["hold"]) or 0) > 0 else "cycle"
                rows[(row["method"], int(row["order"]), row["pattern"])] = row
    cells, orders = expected_cells(meta, info)
    for (m, o, pat) in cells:
        if (m, o, pat) not in rows:
            row = dict(base)
            row.update(scenario=scenario, method=m, order=str(o), pattern=pat,
                       attempts="0", successes="0",
                       status="missing" if os.path.exists(raw) else "no_data")
            rows[(m, o, pat)] = row
    for row in rows.values():
        rs = ratio(row.get("seq_ns_per_page"), row.get("ref_seq_ns_per_page"))
        rr = ratio(row.get("rand_ns_per_page"), row.get("ref_rand_ns_per_page"))
        row["seq_vs_ref"] = "" if rs is None else f"{rs:.3f}"
        row["rand_vs_ref"] = "" if rr is None else f"{rr:.3f}"
        a, s = num(row.get("attempts")), num(row.get("successes"))
        row["success_rate"] = f"{100.0 * s / a:.1f}" if a else "0.0"
        row["frag_state"] = frag_state(row)
        if row.get("status") != "ok":
            row["success_rate"] = "0.0"
    return meta, info, list(rows.values())


def guest_lines(run, name):
    """(meta, path, lines) of a boot's guest file NAME; lines is [] when it is absent."""
    meta = read_kv_file(os.path.join(run, "meta"))
    path = guest_file(run, name)
    try:
        with open(path) as f:
            return meta, path, f.readlines()
    except OSError:
        return meta, path, []


def load_slab(run):
    """Rows (dicts with SLAB_COLUMNS) of one boot's slab workload; [] without slab-raw.txt."""
    meta, path, lines = guest_lines(run, "slab-raw.txt")
    rows = []
    for line in lines:
        d = kv_line(line)
        if "cache" not in d:
            continue
        row = {k: d.get(k, "n/a") for k in SLAB_COLUMNS}
        row.update(kernel=meta.get("kernel", "?"), variant=meta.get("variant", "?"),
                   accel=meta.get("accel", "?"),
                   scenario=d.get("scenario") or meta.get("scenario") or "?")
        fast, slow = num(d.get("alloc_fastpath")), num(d.get("alloc_slowpath"))
        row["slowpath_per_1000"] = (f"{1000.0 * slow / (fast + slow):.2f}"
                                    if fast is not None and slow is not None and fast + slow > 0
                                    else "")
        rows.append(row)
    return rows


def fio_job(path):
    """(bytes, MB/s, errno, error text) of the single job in a fio JSON file, or None."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return None
    # fio may print warnings before the JSON document.
    start = text.find("{")
    try:
        doc = json.loads(text[start:]) if start >= 0 else None
    except ValueError:
        return None
    jobs = (doc or {}).get("jobs") or []
    if not jobs:
        return None
    job = jobs[0]
    nbytes = sum(int(job.get(d, {}).get("io_bytes", 0)) for d in ("read", "write"))
    bw = sum(int(job.get(d, {}).get("bw_bytes", 0)) for d in ("read", "write"))
    return nbytes, bw / 1e6, int(job.get("error", 0)), job.get("error_text", "") or ""


def load_lbs(run):
    """Rows (LBS_COLUMNS + LBS_EXTRA) of one boot's large-block workload; [] without lbs-raw.txt."""
    meta, path, lines = guest_lines(run, "lbs-raw.txt")
    rows = []
    base = os.path.dirname(path)
    for line in lines:
        d = kv_line(line)
        if "workload" not in d or "fsblock" not in d:
            continue
        row = {k: "" for k in LBS_COLUMNS + LBS_EXTRA}
        row.update(kernel=meta.get("kernel", "?"), variant=meta.get("variant", "?"),
                   accel=meta.get("accel", "?"), scenario=meta.get("scenario", "?"),
                   fsblock=d["fsblock"], workload=d["workload"], rc=d.get("rc", ""),
                   fallback_ios=d.get("fallback_ios", ""), rep=d.get("rep", ""))
        rc = num(d.get("rc"))
        if "json" in d:
            job = fio_job(os.path.join(base, d["json"]))
            if job is None:
                row.update(bytes=0, errors=1, mb_per_s="", error_text="no fio result")
            else:
                nbytes, mbs, err, etext = job
                row.update(bytes=nbytes, mb_per_s=f"{mbs:.1f}",
                           errors=1 if err or (rc or 0) != 0 else 0,
                           error_text=(f"errno {err}" + (f": {etext}" if etext else "")
                                       if err else ""))
        elif "usec" in d:
            files, usec = num(d.get("files")), num(d.get("usec"))
            row.update(files=d.get("files", ""), usec=d.get("usec", ""), bytes=0, mb_per_s="",
                       errors=0 if (rc or 0) == 0 else 1)
            if files and usec:
                row["files_per_s"] = f"{files * 1e6 / usec:.1f}"
            after = (d.get("buf_after") or "").split(",")
            before = (d.get("buf_before") or "").split(",")
            if len(after) == 4 and len(before) == 4:
                for k, a, b in zip(("buf_physical", "buf_virtual", "buf_bulk", "buf_vmapped"),
                                   after, before):
                    if num(a) is not None and num(b) is not None:
                        row[k] = str(int(num(a) - num(b)))
        else:
            row.update(bytes=0, errors=1, error_text="setup failed")
        rows.append(row)
    return rows


def lbs_sort_key(r):
    w = r["workload"]
    return (kernel_key(r["kernel"]),
            VARIANTS.index(r["variant"]) if r["variant"] in VARIANTS else 9,
            SCENARIOS.index(r["scenario"]) if r["scenario"] in SCENARIOS else 9,
            int(num(r["fsblock"]) or 0),
            LBS_WORKLOADS.index(w) if w in LBS_WORKLOADS else 10, w, str(r.get("rep", "")))


def lbs_section(rows):
    """README lines: I/O errors and throughput per block size and scenario; buffer cost."""
    L = ["## Large blocks on XFS (stage 3)", ""]
    if not rows:
        L.append("no large-block workload data in this run")
        return L
    L.append("After the allocation cells, each boot makes XFS with 4, 16 and 64 KiB blocks on a "
             "loop device on tmpfs and runs fio (buffered, psync, 64 MiB): sequential 64 KiB and "
             "random 16 KiB writes, then the same reads after dropping the caches; then creates "
             "2000 files (files/s). Under `unmovable` the fragmenter re-fragments before each "
             "step. Cell: errors (fio runs that failed) / MB/s; `fallback` = reads and writes "
             "served by the virtual-fallback path (vfallback_io_*). Data: `largeblock.csv`. "
             "On kernels without the fallback the failing folio allocations under `unmovable` "
             "print page allocation failure warnings: that is the measured behaviour, and the "
             "workload brackets it for the console check.")
    L.append("")
    L.append("MB/s and files/s are emulator timings under TCG: compare within a row, not across runs.")
    kvs = sorted({(r["kernel"], r["variant"]) for r in rows},
                 key=lambda kv: (kernel_key(kv[0]), VARIANTS.index(kv[1]) if kv[1] in VARIANTS else 9))
    io = [r for r in rows if not r["workload"].startswith("bufcost")]
    scens = [s for s in SCENARIOS if any(r["scenario"] == s for r in io)]
    for s in scens:
        L.append("")
        L.append(f"### Scenario `{s}`")
        L.append("")
        L.append("| block | workload | " + " | ".join(kv_label(k, v) for k, v in kvs) + " |")
        L.append("|---:|---|" + "---|" * len(kvs))
        keys = sorted({(int(num(r["fsblock"]) or 0), r["workload"]) for r in io if r["scenario"] == s},
                      key=lambda t: (t[0], LBS_WORKLOADS.index(t[1]) if t[1] in LBS_WORKLOADS else 10))
        for bs, w in keys:
            cells = []
            for k, v in kvs:
                rr = [r for r in io if r["scenario"] == s and r["kernel"] == k and r["variant"] == v
                      and int(num(r["fsblock"]) or 0) == bs and r["workload"] == w]
                if not rr:
                    cells.append("n/a")
                    continue
                r = rr[0]
                rate = (f"{r['files_per_s']} files/s" if r.get("files_per_s") else
                        f"{r['mb_per_s']} MB/s" if r.get("mb_per_s") else "-")
                c = f"{r['errors']} err · {rate}"
                if r.get("error_text"):
                    c += f" ({r['error_text']})"
                if str(r.get("fallback_ios", "")) not in ("", "0"):
                    c += f" · fallback {r['fallback_ios']}"
                cells.append(c)
            L.append(f"| {bs // 1024}K | {w} | " + " | ".join(cells) + " |")
    cost = [r for r in rows if r["workload"].startswith("bufcost-")]
    L.append("")
    L.append("### XFS buffer cost: physical vs virtual vs vm_map_ram")
    L.append("")
    if not cost:
        L.append("no buffer-cost data in this run (stage kernels, scenario `none` only)")
        return L
    L.append("A 4 KiB-block XFS with 64 KiB directory blocks, 20 directories x 300 files, "
             "unmounted and caches dropped, then `ls -l` of all of them: the multi-page "
             "directory buffers are physical blocks (mode auto, knob on), virtual blocks (mode "
             "always) or bulk pages mapped with vm_map_ram() (xfs.vfallback_buffers=0). "
             "Median of 3 repetitions; buffers by kind from /proc/fs/xfs/stat `buf_memory`.")
    L.append("")
    L.append("| kernel/variant | kind | files/s (median) | vs vm_map_ram | multi-page buffers "
             "(physical / virtual / bulk) |")
    L.append("|---|---|---:|---:|---|")
    for k, v in kvs:
        med = {}
        for kind in BUF_KINDS:
            rr = [r for r in cost if r["kernel"] == k and r["variant"] == v
                  and r["workload"] == f"bufcost-{kind}" and r.get("files_per_s")]
            if not rr:
                continue
            vals = sorted(float(r["files_per_s"]) for r in rr)
            med[kind] = (vals[len(vals) // 2], rr[-1])
        for kind in BUF_KINDS:
            if kind not in med:
                continue
            fps, r = med[kind]
            ref = med.get("vmapped", (None,))[0]
            rel = f"{fps / ref:.2f}" if ref else "-"
            bufs = f"{r.get('buf_physical') or '-'} / {r.get('buf_virtual') or '-'} / {r.get('buf_bulk') or '-'}"
            L.append(f"| {kv_label(k, v)} | {kind} | {fps:.0f} | {rel} | {bufs} |")
    return L


def slab_sort_key(r):
    return (kernel_key(r["kernel"]),
            VARIANTS.index(r["variant"]) if r["variant"] in VARIANTS else 9,
            SCENARIOS.index(r["scenario"]) if r["scenario"] in SCENARIOS else 9,
            SLAB_CACHES.index(r["cache"]) if r["cache"] in SLAB_CACHES else 9, r["cache"])


def slab_section(rows):
    """README lines: per scenario, kernel/variant x cache."""
    L = ["## Slab caches: dentry and buffer_head (SLAB_VFALLBACK on stage 2)", ""]
    if not rows:
        L.append("no slab workload data in this run")
        return L
    L.append("After the allocation cells, each boot creates 40 x 100 small files on an ext4 "
             "with 1 KiB blocks (loop device on tmpfs) with shell builtins only, and reads the "
             "SLUB counters (SLUB_STATS) of both caches around it (data: `slab.csv`). Slow path "
             "per 1000 allocs: alloc_slowpath / (alloc_fastpath + alloc_slowpath); new slabs: "
             "alloc_slab during the workload; virtual / physical slabs: in the cache after it "
             "(stage 2 only).")
    accels = sorted({r.get("accel", "?") for r in rows})
    L.append("")
    L.append(("These are TCG emulator timings" if accels == ["tcg"] else
              f"Timings under accelerator {', '.join(accels)} (tcg: emulator timings)")
             + ": files/s means something only as a ratio between the kernels of one run, "
             "not as an absolute rate.")

    def val(r, k):
        v = r.get(k, "")
        return "-" if v in ("", "n/a", None) else v

    scens = [s for s in SCENARIOS if any(r["scenario"] == s for r in rows)]
    scens += sorted({r["scenario"] for r in rows} - set(SCENARIOS))
    for s in scens:
        L.append("")
        L.append(f"### Scenario `{s}`")
        L.append("")
        L.append("| kernel/variant | cache | order | objects/slab | files/s | slow path per 1000 allocs "
                 "| new slabs (alloc_slab) | virtual / physical slabs after |")
        L.append("|---|---|---:|---:|---:|---:|---:|---:|")
        for r in rows:
            if r["scenario"] != s:
                continue
            vs, ps = r.get("slabs_virtual_after", "n/a"), r.get("slabs_physical_after", "n/a")
            vp = "n/a" if vs in ("", "n/a") and ps in ("", "n/a") else \
                f"{vs or 'n/a'} / {ps or 'n/a'}"
            cache = r["cache"] + (" (merged)" if r.get("merged") == "1" else "")
            L.append(f"| {kv_label(r['kernel'], r['variant'])} | {cache} | {val(r, 'order')} | "
                     f"{val(r, 'objs_per_slab')} | {val(r, 'files_per_s')} | "
                     f"{val(r, 'slowpath_per_1000')} | {val(r, 'alloc_slab')} | {vp} |")
    # Background reclaim and compaction the workload caused (same for both
    # caches: one workload), plain against the stage kernels of one run.
    rec = [r for r in rows if r["cache"] == "dentry" and r.get("pgsteal_kswapd") not in (None, "", "n/a")]
    if rec:
        L.append("")
        L.append("### Reclaim and compaction during the slab workload")
        L.append("")
        L.append("/proc/vmstat deltas around the 4000 file creations (dentry churn): kswapd's "
                 "reclaim (pgsteal_kswapd, pageoutrun: kswapd runs), kcompactd wake-ups, slab "
                 "shrinking (slabs_scanned), direct reclaim stalls, and vfallback's physical / "
                 "virtual allocations; median over the boots (min-max). Plain SLUB never wakes "
                 "kswapd for its opportunistic slab order; a vfallback physical attempt that "
                 "woke kswapd or kcompactd at its order on every miss shows here.")
        L.append("")
        L.append("| scenario | kernel/variant | boots | " + " | ".join(RECLAIM_SHOWN) + " |")
        L.append("|---|---|---:|" + "---:|" * len(RECLAIM_SHOWN))
        for (scen, k, v), rs in reclaim_groups(rec):
            L.append(f"| {scen} | {kv_label(k, v)} | {len(rs)} | "
                     + " | ".join(med_spread([num(r.get(key)) for r in rs]) for key in RECLAIM_SHOWN)
                     + " |")
    return L


RECLAIM_CRITERION = ["pgsteal_kswapd", "pageoutrun", "compact_daemon_wake", "slabs_scanned"]


def reclaim_groups(rec):
    """(scenario, kernel, variant) -> slab rows (dentry, one per boot), sorted."""
    groups = {}
    for r in rec:
        groups.setdefault((r["scenario"], r["kernel"], r["variant"]), []).append(r)
    return sorted(groups.items(), key=lambda kv: (
        SCENARIOS.index(kv[0][0]) if kv[0][0] in SCENARIOS else 9, kernel_key(kv[0][1]),
        VARIANTS.index(kv[0][2]) if kv[0][2] in VARIANTS else 9))


def med_spread(vals, f=lambda x: f"{x:g}"):
    """Median of the values that exist, with (min-max) when they differ."""
    vals = [x for x in vals if x is not None]
    if not vals:
        return "-"
    m = statistics.median(vals)
    return f(m) if min(vals) == max(vals) else f"{f(m)} ({f(min(vals))}-{f(max(vals))})"


def reclaim_criteria(slab_rows):
    """Issue 15 item 4: background reclaim and compaction around the slab
    workload, stage kernels at or below plain (medians over the boots), per
    scenario: PASS/FAIL lines with the numbers."""
    rec = [r for r in slab_rows if r["cache"] == "dentry"
           and r.get("pgsteal_kswapd") not in (None, "", "n/a")]
    ordered = reclaim_groups(rec)
    groups = dict(ordered)
    L = []
    for (scen, k, v), rs in ordered:
        if k == "plain":
            continue
        plain = next((prs for (s2, k2, _), prs in groups.items() if s2 == scen and k2 == "plain"), None)
        if not plain:
            continue
        worse, parts = [], []
        for key in RECLAIM_CRITERION:
            sv = [num(r.get(key)) for r in rs if num(r.get(key)) is not None]
            pv = [num(r.get(key)) for r in plain if num(r.get(key)) is not None]
            if not sv or not pv:
                continue
            sm, pm = statistics.median(sv), statistics.median(pv)
            parts.append(f"{key} {sm:g} vs {pm:g}")
            if sm > pm:
                worse.append(key)
        if parts:
            L.append(f"- {'FAIL' if worse else 'PASS'}: background reclaim around the slab workload, "
                     f"`{scen}`, {k}/{v} at or below plain (medians, stage vs plain): "
                     + ", ".join(parts))
    return L


def sort_key(r):
    return (kernel_key(r["kernel"]),
            VARIANTS.index(r["variant"]) if r["variant"] in VARIANTS else 9,
            SCENARIOS.index(r["scenario"]) if r["scenario"] in SCENARIOS else 9,
            PATTERNS.index(r.get("pattern", "cycle")) if r.get("pattern", "cycle") in PATTERNS else 9,
            METHODS.index(r["method"]) if r["method"] in METHODS else 9,
            int(r["order"]))


def write_csv(rows, path, cols, keep_na=False):
    """One CSV row per dict, in the order of @cols; "n/a" becomes empty unless keep_na."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(cols)
        for r in rows:
            w.writerow([r.get(k, "") if keep_na or r.get(k, "") != "n/a" else ""
                        for k in cols])


def fmt_ns(ns):
    if ns is None:
        return "-"
    if ns >= 1e9:
        return f"{ns / 1e9:.2f} s"
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.1f} µs"
    return f"{ns:.0f} ns"


def kv_label(kernel, variant):
    return f"{kernel}/{variant}"


def cell(rows, kernel, variant, scenario, method, order, pattern="cycle"):
    for r in rows:
        if (r["kernel"], r["variant"], r["scenario"], r["method"], int(r["order"]),
                r.get("pattern") or "cycle") == (kernel, variant, scenario, method, order, pattern):
            return r
    return None


# Fields that an aggregate over repeated boots carries as the median.
MEDIAN_FIELDS = ["attempts", "successes", "p50_ns", "p99_ns", "max_ns", "ok_n", "ok_p50_ns",
                 "ok_p99_ns", "ok_max_ns", "fail_n", "fail_p99_ns", "assisted_n",
                 "oom_attempts", "oom_assisted", "oom_calls", "oom_released", "physical",
                 "virtual", "seq_ns_per_page", "rand_ns_per_page", "seq_vs_ref", "rand_vs_ref",
                 "compact_stall", "allocstall_normal"]


def aggregate(rows):
    """One row per (kernel, variant, scenario, method, order, pattern) over the
    boots that measured it: the median of MEDIAN_FIELDS (of the boots whose
    cell was recorded), n_boots, and p99_min/p99_max and rate_min/rate_max
    for the spread. A cell with a single boot is returned as it is."""
    groups = {}
    for r in rows:
        key = (r["kernel"], r["variant"], r["scenario"], r["method"], int(r["order"]),
               r.get("pattern") or "cycle")
        groups.setdefault(key, []).append(r)
    out = []
    for key, rs in groups.items():
        if len(rs) == 1:
            out.append(dict(rs[0], n_boots="1"))
            continue
        ok = [r for r in rs if r.get("status") == "ok"]
        a = dict((ok or rs)[0])
        a["n_boots"] = str(len(rs))
        a["run"] = ",".join(sorted(r.get("run", "") for r in rs))
        if len(ok) < len(rs):
            a["boots_not_ok"] = str(len(rs) - len(ok))
        for f in MEDIAN_FIELDS:
            vals = [num(r.get(f)) for r in ok]
            vals = [v for v in vals if v is not None and v >= 0]
            if vals:
                m = statistics.median(vals)
                a[f] = f"{m:.3f}" if f.endswith("_vs_ref") else str(int(round(m)))
        p99s = [num(r.get("p99_ns")) for r in ok if num(r.get("p99_ns")) is not None]
        rates = [100.0 * num(r.get("successes")) / num(r.get("attempts"))
                 for r in ok if num(r.get("attempts"))]
        if p99s:
            a["p99_min"], a["p99_max"] = str(int(min(p99s))), str(int(max(p99s)))
        if rates:
            a["rate_min"], a["rate_max"] = f"{min(rates):.0f}", f"{max(rates):.0f}"
        if not ok:
            a["status"] = rs[0].get("status")
        out.append(a)
    out.sort(key=sort_key)
    return out


def held_info(infos, key):
    """A bench-info value (hold_mb, oom_batch) of the boots that ran hold cells."""
    vals = sorted({i.get(key) for i in infos if i and i.get("hold_methods")} - {None})
    return "/".join(vals) if vals else "?"


def hold_note(r):
    """Attempts of a hold cell, and the OOM calls it caused where there were any."""
    if not r or r.get("status") != "ok":
        return ""
    calls = num(r.get("oom_calls"))
    return f" ({r.get('attempts')}" + (f", {calls:.0f} OOM" if calls else "") + ")"


def success_cell(r):
    if r is None:
        return "n/a"
    if r.get("status") not in ("ok", None):
        return f"**{r['status']}**"
    a = num(r.get("attempts")) or 0
    s = num(r.get("successes")) or 0
    rate = f"{100.0 * s / a:.0f}%" if a else "0%"
    extra = ""
    if r.get("budget_hit") == "1":
        extra = f" ({a} tries, budget)"
    n = int(num(r.get("n_boots")) or 1)
    if n > 1:
        # Median over the boots, with the spread (min-max) in brackets.
        rs = (f" [{r.get('rate_min')}-{r.get('rate_max')}%]"
              if r.get("rate_min") != r.get("rate_max") else "")
        return (f"{rate}{rs} · {fmt_ns(num(r.get('p99_ns')))} "
                f"[{fmt_ns(num(r.get('p99_min')))}-{fmt_ns(num(r.get('p99_max')))}], "
                f"{n} boots{extra}")
    return f"{rate} · {fmt_ns(num(r.get('p99_ns')))}{extra}"


def ratio(a, b):
    a, b = num(a), num(b)
    if a is None or b is None or b == 0:
        return None
    return a / b


def fmt_ratio(x):
    return "-" if x is None else f"{x:.2f}"


def access_ratios(rows, kvs, orders):
    """Per order: virtual/physical access-cost ratios (seq, rand).

    Preferred: within one cell, the method's held allocation against the
    physically contiguous reference measured in alternate rounds
    (seq_vs_ref). Scenario none first (where a physical reference exists).
    """
    scen_pref = ["none", "movable", "unmovable"]

    def in_cell(k, v, m, o, want_path):
        for s in scen_pref:
            r = cell(rows, k, v, s, m, o)
            if r and r.get("access_path") == want_path and r.get("seq_vs_ref"):
                return (num(r["seq_vs_ref"]), num(r.get("rand_vs_ref")), s)
        return None

    out = []
    for o in orders:
        line = {"order": o}
        for (k, v) in kvs:
            if k != "plain":
                got = in_cell(k, v, "vfallback", o, "virtual")
                if got:
                    line.setdefault("vfallback", {})[f"{k}/{v}"] = got
            got = in_cell(k, v, "vmalloc", o, "virtual")
            if got:
                line.setdefault("vmalloc", {})[f"{k}/{v}"] = got
        # across boots: always vfallback vs default vfallback (physical), scenario none
        for (k, v) in kvs:
            if v != "always":
                continue
            virt = cell(rows, k, "always", "none", "vfallback", o)
            phys = cell(rows, k, "default", "none", "vfallback", o)
            if virt and phys and phys.get("access_path") == "physical" and \
                    virt.get("access_path") == "virtual":
                rs = ratio(virt.get("seq_ns_per_page"), phys.get("seq_ns_per_page"))
                rr = ratio(virt.get("rand_ns_per_page"), phys.get("rand_ns_per_page"))
                if rs is not None:
                    line["across"] = (rs, rr, k)
        out.append(line)
    return out


PATTERN_NOTE = {
    "cycle": "allocate/touch/free cycles",
    "hold": "blocks held to the end of the run, each attempt needs a block of its own",
}


def context_note(rows, kernel, variant, order, pattern, plain):
    """Where vfallback's p99 is not below plain's: the same boot's mainline
    virtual allocators at that order, and plain's worst attempt (a p99
    hides stalls rarer than 1 in 100)."""
    parts = []
    for m in ("vmalloc", "kvmalloc"):
        r = cell(rows, kernel, variant, "unmovable", m, order, pattern)
        if r and r.get("status") == "ok" and num(r.get("p99_ns")) is not None:
            parts.append(f"{m} {fmt_ns(num(r.get('p99_ns')))}")
    if plain and plain.get("status") == "ok" and num(plain.get("max_ns")) is not None:
        parts.append(f"plain max {fmt_ns(num(plain.get('max_ns')))}")
    return " [" + ", ".join(parts) + "]" if parts else ""


def _n(r, k):
    """Numeric field of a row, None when absent, n/a or negative (no such attempt)."""
    v = num((r or {}).get(k))
    return None if v is None or v < 0 else v


def criteria(rows, kvs, orders):
    """Headline criteria, each PASS or FAIL with its numbers (one boot per cell)."""
    L = []
    stage = [(k, v) for (k, v) in kvs if k != "plain"]
    # 1. strict: vfallback 100% at every order, no OOM event.
    for (k, v) in stage:
        vf = [r for r in rows if (r["kernel"], r["variant"], r["scenario"], r["method"])
              == (k, v, "strict", "vfallback")]
        if not vf:
            continue
        bad = [r for r in vf if r.get("status") != "ok" or _n(r, "successes") != _n(r, "attempts")
               or not _n(r, "attempts") or (_n(r, "oom_attempts") or 0) != 0
               or r.get("oom_attempts") in (None, "", "n/a")]
        others = []
        for o in orders:
            parts = []
            for m in ("plain_mayfail", "plain_noretry"):
                for pat in ("cycle", "hold"):
                    r = cell(rows, k, v, "strict", m, o, pat)
                    if r and _n(r, "attempts"):
                        parts.append(f"{m}{'/hold' if pat == 'hold' else ''} "
                                     f"{100.0 * (_n(r, 'successes') or 0) / _n(r, 'attempts'):.0f}%")
            others.append(f"o{o}: " + ", ".join(parts))
        L.append(f"- **{'PASS' if not bad else 'FAIL'}** {k}/{v}, `strict`: vfallback succeeds in "
                 f"100% of attempts at every order with 0 OOM events ({len(vf)} cells"
                 + (", failing: " + ", ".join(
                     f"o{r['order']}/{r.get('pattern')}: {r.get('successes')}/{r.get('attempts')}, "
                     f"oom_attempts {r.get('oom_attempts', 'n/a')}" for r in bad[:6]) if bad else "")
                 + "). Beside it: " + "; ".join(others))
    # 2. unfragmented, default variant: the physical fast path costs nothing.
    for (k, v) in stage:
        if v != "default":
            continue
        res = []
        for o in orders:
            vf, pl = cell(rows, k, v, "none", "vfallback", o), cell(rows, k, v, "none", "plain", o)
            a, b = _n(vf, "p99_ns"), _n(pl, "p99_ns")
            if a is None or b is None or not b:
                continue
            res.append((o, a / b, a, b))
        if res:
            ok = all(x[1] <= 1.05 for x in res)
            L.append(f"- **{'PASS' if ok else 'FAIL'}** {k}/{v}, `none`: vfallback's p99 <= 1.05x "
                     "plain's (physical fast path, same boot): " + ", ".join(
                         f"o{o} {r:.2f} ({fmt_ns(a)} vs {fmt_ns(b)})" for o, r, a, b in res))
    # 3. the virtual path against vmalloc (reported; the target is the performance issue's).
    for (k, v) in stage:
        if v != "always":
            continue
        for sc in ("none", "strict"):
            res = []
            for o in orders:
                vf, vm = cell(rows, k, v, sc, "vfallback", o), cell(rows, k, v, sc, "vmalloc", o)
                a = _n(vf, "ok_p99_ns") if _n(vf, "ok_p99_ns") is not None else _n(vf, "p99_ns")
                b = _n(vm, "ok_p99_ns") if _n(vm, "ok_p99_ns") is not None else _n(vm, "p99_ns")
                if a is not None and b:
                    res.append(f"o{o} {a / b:.2f}")
            if res:
                L.append(f"- report {k}/{v}, `{sc}`: vfallback p99 / vmalloc p99 (virtual path, "
                         "same boot): " + ", ".join(res))
    if not L:
        L.append("- no stage kernel in this run")
    nb = max((int(num(r.get("n_boots")) or 1) for r in rows), default=1)
    L.append("- Each figure is from one boot per cell." if nb == 1 else
             f"- Figures are medians over the repeated boots of a cell (up to {nb}); the tables "
             "above give the spread (min-max) of each cell.")
    return L


def checks(rows, kvs, orders):
    """Acceptance statements, evaluated on the data, per allocation pattern."""
    lines = []
    for pat in PATTERNS:
        for (k, v) in kvs:
            if k == "plain":
                continue
            if not any((r["kernel"], r["variant"], r["scenario"], r.get("pattern") or "cycle")
                       == (k, v, "unmovable", pat) for r in rows):
                if pat == "cycle":
                    lines.append(f"- {k}/{v}, unmovable: not measured")
                continue
            label = f"{k}/{v}, unmovable, {pat} ({PATTERN_NOTE[pat]})"
            fails = []
            for o in orders:
                pn = cell(rows, k, v, "unmovable", "plain_noretry", o, pat)
                vf = cell(rows, k, v, "unmovable", "vfallback", o, pat)
                pl = cell(rows, k, v, "unmovable", "plain", o, pat)
                if not pn or not vf or num(pn.get("attempts")) is None:
                    continue
                if (num(pn.get("successes")) or 0) < (num(pn.get("attempts")) or 0):
                    a, s = num(vf.get("attempts")) or 0, num(vf.get("successes")) or 0
                    full = a > 0 and s == a and vf.get("status") == "ok"
                    p99_vf, p99_pl = num(vf.get("p99_ns")), num(pl.get("p99_ns")) if pl else None
                    faster = p99_vf is not None and p99_pl is not None and p99_vf < p99_pl
                    fails.append((o, full, faster, p99_vf, p99_pl,
                                  context_note(rows, k, v, o, pat, pl)))
            if not fails:
                lines.append(f"- {label}: plain_noretry never failed, nothing to compare")
                continue
            ok100 = all(f[1] for f in fails)
            okp99 = all(f[2] for f in fails)
            orders_s = ",".join(str(f[0]) for f in fails)
            lines.append(f"- {label}, orders where plain_noretry failed ({orders_s}): "
                         f"vfallback 100% successful: **{'yes' if ok100 else 'no'}**; "
                         f"vfallback p99 below plain: **{'yes' if okp99 else 'no'}**"
                         + ("" if okp99 else " (" + ", ".join(
                             f"order {f[0]}: {fmt_ns(f[3])} vs {fmt_ns(f[4])}{f[5]}"
                             for f in fails if not f[2]) + ")"))
    for (k, v) in kvs:
        if v != "always":
            continue
        have = [o for o in orders
                if (r := cell(rows, k, v, "none", "vfallback", o)) and r.get("access_path") == "virtual"
                and r.get("seq_vs_ref")]
        lines.append(f"- {k}/{v}: access-cost ratio virtual vs physical reported at orders "
                     f"{','.join(map(str, have)) or 'none'} of {','.join(map(str, orders))}")
    return lines


def plots(rows, kvs, orders, outdir):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        print(f"process: no plots (matplotlib: {e})", file=sys.stderr)
        return []
    written = []
    scenarios = [s for s in SCENARIOS if any(r["scenario"] == s for r in rows)]
    colors = {"plain": "tab:blue", "plain_noretry": "tab:cyan", "vfallback": "tab:red",
              "vmalloc": "tab:green", "kvmalloc": "tab:olive"}
    markers = {"plain": "o", "plain_noretry": "s", "vfallback": "^", "vmalloc": "x", "kvmalloc": "d"}
    dashes = ["-", "--", ":", "-."]

    def style(k, v, m):
        i = kvs.index((k, v)) if (k, v) in kvs else 0
        return dict(color=colors.get(m), marker=markers.get(m), linestyle=dashes[i % len(dashes)],
                    label=f"{k}/{v} {m}")

    def legend_of(axs):
        seen = {}
        for ax in axs:
            for h, lab in zip(*ax.get_legend_handles_labels()):
                seen.setdefault(lab, h)
        return list(seen.values()), list(seen.keys())

    def series(k, v, s, m, key):
        xs, ys = [], []
        for o in orders:
            r = cell(rows, k, v, s, m, o)
            if r is None:
                continue
            y = key(r)
            if y is not None:
                xs.append(o)
                ys.append(y)
        return xs, ys

    def rate(r):
        a = num(r.get("attempts")) or 0
        return 100.0 * (num(r.get("successes")) or 0) / a if a and r.get("status") == "ok" else 0.0

    for name, key, ylabel, logy in (
            ("success_rate.png", rate, "success rate (%)", False),
            ("p99_latency.png", lambda r: num(r.get("p99_ns")), "p99 alloc+free latency (ns, TCG)", True)):
        fig, axes = plt.subplots(1, max(1, len(scenarios)), figsize=(5.5 * max(1, len(scenarios)), 5.5),
                                 squeeze=False)
        for ax, s in zip(axes[0], scenarios):
            for (k, v) in kvs:
                for m in METHODS:
                    xs, ys = series(k, v, s, m, key)
                    if xs:
                        ax.plot(xs, ys, **style(k, v, m))
            ax.set_title(f"scenario: {s}")
            ax.set_xlabel("order")
            ax.set_ylabel(ylabel)
            ax.set_xticks(orders)
            if logy:
                ax.set_yscale("log")
            else:
                ax.set_ylim(-5, 105)
            ax.grid(alpha=0.3)
        handles, labels = legend_of(axes[0])
        fig.legend(handles, labels, fontsize=7, loc="lower center", ncol=min(5, max(1, len(labels))))
        fig.tight_layout(rect=(0, 0.08 + 0.03 * (len(labels) // 5), 1, 1))
        fig.savefig(os.path.join(outdir, name), dpi=110)
        plt.close(fig)
        written.append(name)

    # Access cost: ns per page (seq, rand), scenario none, per kernel/variant.
    fig, axes = plt.subplots(1, 2, figsize=(11, 5.5), squeeze=False)
    for ax, field, title in ((axes[0][0], "seq_ns_per_page", "sequential"),
                             (axes[0][1], "rand_ns_per_page", "random 8-byte RMW")):
        for (k, v) in kvs:
            for m in METHODS:
                xs, ys = series(k, v, "none", m, lambda r: num(r.get(field)))
                if xs:
                    ax.plot(xs, ys, **style(k, v, m))
        ax.set_title(f"access cost, {title} (scenario none)")
        ax.set_xlabel("order")
        ax.set_ylabel("ns per page (TCG)")
        ax.set_xticks(orders)
        ax.grid(alpha=0.3)
    handles, labels = legend_of(axes[0])
    fig.legend(handles, labels, fontsize=7, loc="lower center", ncol=min(5, max(1, len(labels))))
    fig.tight_layout(rect=(0, 0.08 + 0.03 * (len(labels) // 5), 1, 1))
    fig.savefig(os.path.join(outdir, "access_cost.png"), dpi=110)
    plt.close(fig)
    written.append("access_cost.png")
    return written


def readme(rows, metas, infos, kvs, orders, pngs, perf_tops, meta_json, src, slab_rows=(),
           lbs_rows=(), start=None):
    L = []
    L.append("# Benchmark results: plain higher-order allocation vs virtual fallback")
    L.append("")
    L.append(f"Generated by `bench/process.py` from the raw outputs in `{src}`; "
             "do not edit by hand (`make bench` rewrites it). Data: `alloc.csv`, `slab.csv`, "
             "`largeblock.csv`.")
    L.append("")
    L.append("## Conditions")
    L.append("")
    accels = sorted({m.get("accel", "?") for m in metas})
    mems = sorted({m.get("mem", "?") for m in metas})
    cpus = sorted({m.get("cpus", "?") for m in metas})
    gcpus = sorted({i.get("cpus", "?") for i in infos if i})
    rels = sorted({f"{m.get('kernel')}/{m.get('variant')}: {m.get('kernel_version', '?')}" for m in metas})
    clocks = sorted({r.get("clock") for r in rows if r.get("clock")})
    L.append(f"- Accelerator: {', '.join(accels)}"
             + (" (QEMU TCG: emulated CPU, no hardware performance counters)" if "tcg" in accels else ""))
    L.append(f"- Kernels: {'; '.join(rels)}")
    L.append(f"- Guest: memory {', '.join(mems)}, CPUs requested {', '.join(cpus)}"
             + (f", CPUs online in the guest {', '.join(gcpus)}" if gcpus else ""))
    if meta_json:
        L.append(f"- Date: {meta_json.get('date', '?')}; host CPU: {meta_json.get('host_cpu', '?')}; "
                 f"bench mode: {meta_json.get('bench', '?')}")
    if clocks:
        L.append(f"- Timing clock in the guest: {', '.join(clocks)} (tsc: the guest clocksource was "
                 "too coarse, the module timed with the TSC calibrated against ktime)"
                 if "tsc" in clocks else f"- Timing clock in the guest: {', '.join(clocks)}")
    L.append("- **Absolute times are emulator times** (TCG): only ratios between methods "
             "measured in the same boot mean something; comparisons across boots are marked.")
    L.append("- Latency: per attempt, allocation + free (the touch is not timed); a failed "
             "attempt counts with the time it took to fail. p99 over all attempts "
             "(nearest rank: the largest value below 100 attempts).")
    L.append("- Scenarios: `none` (fresh guest), `aged` (fragmentation grown by a file "
             "workload before the measurement: rounds of many 4-32 KiB files on tmpfs, each "
             "followed by deleting every other file, so that half-used slab pages stay between "
             "page cache and free holes; nothing runs during the measurement), `movable` (stress-ng vm/mmapmany/pagemove, ~70% of "
             "memory, running during the measurement), `unmovable` (bench/vffrag.ko pins every "
             "other page; compaction cannot repair it; its OOM notifier releases pinned pages "
             "instead of an OOM kill, counted in the `oom_released` and `oom_calls` columns), "
             "`strict` (the same fragmenter with that rescue off during the measurement loop; "
             "plain is measured as `plain_mayfail`, `__GFP_RETRY_MAYFAIL`, which fails where "
             "plain would call the OOM killer). Per attempt, vfbench counts the OOM-notifier "
             "calls during it (`oom_attempts`, `oom_assisted` successes) and reports the "
             "percentiles of unassisted successes (`ok_*`), assisted ones and failures "
             "(`fail_*`) apart.")
    L.append("")
    L.append("## Success rate and p99 latency by order")
    L.append("")
    L.append("Each cell: success rate · p99 latency of allocate+free. `n/a`: method not in "
             "that kernel; **missing**/**no_data**: the boot did not report the cell.")
    for s in SCENARIOS:
        if not any(r["scenario"] == s for r in rows):
            continue
        L.append("")
        L.append(f"### Scenario `{s}`")
        L.append("")
        cols = [(k, v, m) for (k, v) in kvs for m in HEADLINE_METHODS
                if not (k == "plain" and m == "vfallback")
                and any((r["kernel"], r["variant"], r["scenario"], r["method"]) == (k, v, s, m)
                        for r in rows)]
        L.append("| order | " + " | ".join(f"{k}/{v} {m}" for k, v, m in cols) + " |")
        L.append("|---:|" + "---|" * len(cols))
        for o in orders:
            L.append(f"| {o} | " + " | ".join(success_cell(cell(rows, k, v, s, m, o))
                                             for k, v, m in cols) + " |")
        hcols = [(k, v, m) for (k, v) in kvs for m in HEADLINE_METHODS
                 if any((r["kernel"], r["variant"], r["scenario"], r["method"], r.get("pattern"))
                        == (k, v, s, m, "hold") for r in rows)]
        if not hcols:
            continue
        L.append("")
        L.append(f"### Scenario `{s}`, blocks held")
        L.append("")
        L.append("Every block of a run is kept until its end (vfbench `hold=N`, at most "
                 f"{held_info(infos, 'hold_mb')} MiB), so that each attempt needs a free block of its own; in the "
                 "cycles above, a block freed by one attempt is usually the next attempt's. "
                 "Each cell: success rate · p99 latency of allocate+free (attempts, and the "
                 "OOM calls the run caused: each released "
                 f"{held_info(infos, 'oom_batch')} pinned pages instead of a kill).")
        L.append("")
        L.append("| order | " + " | ".join(f"{k}/{v} {m}" for k, v, m in hcols) + " |")
        L.append("|---:|" + "---|" * len(hcols))
        for o in orders:
            L.append(f"| {o} | " + " | ".join(
                success_cell(r) + hold_note(r)
                for r in (cell(rows, k, v, s, m, o, "hold") for k, v, m in hcols)) + " |")
    L.append("")
    L.append("## Access cost: virtual vs physical")
    L.append("")
    accels = {r.get("accel") for r in rows}
    tcg_only = accels <= {"tcg", "?", None, ""}
    if tcg_only:
        L.append("**Not measurable under TCG** (every boot of this run was TCG): QEMU's software "
                 "TLB holds 4 KiB entries whatever page size the guest maps, so the linear map's "
                 "large pages cannot win and a ratio near 1.00 says nothing about real hardware. "
                 "The cells still record the raw numbers (`seq_ns_per_page`, `rand_ns_per_page`, "
                 "`seq_vs_ref`, `rand_vs_ref` in alloc.csv); this table is printed for KVM runs.")
        L.append("")
    L.append("Ratio of ns per page, virtual mapping / physical (linear map); 1.00 = same cost. "
             "seq: write+read of every word; rand: 16 random 8-byte read-modify-writes per page.")
    L.append("")
    ar = [] if tcg_only else access_ratios(rows, kvs, orders)
    vf_keys = sorted({kk for line in ar for kk in line.get("vfallback", {})},
                     key=lambda x: (kernel_key(x.split("/")[0]), x))
    vm_keys = sorted({kk for line in ar for kk in line.get("vmalloc", {})},
                     key=lambda x: (kernel_key(x.split("/")[0]), x))
    hdr = ["order"]
    for kk in vf_keys:
        hdr += [f"{kk} vfallback (virtual) seq", "rand"]
    for kk in vm_keys:
        hdr += [f"{kk} vmalloc seq", "rand"]
    hdr += ["across boots: always/default vfallback seq", "rand"]
    L.append("Within one cell: the method's allocation against a physically contiguous "
             "reference of the same order (plain_noretry, linear map), measured in alternate "
             "rounds (`seq_vs_ref`, `rand_vs_ref` in alloc.csv); scenario `none` where it has one.")
    L.append("")
    L.append("| " + " | ".join(hdr) + " |")
    L.append("|---:|" + "---|" * (len(hdr) - 1))
    for line in ar:
        cells = [str(line["order"])]
        for kk in vf_keys:
            x = line.get("vfallback", {}).get(kk)
            cells += [fmt_ratio(x[0]), fmt_ratio(x[1])] if x else ["-", "-"]
        for kk in vm_keys:
            x = line.get("vmalloc", {}).get(kk)
            cells += [fmt_ratio(x[0]), fmt_ratio(x[1])] if x else ["-", "-"]
        ac = line.get("across")
        cells += [fmt_ratio(ac[0]), fmt_ratio(ac[1])] if ac else ["-", "-"]
        L.append("| " + " | ".join(cells) + " |")
    L.append("")
    L.extend(slab_section(list(slab_rows)))
    L.append("")
    L.extend(lbs_section(list(lbs_rows)))
    L.extend(start_state_lines(start or {}, kvs))
    L.append("")
    L.append("## Headline criteria")
    L.append("")
    L.extend(criteria(rows, kvs, orders))
    L.extend(reclaim_criteria(list(slab_rows)))
    L.append("")
    L.append("## Checks (from the data)")
    L.append("")
    L.extend(checks(rows, kvs, orders) or ["- no stage kernel in this run"])
    coll = [r for r in rows if (r.get("frag_state") or "").startswith("collapsed")]
    held = [r for r in rows if r.get("frag_state") == "held"]
    if coll or held:
        L.append(f"- fragmentation under unmovable/strict, checked around every cell (free blocks of "
                 f"the cell's order or above before and after it, vfallback's physical share): "
                 f"{len(held)} cells held, {len(coll)} collapsed"
                 + (": " + "; ".join(f"{r['kernel']}/{r['variant']} {r['scenario']} {r['method']} "
                                     f"o{r['order']}/{r.get('pattern')}: {r['frag_state'][11:-1]}"
                                     for r in coll[:10]) + (" ..." if len(coll) > 10 else "")
                    if coll else ""))
    failed = [r for r in rows if r.get("status") != "ok"]
    L.append(f"- cells not reported by their boot: {len(failed)}"
             + (" (" + ", ".join(f"{r['kernel']}/{r['variant']} {r['scenario']} {r['method']} "
                                 f"o{r['order']}: {r['status']}" for r in failed[:12])
                + (" ..." if len(failed) > 12 else "") + ")" if failed else ""))
    boots = sorted({(m.get("kernel"), m.get("variant"), m.get("scenario"), m.get("boot", "?"))
                    for m in metas})
    bad = [b for b in boots if b[3] != "PASS"]
    L.append(f"- boots: {len(boots)}, failed: {len(bad)}"
             + (" (" + ", ".join(f"{b[0]}/{b[1]} {b[2]}: {b[3]}" for b in bad) + ")" if bad else ""))
    L.append("")
    L.append("## perf")
    L.append("")
    dtlb = sorted({r.get("perf_dtlb_load_misses") for r in rows if r.get("perf_stat") not in (None, "n/a")})
    L.append("- `perf stat -e task-clock,page-faults,dTLB-load-misses` wraps a second run of one order "
             f"per method (columns `perf_*`); dTLB-load-misses: {', '.join(dtlb) or 'not measured'}"
             + (" (TCG has no hardware counters)" if "unsupported" in dtlb else ""))
    if perf_tops:
        L.append("- `perf record -e cpu-clock` of the allocate/touch/free loop, top symbols "
                 "(files under `raw/`):")
        L.append("")
        for name, tops in perf_tops:
            L.append(f"  - `{name}`: " + "; ".join(tops[:5]))
    L.append("")
    if pngs:
        L.append("## Plots")
        L.append("")
        for p in pngs:
            L.append(f"![{p}]({p})")
        L.append("")
    return "\n".join(L)


def read_zone_table(path):
    """{zone: [11 values]} from a buddyinfo or extfrag unusable_index file
    ("Node 0, zone   Normal v0 .. v10"); {} when absent."""
    out = {}
    try:
        with open(path) as f:
            for line in f:
                p = line.split()
                if len(p) >= 15 and p[2] == "zone":
                    vals = [num(x) for x in p[4:15]]
                    if all(v is not None for v in vals):
                        out[p[3]] = vals
    except OSError:
        pass
    return out


def start_state(runs):
    """Per (kernel, variant, scenario): the guest's free blocks and unusable
    index of its largest zone (Normal, else DMA32) at the start of the
    measurement (buddyinfo-SCEN-start, unusable-SCEN-start), one entry per
    boot: {key: [(zone, free[11], unusable[11]), ...]}."""
    out = {}
    for run in runs:
        meta = read_kv_file(os.path.join(run, "meta"))
        scen = meta.get("scenario")
        if not scen:
            continue
        d = os.path.dirname(guest_file(run, "bench-raw.txt"))
        buddy = read_zone_table(os.path.join(d, f"buddyinfo-{scen}-start"))
        unus = read_zone_table(os.path.join(d, f"unusable-{scen}-start"))
        zone = "Normal" if "Normal" in buddy else ("DMA32" if "DMA32" in buddy else None)
        if not zone or zone not in unus:
            continue
        out.setdefault((meta.get("kernel", "?"), meta.get("variant", "?"), scen), []).append(
            (zone, buddy[zone], unus[zone]))
    return out


def start_state_lines(state, kvs):
    """The table of start_state(): medians over the boots, unusable index
    with its min-max."""
    if not state:
        return []
    L = ["## Fragmentation at the start of the measurement", "",
         "The guest's largest zone just before the first cell, per scenario and kernel, "
         "median over the boots (min-max): the unusable free space index at orders 1, 3, 4, 9 "
         "and 10 (`/sys/kernel/debug/extfrag/unusable_index`: the share of free memory in "
         "blocks too small for that order; 0 = every free page is usable, 1 = none) and the "
         "free blocks of order >= 4 and >= 9 (`/proc/buddyinfo`). `aged` grows its "
         "fragmentation with a file workload (bench/README.md); `strict` and `unmovable` pin "
         "every other page.", "",
         "| scenario | kernel | zone | boots | unusable o1 | o3 | o4 | o9 | o10 | free >= o4 | free >= o9 |",
         "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    order_s = {s: i for i, s in enumerate(SCENARIOS)}
    for key in sorted(state, key=lambda k: (order_s.get(k[2], 9),
                                            [kv for kv in kvs].index((k[0], k[1]))
                                            if (k[0], k[1]) in kvs else 9)):
        es = state[key]
        cells = [med_spread([e[2][o] for e in es], lambda x: f"{x:.3f}") for o in (1, 3, 4, 9, 10)]
        cells += [med_spread([sum(e[1][o:]) for e in es], lambda x: f"{int(round(x))}") for o in (4, 9)]
        L.append(f"| `{key[2]}` | {key[0]}/{key[1]} | {es[0][0]} | {len(es)} | " + " | ".join(cells) + " |")
    L.append("")
    return L


def perf_summaries(runs):
    out = []
    for run in runs:
        d = os.path.dirname(guest_file(run, "bench-raw.txt"))
        try:
            names = sorted(n for n in os.listdir(d) if n.startswith("perf-top-"))
        except OSError:
            continue
        meta = read_kv_file(os.path.join(run, "meta"))
        for n in names:
            tops = []
            with open(os.path.join(d, n)) as f:
                for line in f:
                    if line.startswith("#") or not line.strip():
                        continue
                    parts = line.split()
                    if len(parts) >= 3 and parts[0].endswith("%"):
                        tops.append(f"{parts[2]} {parts[0]}")
            out.append((f"{meta.get('kernel')}/{meta.get('variant')} {n}", tops))
    return out


def have_matplotlib():
    try:
        import matplotlib  # noqa: F401
        return True
    except ImportError:
        return False


def main(argv):
    # Debian's matplotlib belongs to the system python: use it when the
    # python3 first in PATH (a virtualenv, pyenv) does not have it.
    if not have_matplotlib() and not os.environ.get("VF_PROCESS_REEXEC") and \
            os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3") and \
            os.access("/usr/bin/python3", os.X_OK):
        os.environ["VF_PROCESS_REEXEC"] = "1"
        os.execv("/usr/bin/python3", ["/usr/bin/python3", os.path.abspath(__file__)] + argv)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", help="directory with one subdirectory (meta + outputs) per boot")
    ap.add_argument("--out", default="results", help="output directory (default results)")
    args = ap.parse_args(argv)
    if not os.path.isdir(args.runs):
        print(f"process: {args.runs}: not a directory", file=sys.stderr)
        return 2
    runs = find_runs(args.runs)
    if not runs:
        print(f"process: no run (directory with a meta file) under {args.runs}", file=sys.stderr)
        return 2
    os.makedirs(args.out, exist_ok=True)
    rows, metas, infos, slab_rows, lbs_rows = [], [], [], [], []
    for run in runs:
        meta, info, rr = load_run(run)
        metas.append(meta)
        infos.append(info)
        rows.extend(rr)
        slab_rows.extend(load_slab(run))
        lbs_rows.extend(load_lbs(run))
    rows.sort(key=sort_key)
    slab_rows.sort(key=slab_sort_key)
    lbs_rows.sort(key=lbs_sort_key)
    kvs = sorted({(r["kernel"], r["variant"]) for r in rows},
                 key=lambda kv: (kernel_key(kv[0]), VARIANTS.index(kv[1]) if kv[1] in VARIANTS else 9))
    orders = sorted({int(r["order"]) for r in rows})
    write_csv(rows, os.path.join(args.out, "alloc.csv"), COLUMNS + EXTRA)
    write_csv(slab_rows, os.path.join(args.out, "slab.csv"), SLAB_COLUMNS)
    write_csv(lbs_rows, os.path.join(args.out, "largeblock.csv"), LBS_COLUMNS + LBS_EXTRA,
              keep_na=True)
    pngs = plots(rows, kvs, orders, args.out)
    meta_json = {}
    try:
        with open(os.path.join(args.out, "meta.json")) as f:
            meta_json = json.load(f)
    except (OSError, ValueError):
        pass
    # Relative to the README: no path of the machine that ran it.
    src = os.path.relpath(args.runs, args.out)
    # alloc.csv keeps every boot's cell; the README's tables and criteria
    # use the median over repeated boots, with the spread.
    text = readme(aggregate(rows), metas, infos, kvs, orders, pngs, perf_summaries(runs), meta_json, src,
                  slab_rows, lbs_rows, start_state(runs))
    with open(os.path.join(args.out, "README.md"), "w") as f:
        f.write(text + "\n")
    print(f"process: {len(runs)} boots, {len(rows)} cells, {len(slab_rows)} slab rows, "
          f"{len(lbs_rows)} large-block rows -> {args.out}/alloc.csv, slab.csv, largeblock.csv, "
          f"README.md, {', '.join(pngs) or 'no plots'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
