#!/usr/bin/env python3
"""Compare the kernel's own KUnit suites on two kernels, case by case.

Usage: compare-kunit.py BASE.json[,BASE2.json...] BASE_LABEL
                        OTHER.json[,OTHER2.json...] OTHER_LABEL OUT.txt SUITE...

Each file is a kunit.py parse --json result; a comma-separated list is
several boots of the same kernel. For every case of the listed suites the
statuses it had on OTHER's boots must share one with those it had on
BASE's (one boot each: the status must be equal; a case that fails on the
pristine kernel may fail on ours, a case that passes there must pass here;
a case missing on a boot has the status "missing"). A case whose status
varied between the boots of a kernel, but is not a difference, is listed
as such: timing-dependent cases (KFENCE's wait for a sampled allocation
under TCG) are told apart from a regression by boots, not by a retry.
Writes a table (per suite: counts on each side's first boot, then every
case that differs or varied) to OUT.txt, prints one PASS/FAIL line per
suite, and exits 1 on any difference or a suite that did not run on
either side.
"""
import json
import sys


def walk(node, path, out):
    name = node.get("name", "")
    here = path + [name] if name and name != "KUnit Test" else path
    for case in node.get("test_cases", []):
        out["/".join(here + [case["name"]])] = case["status"]
    for sub in node.get("sub_groups", []):
        walk(sub, here, out)


def load(path):
    with open(path) as f:
        data = json.load(f)
    cases = {}
    for group in data.get("sub_groups", []) if isinstance(data, dict) else []:
        walk(group, [], cases)
    return cases


def counts(cases, suite):
    c = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    for name, status in cases.items():
        if name.split("/")[0] == suite:
            c[status if status in c else "FAIL"] += 1
    return c


def statuses(runs, name):
    return {r.get(name, "missing") for r in runs}


def main():
    if len(sys.argv) < 7:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    bpaths, blabel, opaths, olabel, out = sys.argv[1:6]
    suites = sys.argv[6:]
    try:
        bruns = [load(p) for p in bpaths.split(",")]
        oruns = [load(p) for p in opaths.split(",")]
    except (OSError, ValueError) as e:
        print(f"FAIL: kernel suites: cannot read KUnit results ({e}); rerun the boots")
        return 1
    base, other = bruns[0], oruns[0]
    nb, no = len(bruns), len(oruns)
    boots = f", {nb} and {no} boots" if nb > 1 or no > 1 else ""
    rc = 0
    lines = [f"{'suite':<12} {blabel + ' pass/fail/skip':>28} {olabel + ' pass/fail/skip':>34}  verdict"]
    diffs, varied = [], []
    for suite in suites:
        cb, co = counts(base, suite), counts(other, suite)
        names = sorted({n for r in bruns + oruns for n in r if n.split("/")[0] == suite})
        bad = []
        for n in names:
            sb, so = statuses(bruns, n), statuses(oruns, n)
            show = f"  {n}: {blabel} {'/'.join(sorted(sb))}, {olabel} {'/'.join(sorted(so))}"
            if not sb & so:
                bad.append(show)
            elif len(sb) > 1 or len(so) > 1:
                varied.append(show)
        ran = all(sum(counts(r, suite).values()) > 0 for r in bruns + oruns)
        ok = ran and not bad
        verdict = "same" if ok else ("did not run" if not ran else f"{len(bad)} differ")
        lines.append(f"{suite:<12} {'%d/%d/%d' % (cb['PASS'], cb['FAIL'], cb['SKIP']):>28} "
                     f"{'%d/%d/%d' % (co['PASS'], co['FAIL'], co['SKIP']):>34}  {verdict}{boots}")
        diffs += bad
        print(f"{'PASS' if ok else 'FAIL'}: kernel suite {suite}: {olabel} as {blabel} "
              f"({verdict}; {blabel} {cb['PASS']}/{cb['FAIL']}/{cb['SKIP']}, "
              f"{olabel} {co['PASS']}/{co['FAIL']}/{co['SKIP']} pass/fail/skip{boots})")
        if not ok:
            rc = 1
    with open(out, "a") as f:
        f.write("\n".join(lines) + "\n")
        if diffs:
            f.write("cases whose status differs:\n" + "\n".join(diffs) + "\n")
        if varied:
            f.write("cases whose status varied between boots (not a difference):\n" + "\n".join(varied) + "\n")
    return rc


if __name__ == "__main__":
    sys.exit(main())
