#!/usr/bin/env python3
"""results/perf.md: issue 19's goals 1-5 as PASS/FAIL, from the results of
the benchmarks that measure them, with the profiles beside them.

  perf-report.py RESULTS_DIR            the report, to stdout

Reads, in RESULTS_DIR (a missing file makes its goal "not measured"):
  fastpath.csv, fastpath-frag.csv   goals 1 and 3 (bench/fastpath.sh)
  deferred.csv                      goal 2 (bench/deferred.sh)
  test-vmalloc.csv                  goal 4 (bench/test-vmalloc.sh)
  workloads.csv                     goal 5 (bench/workloads.sh)
  perf-profile-*.txt                profiles (bench/perf.sh)
  perf-notes.md                     per goal, what was tried (hand-written)

  perf-run.txt                      bench/goals.sh's record of the one run
                                    the CSVs came from (with their sha256)

Every ratio is taken within one boot (or one boot pair for goals 4 and 5,
whose two kernels cannot share a boot); a cell is the median of those
ratios with their min-max. A goal passes only if every one of its cells
does. Each goal names its source and that source's boots. The report says
whether the goals come from one run: perf-run.txt present and every CSV
it names unchanged since; otherwise from separate runs.
"""
import hashlib
import re
import csv
import glob
import os
import statistics
import sys

GOALS = {
    1: ("Physical fast path", "vfallback / plain p50 and p99 <= 1.03 at orders 1-10, unfragmented"),
    2: ("Virtual path vs vmalloc", "vfallback (always) p99 / vmalloc p99 <= 1.0 at orders 1-10, none and unmovable"),
    3: ("Auto mode under fragmentation", "auto / always p50 and p99 <= 1.20 (unmovable)"),
    4: ("vmalloc not regressed", "lib/test_vmalloc.c, every test stage / plain <= 1.02"),
    5: ("Workloads not slower", "stage / plain >= 0.98 (files/s, MB/s); slow-path share <= plain's"),
}


def rows_of(path, keep_failed=False):
    if not os.path.exists(path):
        return None
    return [r for r in csv.DictReader(open(path)) if keep_failed or "failed" not in r.values()]


def cell(vals, fmt="{:.3f}"):
    m = statistics.median(vals)
    return m, (fmt + " (" + fmt + "-" + fmt + ")").format(m, min(vals), max(vals))


def newest(rows):
    """The kernel measured: "current" when the run also had a "before"."""
    kernels = {r["kernel"] for r in rows}
    return "current" if "current" in kernels else sorted(kernels)[0]


def table(title, head, lines):
    out = [f"#### {title}\n", "| " + " | ".join(head) + " |", "|---" * len(head) + "|"]
    out += ["| " + " | ".join(str(c) for c in ln) + " |" for ln in lines]
    return "\n".join(out) + "\n"


def goal1(res):
    rows = rows_of(os.path.join(res, "fastpath.csv"))
    if not rows:
        return None
    # The kernel from every row: if all of "current"'s boots failed, the
    # goal must not be judged on "before".
    kern = newest(rows_of(os.path.join(res, "fastpath.csv"), keep_failed=True))
    rows = [r for r in rows if r["kernel"] == kern and r["a"] == "plain" and r["b"] == "vfallback"]
    have = {int(r["order"]) for r in rows}
    lines, ok = [], have >= set(range(1, 11))
    for o in sorted(have):
        sel = [r for r in rows if int(r["order"]) == o]
        ln = [o]
        for p in ("p50", "p99"):
            m, txt = cell([int(r["b_" + p]) / int(r["a_" + p]) for r in sel if int(r["a_" + p])])
            ok &= m <= 1.03
            ln += [txt, "PASS" if m <= 1.03 else "FAIL"]
        lines.append(ln)
    boots = len({r["boot"] for r in rows})
    src = f"fastpath.csv, kernel '{kern}', {boots} boots, accel {','.join(sorted({r['accel'] for r in rows}))}"
    if not have >= set(range(1, 11)):
        src += f"; orders {','.join(str(o) for o in sorted(set(range(1, 11)) - have))} not measured"
    return ok, src, table("Goal 1: vfallback / plain (one loop, methods alternating)",
                          ["order", "p50 ratio", "", "p99 ratio", ""], lines)


def goal3(res):
    rows = rows_of(os.path.join(res, "fastpath-frag.csv"))
    if not rows:
        return None
    kern = newest(rows)
    cells = {}
    for r in rows:
        if r["kernel"] == kern:
            cells.setdefault((r["boot"], int(r["order"]), r["round"]), {})[r["mode"]] = r
    lines, ok = [], True
    for o in sorted({k[1] for k in cells}):
        pairs = [v for k, v in cells.items() if k[1] == o and len(v) == 2]
        ln = [o, len(pairs)]
        for p in ("p50", "p99"):
            m, txt = cell([int(v["auto"][p]) / int(v["always"][p]) for v in pairs if int(v["always"][p])])
            ok &= m <= 1.20
            ln += [txt, "PASS" if m <= 1.20 else "FAIL"]
        lines.append(ln)
    boots = len({k[0] for k in cells})
    return ok, f"fastpath-frag.csv, kernel '{kern}', {boots} boots", table(
        "Goal 3: auto / always under unmovable fragmentation (rounds of one boot)",
        ["order", "rounds", "p50 ratio", "", "p99 ratio", ""], lines)


def goal2(res):
    rows = rows_of(os.path.join(res, "deferred.csv"))
    if not rows:
        return None
    by = {}
    for r in rows:
        key = (r.get("scenario", "unmovable"), r["variant"], r["deferred_max"], int(r["order"]), r["boot"])
        by.setdefault(key, {})[r["method"]] = r
    keys = sorted({k[:4] for k in by})
    lines, ok, seen = [], True, set()
    for sc, v, dm, o in keys:
        rat = [int(x["vfallback"]["p99_ns"]) / int(x["vmalloc"]["p99_ns"])
               for k, x in by.items() if k[:4] == (sc, v, dm, o) and "vfallback" in x and "vmalloc" in x
               and int(x["vmalloc"]["p99_ns"])]
        if not rat:
            continue
        seen.add((sc, o))
        m, txt = cell(rat)
        ok &= m <= 1.0
        lines.append([sc, v, dm, o, len(rat), txt, "PASS" if m <= 1.0 else "FAIL"])
    missing = [f"{sc} {o}" for sc in ("none", "unmovable") for o in range(1, 11) if (sc, o) not in seen]
    note = "" if not missing else (f"; not measured: {len(missing)} of the 20 scenario/order cells "
                                   f"({', '.join(missing[:6])}{', ...' if len(missing) > 6 else ''}), "
                                   f"so the goal cannot pass from this source: run SCENARIOS='none unmovable' "
                                   f"ORDERS=1,2,3,4,5,6,7,8,9,10 make bench-deferred")
    boots = len({r["boot"] for r in rows})
    return ok and not missing, f"deferred.csv, {boots} boots{note}", table(
        "Goal 2: vfallback p99 / vmalloc p99, same boot",
        ["scenario", "variant", "deferred_max", "order", "boots", "ratio", ""], lines)


def plain_and_stage(path):
    """The rows of a plain-vs-stage CSV and the stage's name, or None.
    A second boot of plain in each round ("plainaa", the A/A floor) may
    be there too."""
    rows = rows_of(path)
    kernels = [k for k in dict.fromkeys(r["kernel"] for r in rows or []) if k != "plainaa"]
    if "plain" not in kernels or len(kernels) != 2:
        return None
    return rows, [k for k in kernels if k != "plain"][0]


def goal4(res):
    found = plain_and_stage(os.path.join(res, "test-vmalloc.csv"))
    if not found:
        return None
    rows, top = found
    lines, ok = [], True
    tests = list(dict.fromkeys(r["test"] for r in rows))
    for t in tests:
        per = []
        for b in sorted({r["boot"] for r in rows}):
            v = {k: [int(r["usec"]) for r in rows if r["test"] == t and r["kernel"] == k and r["boot"] == b]
                 for k in ("plain", top)}
            if v["plain"] and v[top] and statistics.median(v["plain"]):
                per.append(statistics.median(v[top]) / statistics.median(v["plain"]))
        if not per:
            lines.append([t, "-", "FAIL: not measured on both kernels"])
            ok = False
            continue
        m, txt = cell(per)
        if t == "align_shift_alloc_test":
            lines.append([t, txt, "not judged: fails by design"])
            continue
        if any(r["failed"] != "0" for r in rows if r["test"] == t):
            lines.append([t, txt, "FAIL: the test failed"])
            ok = False
            continue
        ok &= m <= 1.02
        lines.append([t, txt, "PASS" if m <= 1.02 else "FAIL"])
    boots = len({r["boot"] for r in rows})
    return ok, f"test-vmalloc.csv, plain vs stage {top}, {boots} boot pairs", table(
        f"Goal 4: test_vmalloc time, stage {top} / plain (boot pair i: median over loads and workers)",
        ["test", "ratio", ""], lines)


def goal5(res):
    found = plain_and_stage(os.path.join(res, "workloads.csv"))
    if not found:
        return None
    rows, top = found
    lines, ok = [], True
    has_aa = any(r["kernel"] == "plainaa" for r in rows)
    for met in dict.fromkeys(r["metric"] for r in rows):
        v = {k: {r["boot"]: float(r["value"]) for r in rows if r["metric"] == met and r["kernel"] == k}
             for k in ("plain", top, "plainaa")}
        aa = [v["plainaa"][b] / v["plain"][b] for b in v["plainaa"] if v["plain"].get(b)]
        aa_txt = cell(aa)[1] if aa else "-"
        if not v["plain"] or not v[top]:
            lines.append([met, "-", "-", "-", aa_txt, "FAIL: not measured on both kernels"])
            ok = False
            continue
        mp, ms = statistics.median(v["plain"].values()), statistics.median(v[top].values())
        if "slowpath" in met:
            good = ms <= mp
            lines.append([met, f"{mp:.1f}", f"{ms:.1f}", "-", aa_txt, "PASS" if good else "FAIL"])
        else:
            per = [v[top][b] / v["plain"][b] for b in v[top] if v["plain"].get(b)]
            m, txt = cell(per)
            good = m >= 0.98
            lines.append([met, f"{mp:.1f}", f"{ms:.1f}", txt, aa_txt, "PASS" if good else "FAIL"])
        ok &= good
    boots = len({r["boot"] for r in rows})
    src = f"workloads.csv, plain vs stage {top}, {boots} boot pairs"
    src += ", with an A/A boot of plain per round" if has_aa else ", no A/A boots"
    return ok, src, table(
        f"Goal 5: workloads, stage {top} vs plain (medians; ratio per boot pair i; A/A: a second boot "
        f"of plain / plain, per round)",
        ["metric", "plain", f"stage {top}", "ratio", "A/A", ""], lines)


def run_provenance(res):
    """Whether the CSVs come from one bench/goals.sh run: its perf-run.txt,
    and every CSV it recorded still with the recorded sha256."""
    path = os.path.join(res, "perf-run.txt")
    if not os.path.exists(path):
        return ("**Separate runs**: no perf-run.txt, so each goal's CSV may come from a different run "
                "(`make bench-goals` measures all five in one).")
    lines = open(path).read().splitlines()
    changed, recorded = [], set()
    for ln in lines:
        f = ln.split()
        if len(f) == 3 and f[0] == "sha256":
            recorded.add(f[2])
            p = os.path.join(res, f[2])
            if not os.path.exists(p) or hashlib.sha256(open(p, "rb").read()).hexdigest() != f[1]:
                changed.append(f[2])
    # A goal's CSV or a profile that the run did not record came from
    # another run (an old fastpath-frag.csv, a later bench-perf).
    inputs = [n for n in ("fastpath.csv", "fastpath-frag.csv", "deferred.csv", "test-vmalloc.csv",
                          "workloads.csv") if os.path.exists(os.path.join(res, n))]
    inputs += sorted(os.path.basename(p) for p in glob.glob(os.path.join(res, "perf-profile-*.txt")))
    if recorded:
        changed += [f"{n} (not in the record)" for n in inputs if n not in recorded]
    record = "\n".join("    " + ln for ln in lines if not ln.startswith("sha256 "))
    if not recorded:
        return "**Not one run**: perf-run.txt records no CSV (the run did not finish):\n\n" + record
    if changed:
        return (f"**Not one run**: {', '.join(changed)} changed since the run that perf-run.txt "
                f"records (another benchmark wrote it):\n\n" + record)
    return ("**One run**: every goal's CSV and every profile comes from this run of `bench/goals.sh`:\n\n"
            + record)


def main(res):
    found = {1: goal1(res), 2: goal2(res), 3: goal3(res), 4: goal4(res), 5: goal5(res)}
    print("# Issue 19: performance goals, plain vs stage\n")
    print("Generated by `bench/perf-report.py` from the CSVs in results/ (each goal names its source). "
          "All ratios are taken within one boot, or between boot i of each kernel where two kernels are "
          "compared; a cell is the median of those ratios (min-max). A goal passes only if all its cells "
          "pass. Accelerator: TCG for every figure here (KVM hangs on this host); guests 2 GiB, 2 CPUs, "
          "Linux 6.12.118. Emulated time: a ratio means more than an absolute figure.\n")
    print(run_provenance(res) + "\n")
    print("| goal | criterion | verdict | source |")
    print("|---|---|---|---|")
    for g, (name, crit) in GOALS.items():
        f = found[g]
        verdict = "not measured" if f is None else ("PASS" if f[0] else "FAIL")
        print(f"| {g}. {name} | {crit} | {verdict} | {f[1] if f else '-'} |")
    print()
    for g in GOALS:
        if found[g]:
            print(found[g][2])
    notes = os.path.join(res, "perf-notes.md")
    if os.path.exists(notes):
        print(open(notes).read().rstrip() + "\n")
    profs = sorted(glob.glob(os.path.join(res, "perf-profile-*.txt")))
    print("## Profiles\n")
    if not profs:
        print("No profile in results/ (bench/perf.sh records them).\n")
    for p in profs:
        print(f"### {os.path.basename(p)}\n\n```")
        print("\n".join(profile_line(ln) for ln in open(p).read().rstrip().splitlines()))
        print("```\n")


def profile_line(ln):
    """perf report's line without its empty trailing columns ("-  -") and
    the padding after the symbol (long symbol names widen that column)."""
    return re.sub(r"\s+-\s+-\s*$", "", ln.rstrip())


if __name__ == "__main__":
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit("usage: perf-report.py RESULTS_DIR (e.g. results/): the directory with fastpath.csv, ...")
    main(sys.argv[1])
