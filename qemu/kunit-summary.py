#!/usr/bin/env python3
"""Summarise KUnit results parsed by the kernel's kunit.py.

Usage: kunit-summary.py RESULTS.json LABEL [SUITE...]

Prints one PASS/FAIL/SKIP line per test case (prefixed with LABEL) and
fails when a listed suite is missing or any case failed.
"""
import json
import sys


def walk(node, path, out):
    name = node.get("name", "")
    here = path + [name] if name and name != "KUnit Test" else path
    for case in node.get("test_cases", []):
        out.append(("/".join(here + [case["name"]]), case["status"]))
    for sub in node.get("sub_groups", []):
        walk(sub, here, out)


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        with open(sys.argv[1]) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        print(f"FAIL: {sys.argv[2]}: no KUnit results ({e})")
        return 1
    cases = []
    for group in data.get("sub_groups", []) if isinstance(data, dict) else []:
        walk(group, [], cases)
    rc = 0
    for suite in sys.argv[3:]:
        if not any(c[0].split("/")[0] == suite for c in cases):
            print(f"FAIL: {sys.argv[2]}: KUnit suite '{suite}' did not run")
            rc = 1
    for name, status in cases:
        word = {"PASS": "PASS", "SKIP": "SKIP"}.get(status, "FAIL")
        print(f"{word}: {sys.argv[2]} kunit {name}" + ("" if word != "FAIL" else f" ({status})"))
        if word == "FAIL":
            rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main())
