#!/usr/bin/env python3
"""The fstests table of make test-fstests (qemu/fstests.sh).

usage: fstests-report.py [--key KEY] [--keys SETTING=K1,K2 ...] [--list LIST]
                         [--settings "S1 S2 ..."] DIR

DIR holds one SETTING.tsv per setting (plain, 3, 3-inject20, 3-always, ...),
lines "KEY<tab>TEST<tab>pass|fail|notrun<tab>REASON<tab>SECONDS"; lines
starting with "#" and empty lines are skipped, any other line that is not
of that form stops the report (exit 1, naming file and line). Only the
rows of KEY count (default: in each file, the key of its last row); of
several rows of one test the last counts. --keys SETTING=K1,K2 (repeatable)
names the keys that count for one setting (rows of older commits that
built the same kernel); K1 is the one shown.

Prints, per test (in LIST's order, then any other test sorted) and
setting: pass/FAIL/notrun and seconds, "-" where the setting has no result
yet; then the reasons of every fail and notrun; then one summary line per
setting, ending with one per stage-3 setting (name starting with "3")
that names its tests that fail there and pass on plain, and one overall
line "stage-3-only failures: N" (tests that fail on any stage-3 setting
and pass on plain).
"""
import argparse
import os
import sys

STATUSES = ("pass", "fail", "notrun")


def load(path):
    """Rows of one TSV as (key, test, status, reason, seconds) tuples."""
    rows = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.split("\t")
            if len(parts) != 5 or parts[2] not in STATUSES or not parts[1] \
                    or not parts[4].isdigit():
                raise ValueError(f"{path}:{n}: not KEY TEST STATUS REASON SECONDS: {line!r}")
            rows.append((parts[0], parts[1], parts[2], parts[3], int(parts[4])))
    return rows


def read_list(path):
    tests = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if line:
                tests.append(line[0])
    return tests


def short(path):
    """The last two components of a path (configs/fstests-lbs.list)."""
    parts = os.path.normpath(os.path.abspath(path)).split(os.sep)
    return "/".join(parts[-2:])


def order_settings(names):
    rest = sorted(n for n in names if n != "plain")
    return (["plain"] if "plain" in names else []) + rest


def cell(r):
    if r is None:
        return "-"
    status, _, secs = r
    word = {"pass": "pass", "fail": "FAIL", "notrun": "notrun"}[status]
    return f"{word} {secs}s"


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--key")
    ap.add_argument("--keys", action="append", default=[])
    ap.add_argument("--list")
    ap.add_argument("--settings")
    ap.add_argument("dir")
    a = ap.parse_args(argv)

    files = sorted(f for f in os.listdir(a.dir) if f.endswith(".tsv"))
    names = [f[:-4] for f in files]
    if a.settings:
        settings = a.settings.split()
    else:
        settings = order_settings(names)
    if not settings:
        print(f"fstests-report: no SETTING.tsv in {a.dir}", file=sys.stderr)
        return 1

    valid = {}
    for kv in a.keys:
        s_, sep, ks = kv.partition("=")
        if not sep or not s_ or not ks:
            print(f"fstests-report: --keys {kv}: give SETTING=K1[,K2...]", file=sys.stderr)
            return 1
        valid[s_] = ks.split(",")
    res, keys = {}, {}
    for s in settings:
        path = os.path.join(a.dir, s + ".tsv")
        rows = load(path) if os.path.exists(path) else []
        key = a.key or (rows[-1][0] if rows else "-")
        counted = valid.get(s, [key])
        keys[s] = counted[0]
        res[s] = {}
        for k, t, st, reason, secs in rows:
            if k in counted:
                res[s][t] = (st, reason, secs)

    listed = read_list(a.list) if a.list else []
    seen = set(listed)
    extra = sorted({t for s in settings for t in res[s]} - seen)
    tests = listed + extra

    out = []
    src = short(a.list) if a.list else "the tests in the TSVs"
    out.append(f"# fstests on a 64 KiB-block XFS: {src}, from {short(a.dir)}/*.tsv")
    out.append("# (make test-fstests; written by qemu/fstests-report.py). Cells: pass, FAIL or notrun")
    out.append("# and the test's seconds in the guest (QEMU/TCG: emulator time, varies with the host's")
    out.append("# load); \"-\": no result yet. Commit key: the last commit of the kernel configs (plain),")
    out.append("# of the stacks and the configs (stages).")
    for s in settings:
        n = sum(1 for t in tests if t in res[s])
        out.append(f"#   {s:<12} key {keys[s]}, {n} of {len(tests)} tests")
    w = max([len(t) for t in tests] + [4]) + 2
    cw = max([len(s) for s in settings] + [12]) + 2
    out.append("test".ljust(w) + "".join(s.ljust(cw) for s in settings).rstrip())
    for t in tests:
        out.append((t.ljust(w) + "".join(cell(res[s].get(t)).ljust(cw)
                                        for s in settings)).rstrip())

    out.append("")
    out.append("Reasons of fail and notrun:")
    any_reason = False
    for t in tests:
        groups = {}
        for s in settings:
            r = res[s].get(t)
            if r and r[0] != "pass":
                groups.setdefault((r[0], r[1]), []).append(s)
        for (st, reason), ss in groups.items():
            any_reason = True
            word = "FAIL" if st == "fail" else st
            out.append(f"  {t} ({', '.join(ss)}): {word}: {reason or '(no reason given)'}")
    if not any_reason:
        out.append("  none")

    out.append("")
    plain = res.get("plain", {})
    stage3_only = set()
    for s in settings:
        counts = {st: 0 for st in STATUSES}
        for t in tests:
            r = res[s].get(t)
            if r:
                counts[r[0]] += 1
        missing = sum(1 for t in tests if t not in res[s])
        line = (f"{s}: pass {counts['pass']}, fail {counts['fail']}, "
                f"notrun {counts['notrun']}, no result yet {missing}")
        if s.startswith("3"):
            only = [t for t in tests if res[s].get(t, ("",))[0] == "fail"
                    and plain.get(t, ("",))[0] == "pass"]
            stage3_only.update(only)
            line += f"; fail here and pass on plain: {len(only)}"
            if only:
                line += f" ({' '.join(only)})"
        out.append(line)
    if "plain" not in res or not plain:
        out.append("(no results on plain: no failure can be called stage-3-only yet)")
    out.append(f"stage-3-only failures: {len(stage3_only)}"
               + (f" ({' '.join(t for t in tests if t in stage3_only)})" if stage3_only else ""))
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except (OSError, ValueError) as e:
        print(f"fstests-report: {e}", file=sys.stderr)
        sys.exit(1)
