#!/usr/bin/env python3
"""Tables of bench/window-scaling.sh.

usage: window-scaling-report.py RAWDIR RESULTS MEM CPUS LABEL...

RAWDIR holds one directory per boot (winscale.txt, accel, label). Writes
RESULTS/window-scaling.csv (one row per boot and cell) and
RESULTS/window-scaling.md: for each kernel, the median ops/s of each cell
over its boots and reps; the scaling, the median over boots and reps of
ops/s with N threads over ops/s with 1 thread in the same boot and rep;
and each kernel's median ops/s over the first kernel's (different boots,
interleaved). vmalloc's row is the reference: vmalloc is the same on
every kernel, so its ratio shows what boot-to-boot variation alone does;
vfallback over vmalloc in the same boot, rep and cell (measured one after
the other) takes that variation out. Profiles (perf-par-METHOD.txt in a
boot's directory): the share of the samples in the functions that manage
vmap areas (VMAP_AREA) and in spinlock functions (SPIN), per kernel.
"""
import csv
import os
import re
import statistics
import sys

FIELDS = ["label", "boot", "accel", "rep", "method", "order", "threads",
          "ops", "ops_per_s", "fail", "virtual", "thread_min_ops",
          "thread_max_ops", "elapsed_ms"]


# Functions of vmalloc's area management: the free tree's search, split and
# merge, the busy tree's insertion, the per-node pools.
VMAP_AREA = {
    "alloc_vmap_area", "__alloc_vmap_area", "find_vmap_lowest_match", "va_clip",
    "insert_vmap_area", "insert_vmap_area_augment", "merge_or_add_vmap_area",
    "merge_or_add_vmap_area_augment", "free_vmap_area_rb_augment_cb_propagate",
    "free_vmap_area_rb_augment_cb_rotate", "free_vmap_area_rb_augment_cb_copy",
    "augment_tree_propagate_from", "rb_insert_color", "rb_erase",
    "__rb_insert_augmented", "__rb_erase_color", "reclaim_list_global",
    "node_alloc", "node_pool_del_va", "node_pool_add_va", "decay_va_pool_node",
    "decay_va_pool", "find_unlink_vmap_area", "free_vmap_area_noflush",
}
SPIN = {"_raw_spin_lock", "_raw_spin_unlock", "native_queued_spin_lock_slowpath",
        "queued_spin_lock_slowpath", "__lock_text_start", "_raw_spin_lock_irqsave",
        "_raw_spin_unlock_irqrestore"}
PROFILE_LINE = re.compile(r"^\s*([0-9.]+)%\s+\[k\]\s+(\S+)")


def profile_shares(path):
    area = spin = 0.0
    top = []
    for line in open(path):
        m = PROFILE_LINE.match(line)
        if not m:
            continue
        pct, sym = float(m.group(1)), m.group(2)
        if sym in VMAP_AREA:
            area += pct
        if sym in SPIN:
            spin += pct
        if len(top) < 5:
            top.append(f"{sym} {pct:.1f}")
    return area, spin, top


def parse(line):
    kv = {}
    for tok in line.split()[1:]:
        if "=" in tok:
            k, v = tok.split("=", 1)
            kv[k] = v
    return kv


def load(root):
    rows = []
    for d in sorted(os.listdir(root)):
        p = os.path.join(root, d, "winscale.txt")
        if not os.path.isfile(p):
            continue
        label = open(os.path.join(root, d, "label")).read().strip()
        accel = open(os.path.join(root, d, "accel")).read().strip()
        for line in open(p):
            if not line.startswith("par "):
                continue
            kv = parse(line)
            try:
                rows.append({
                    "label": label, "boot": d, "accel": accel,
                    "rep": int(kv["rep"]), "method": kv["method"],
                    "order": int(kv["order"]), "threads": int(kv["threads"]),
                    "ops": int(kv["ops"]), "ops_per_s": int(kv["ops_per_s"]),
                    "fail": int(kv["fail"]), "virtual": int(kv["virtual"]),
                    "thread_min_ops": int(kv["thread_min_ops"]),
                    "thread_max_ops": int(kv["thread_max_ops"]),
                    "elapsed_ms": int(kv["elapsed_ms"]),
                })
            except (KeyError, ValueError) as e:
                sys.exit(f"window-scaling-report: {p}: bad line ({e}): {line.strip()}")
    return rows


def fmt(x, nd=2):
    return "-" if x is None else f"{x:.{nd}f}"


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    root, out, mem, cpus = sys.argv[1:5]
    labels = sys.argv[5:]
    rows = load(root)
    if not rows:
        sys.exit(f"window-scaling-report: no par lines under {root}: every boot failed (see its logs)")
    with open(os.path.join(out, "window-scaling.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        for r in rows:
            w.writerow(r)

    labels = [l for l in labels if any(r["label"] == l for r in rows)]
    cells = sorted({(r["method"], r["order"], r["threads"]) for r in rows})
    methods = sorted({c[0] for c in cells})
    orders = sorted({c[1] for c in cells})
    threads = sorted({c[2] for c in cells})
    accels = sorted({r["accel"] for r in rows})
    boots = {l: sorted({r["boot"] for r in rows if r["label"] == l}) for l in labels}

    def med(l, m, o, t):
        v = [r["ops_per_s"] for r in rows
             if (r["label"], r["method"], r["order"], r["threads"]) == (l, m, o, t)]
        return statistics.median(v) if v else None

    def scaling(l, m, o, t):
        one = {(r["boot"], r["rep"]): r["ops_per_s"] for r in rows
               if (r["label"], r["method"], r["order"], r["threads"]) == (l, m, o, 1)}
        v = [r["ops_per_s"] / one[(r["boot"], r["rep"])] for r in rows
             if (r["label"], r["method"], r["order"], r["threads"]) == (l, m, o, t)
             and one.get((r["boot"], r["rep"]))]
        return statistics.median(v) if v else None

    fails = sum(r["fail"] for r in rows)
    md = ["# Window scaling: the virtual path from several CPUs at once", "",
          f"bench/window-scaling.sh; accelerator {', '.join(accels)}; guest {mem} / {cpus} CPUs; "
          f"boots per kernel: {', '.join(f'{l} {len(boots[l])}' for l in labels)}; "
          "each cell: vfbench par (THREADS kthreads, one per CPU, allocate and free "
          "order-ORDER blocks, 4 held each, for MS ms); failed allocations in all cells: "
          f"{fails}.", "",
          "## ops/s (median over boots and reps)", "",
          "| method | order | threads | " + " | ".join(labels) + " |",
          "|---|---|---|" + "---|" * len(labels)]
    for m, o, t in cells:
        md.append(f"| {m} | {o} | {t} | " +
                  " | ".join(fmt(med(l, m, o, t), 0) for l in labels) + " |")
    md += ["", "## Scaling: ops/s with N threads over 1 thread, same boot (median)", "",
           "| method | order | threads | " + " | ".join(labels) + " |",
           "|---|---|---|" + "---|" * len(labels)]
    for m, o, t in cells:
        if t == 1 or 1 not in threads:
            continue
        md.append(f"| {m} | {o} | {t} | " +
                  " | ".join(fmt(scaling(l, m, o, t)) for l in labels) + " |")
    if len(labels) > 1:
        base = labels[0]
        md += ["", f"## Each kernel over {base} (median ops/s over median ops/s; boots interleaved)", "",
               "| method | order | threads | " + " | ".join(labels[1:]) + " |",
               "|---|---|---|" + "---|" * (len(labels) - 1)]
        for m, o, t in cells:
            b = med(base, m, o, t)
            md.append(f"| {m} | {o} | {t} | " +
                      " | ".join(fmt(med(l, m, o, t) / b if b and med(l, m, o, t) is not None else None)
                                 for l in labels[1:]) + " |")
        md += ["", "vmalloc is the same code on every kernel: its ratios are the "
               "variation between boots, the floor of the others."]
    def norm(l, m, o, t):
        vm = {(r["boot"], r["rep"]): r["ops_per_s"] for r in rows
              if (r["label"], r["method"], r["order"], r["threads"]) == (l, "vmalloc", o, t)}
        v = [r["ops_per_s"] / vm[(r["boot"], r["rep"])] for r in rows
             if (r["label"], r["method"], r["order"], r["threads"]) == (l, m, o, t)
             and vm.get((r["boot"], r["rep"]))]
        return statistics.median(v) if v else None

    if "vmalloc" in methods and len(methods) > 1:
        md += ["", "## vfallback over vmalloc, same boot, rep and cell (median)", "",
               "| method | order | threads | " + " | ".join(labels) + " |",
               "|---|---|---|" + "---|" * len(labels)]
        for m, o, t in cells:
            if m == "vmalloc":
                continue
            md.append(f"| {m} | {o} | {t} | " +
                      " | ".join(fmt(norm(l, m, o, t)) for l in labels) + " |")

    profs = []
    for d in sorted(os.listdir(root)):
        lp = os.path.join(root, d, "label")
        if not os.path.isfile(lp):
            continue
        for fn in sorted(os.listdir(os.path.join(root, d))):
            mm = re.match(r"perf-par-(.+)\.txt$", fn)
            if mm:
                area, spin, top = profile_shares(os.path.join(root, d, fn))
                profs.append((open(lp).read().strip(), mm.group(1), d, area, spin, top))
    if profs:
        md += ["", "## Profiles (perf record -a -e cpu-clock, one cell per method, whole guest)", "",
               "| kernel | method | boot | vmap-area functions % | spinlock functions % | top 5 |",
               "|---|---|---|---|---|---|"]
        for l, m, d, area, spin, top in profs:
            md.append(f"| {l} | {m} | {d} | {area:.1f} | {spin:.1f} | {', '.join(top)} |")
        md += ["", "vmap-area functions: " + ", ".join(sorted(VMAP_AREA)) + ".",
               "Spinlock functions: " + ", ".join(sorted(SPIN)) + "."]
    with open(os.path.join(out, "window-scaling.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print("\n".join(md))


if __name__ == "__main__":
    main()
