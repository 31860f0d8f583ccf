#!/usr/bin/env python3
"""Tables of bench/lb-fallback-io.sh.

usage: lb-fallback-io-report.py RAWDIR RESULTS MEM CPUS LABEL...

RAWDIR holds one directory per boot (lbio.txt, accel, label). Writes
RESULTS/lb-fallback-io.csv (one row per timed part) and
RESULTS/lb-fallback-io.md: for each kernel, path (cache, fallback) and
operation (write, read), the median MB/s over its boots and reps; the
median over boots and reps of fallback MB/s over cache MB/s in the same
boot and rep (measured one after the other, which takes boot-to-boot
variation out); and each kernel's median fallback MB/s over the first
kernel's. A part that failed (rc != 0) is listed and left out.
"""
import csv
import os
import statistics
import sys

FIELDS = ["label", "boot", "accel", "rep", "path", "op", "mb", "ms",
          "mb_per_s", "rc", "fallback_blocks"]


def parse_boot(path):
    """The "lbio k=v ..." lines of one boot's lbio.txt, as dicts."""
    rows = []
    with open(path) as f:
        for line in f:
            if not line.startswith("lbio "):
                continue
            kv = dict(x.split("=", 1) for x in line.split()[1:] if "=" in x)
            missing = [k for k in ("rep", "path", "op", "mb", "ms", "rc")
                       if k not in kv]
            if missing:
                raise ValueError(f"{path}: line without {missing}: {line.strip()}")
            rows.append(kv)
    return rows


def load(rawdir, labels):
    rows = []
    for d in sorted(os.listdir(rawdir)):
        bdir = os.path.join(rawdir, d)
        txt = os.path.join(bdir, "lbio.txt")
        if not os.path.isfile(txt):
            continue
        with open(os.path.join(bdir, "label")) as f:
            label = f.read().strip()
        if label not in labels:
            raise ValueError(f"{bdir}: label {label} is not one of {labels}")
        with open(os.path.join(bdir, "accel")) as f:
            accel = f.read().strip()
        for kv in parse_boot(txt):
            ms = int(kv["ms"])
            mb = int(kv["mb"])
            rows.append({
                "label": label, "boot": d, "accel": accel, "rep": int(kv["rep"]),
                "path": kv["path"], "op": kv["op"], "mb": mb, "ms": ms,
                "mb_per_s": round(mb * 1000.0 / ms, 2) if ms > 0 else "",
                "rc": int(kv["rc"]),
                "fallback_blocks": int(kv.get("fallback_blocks", -1)),
            })
    return rows


def fmt(x, nd=1):
    return "-" if x is None else f"{x:.{nd}f}"


def median(xs):
    return statistics.median(xs) if xs else None


def report(rows, labels, mem, cpus):
    ok = [r for r in rows if r["rc"] == 0 and r["mb_per_s"] != ""]
    bad = [r for r in rows if r not in ok]
    accels = sorted({r["accel"] for r in rows})
    boots = {lb: len({r["boot"] for r in rows if r["label"] == lb}) for lb in labels}
    out = ["# Large-block fallback throughput (bench/lb-fallback-io.sh)", ""]
    out.append(f"Guests of {mem} / {cpus} CPUs, accelerator {', '.join(accels) or '-'}; "
               "64 KiB-block XFS on a tmpfs-backed loop device; 1 MiB calls "
               "(dd bs=1M), writes with conv=fsync, reads cold. fallback: every "
               "folio of the task failing (fail_page_alloc min-order 4, task filter).")
    out.append("Boots per kernel: " + ", ".join(f"{lb} {boots[lb]}" for lb in labels) + ".")
    out.append("")
    out.append("## Median MB/s over boots and reps")
    out.append("")
    out.append("| kernel | op | cache | fallback | fallback / cache (same boot and rep) |")
    out.append("|---|---|---|---|---|")
    fb = {}
    for lb in labels:
        for op in ("write", "read"):
            sel = [r for r in ok if r["label"] == lb and r["op"] == op]
            c = median([r["mb_per_s"] for r in sel if r["path"] == "cache"])
            f = median([r["mb_per_s"] for r in sel if r["path"] == "fallback"])
            fb[(lb, op)] = f
            pairs = {}
            for r in sel:
                pairs.setdefault((r["boot"], r["rep"]), {})[r["path"]] = r["mb_per_s"]
            ratios = [p["fallback"] / p["cache"] for p in pairs.values()
                      if "fallback" in p and "cache" in p and p["cache"] > 0]
            out.append(f"| {lb} | {op} | {fmt(c)} | {fmt(f)} | {fmt(median(ratios), 2)} (n={len(ratios)}) |")
    if len(labels) > 1:
        out.append("")
        out.append(f"## Fallback MB/s of each kernel over {labels[0]}'s (medians; different boots, interleaved)")
        out.append("")
        out.append("| kernel | write | read |")
        out.append("|---|---|---|")
        for lb in labels[1:]:
            cells = []
            for op in ("write", "read"):
                a, b = fb.get((lb, op)), fb.get((labels[0], op))
                cells.append(fmt(a / b, 2) if a and b else "-")
            out.append(f"| {lb} | {cells[0]} | {cells[1]} |")
    if bad:
        out.append("")
        out.append("## Parts left out (failed)")
        out.append("")
        for r in bad:
            out.append(f"- {r['label']} {r['boot']} rep {r['rep']} {r['path']} {r['op']}: rc {r['rc']}")
    return "\n".join(out) + "\n"


def main(argv):
    if len(argv) < 6:
        sys.exit("usage: lb-fallback-io-report.py RAWDIR RESULTS MEM CPUS LABEL...")
    rawdir, results, mem, cpus, labels = argv[1], argv[2], argv[3], argv[4], argv[5:]
    if not os.path.isdir(rawdir):
        sys.exit(f"lb-fallback-io-report.py: {rawdir} is not a directory")
    rows = load(rawdir, labels)
    if not rows:
        sys.exit(f"lb-fallback-io-report.py: no lbio lines under {rawdir}: did every boot fail?")
    os.makedirs(results, exist_ok=True)
    with open(os.path.join(results, "lb-fallback-io.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(results, "lb-fallback-io.md"), "w") as f:
        f.write(report(rows, labels, mem, cpus))


if __name__ == "__main__":
    main(sys.argv)
