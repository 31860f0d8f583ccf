#!/usr/bin/env python3
"""Compare the kernel's own KUnit suites on two kernels, case by case.

Usage: compare-kunit.py BASE.json BASE_LABEL OTHER.json OTHER_LABEL OUT.txt SUITE...

Both files are kunit.py parse --json results. For every case of the
listed suites, the status on OTHER must equal the status on BASE (a case
that fails on the pristine kernel may fail on ours, a case that passes
there must pass here, a case skipped there may be skipped here; a case
missing on either side is a difference). Writes a table (per suite:
counts on each side, then every case whose status differs) to OUT.txt,
prints one PASS/FAIL line per suite, and exits 1 on any difference or a
suite that did not run on either side.
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


def main():
    if len(sys.argv) < 7:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    bpath, blabel, opath, olabel, out = sys.argv[1:6]
    suites = sys.argv[6:]
    try:
        base, other = load(bpath), load(opath)
    except (OSError, ValueError) as e:
        print(f"FAIL: kernel suites: cannot read KUnit results ({e}); rerun the boots")
        return 1
    rc = 0
    lines = [f"{'suite':<12} {blabel + ' pass/fail/skip':>28} {olabel + ' pass/fail/skip':>34}  verdict"]
    diffs = []
    for suite in suites:
        cb, co = counts(base, suite), counts(other, suite)
        names = sorted(n for n in set(base) | set(other) if n.split("/")[0] == suite)
        bad = [(n, base.get(n, "missing"), other.get(n, "missing")) for n in names
               if base.get(n, "missing") != other.get(n, "missing")]
        ran = sum(cb.values()) > 0 and sum(co.values()) > 0
        ok = ran and not bad
        verdict = "same" if ok else ("did not run" if not ran else f"{len(bad)} differ")
        lines.append(f"{suite:<12} {'%d/%d/%d' % (cb['PASS'], cb['FAIL'], cb['SKIP']):>28} "
                     f"{'%d/%d/%d' % (co['PASS'], co['FAIL'], co['SKIP']):>34}  {verdict}")
        diffs += [f"  {n}: {blabel} {b}, {olabel} {o}" for n, b, o in bad]
        print(f"{'PASS' if ok else 'FAIL'}: kernel suite {suite}: {olabel} as {blabel} "
              f"({verdict}; {blabel} {cb['PASS']}/{cb['FAIL']}/{cb['SKIP']}, "
              f"{olabel} {co['PASS']}/{co['FAIL']}/{co['SKIP']} pass/fail/skip)")
        if not ok:
            rc = 1
    with open(out, "a") as f:
        f.write("\n".join(lines) + "\n")
        if diffs:
            f.write("cases whose status differs:\n" + "\n".join(diffs) + "\n")
    return rc


if __name__ == "__main__":
    sys.exit(main())
