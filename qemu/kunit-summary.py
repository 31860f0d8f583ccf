#!/usr/bin/env python3
"""Summarise KUnit results parsed by the kernel's kunit.py.

Usage: kunit-summary.py RESULTS.json LABEL [--parse-rc N] [--allow-skip GLOB]... [SUITE...]

Prints one PASS/FAIL/SKIP line per test case (prefixed with LABEL) and
fails when a listed suite is missing, any case failed, kunit.py parse
itself reported a failure (--parse-rc, its exit status: it also counts
crashes and KTAP that does not parse), or a case was skipped that no
--allow-skip GLOB (suite/case, fnmatch) names: in this project's kernels
every case has what it needs, so a skip means a test that silently did
not test.
"""
import fnmatch
import json
import sys


def walk(node, path, out):
    name = node.get("name", "")
    here = path + [name] if name and name != "KUnit Test" else path
    for case in node.get("test_cases", []):
        out.append(("/".join(here + [case["name"]]), case["status"]))
    for sub in node.get("sub_groups", []):
        walk(sub, here, out)


def parse_args(argv):
    label, rest = argv[1], argv[2:]
    parse_rc, allow, suites = 0, [], []
    i = 0
    while i < len(rest):
        if rest[i] in ("--parse-rc", "--allow-skip"):
            if i + 1 >= len(rest):
                raise ValueError(f"{rest[i]} needs a value")
            if rest[i] == "--parse-rc":
                parse_rc = int(rest[i + 1])
            else:
                allow.append(rest[i + 1])
            i += 2
        else:
            suites.append(rest[i])
            i += 1
    return label, parse_rc, allow, suites


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        label, parse_rc, allow, suites = parse_args(sys.argv[1:])
    except ValueError as e:
        print(f"kunit-summary: {e}", file=sys.stderr)
        return 2
    try:
        with open(sys.argv[1]) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        print(f"FAIL: {label}: no KUnit results ({e})")
        return 1
    cases = []
    for group in data.get("sub_groups", []) if isinstance(data, dict) else []:
        walk(group, [], cases)
    rc = 0
    if parse_rc != 0:
        print(f"FAIL: {label}: kunit.py parse exited {parse_rc} (a crash, a failure or KTAP that does not parse)")
        rc = 1
    for suite in suites:
        if not any(c[0].split("/")[0] == suite for c in cases):
            print(f"FAIL: {label}: KUnit suite '{suite}' did not run")
            rc = 1
    for name, status in cases:
        word = {"PASS": "PASS", "SKIP": "SKIP"}.get(status, "FAIL")
        if word == "SKIP" and not any(fnmatch.fnmatch(name, g) for g in allow):
            print(f"FAIL: {label} kunit {name} (skipped, and no --allow-skip names it)")
            rc = 1
            continue
        print(f"{word}: {label} kunit {name}" + ("" if word != "FAIL" else f" ({status})"))
        if word == "FAIL":
            rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main())
