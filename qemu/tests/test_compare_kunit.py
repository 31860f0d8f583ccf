#!/usr/bin/env python3
"""Unit check of qemu/compare-kunit.py on fixed KUnit results.

Run: python3 qemu/tests/test_compare_kunit.py
Prints one PASS/FAIL line per case; exits non-zero if any case fails.

Cases: one boot per kernel equal (PASS) and one case different (FAIL,
named); several boots per kernel: a case that varied on one kernel but
shares a status with the other is not a difference (listed as varied); a
case that always fails on one and always passes on the other is; a suite
that did not run on one boot of a kernel fails; an unreadable file is
refused.
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "..", "compare-kunit.py")
fails = 0


def check(name, cond):
    global fails
    print(f"{'PASS' if cond else 'FAIL'}: compare-kunit: {name}")
    fails += not cond


def boot(d, name, cases):
    """cases: {"suite/case": status}; writes kunit.py's JSON shape."""
    groups = {}
    for k, st in cases.items():
        suite, case = k.split("/")
        groups.setdefault(suite, []).append({"name": case, "status": st})
    p = os.path.join(d, name + ".json")
    with open(p, "w") as f:
        json.dump({"name": "KUnit Test", "sub_groups": [
            {"name": s, "test_cases": c, "sub_groups": []} for s, c in groups.items()]}, f)
    return p


def run(d, base, other):
    out = os.path.join(d, "out.txt")
    if os.path.exists(out):
        os.remove(out)
    r = subprocess.run([sys.executable, TOOL, ",".join(base), "pristine", ",".join(other), "stage",
                        out, "kfence"], capture_output=True, text=True)
    table = open(out).read() if os.path.exists(out) else ""
    return r.returncode, r.stdout + r.stderr, table


with tempfile.TemporaryDirectory() as d:
    ok = {"kfence/a": "PASS", "kfence/b": "PASS", "kfence/c": "FAIL"}
    p1, p2 = boot(d, "p1", ok), boot(d, "p2", dict(ok, **{"kfence/b": "FAIL"}))
    s1 = boot(d, "s1", ok)
    s2 = boot(d, "s2", dict(ok, **{"kfence/a": "FAIL"}))
    s3 = boot(d, "s3", dict(ok, **{"kfence/a": "FAIL"}))
    rc, out, table = run(d, [p1], [s1])
    check("one boot each, every case equal: exit 0, same", rc == 0 and "same" in table)
    rc, out, table = run(d, [p1], [s2])
    check("one boot each, a case PASS vs FAIL: exit 1, named",
          rc == 1 and "1 differ" in table and "kfence/a: pristine PASS, stage FAIL" in table)
    rc, out, table = run(d, [p1, p2], [s1])
    check("a case that varied on pristine and passes on stage is no difference, listed as varied",
          rc == 0 and "varied between boots" in table and "kfence/b: pristine FAIL/PASS, stage PASS" in table)
    rc, out, table = run(d, [p1, p2], [s1, s2])
    check("a case that varied on stage but passed there once is no difference",
          rc == 0 and "kfence/a: pristine PASS, stage FAIL/PASS" in table)
    rc, out, table = run(d, [p1, p2], [s2, s3])
    check("a case that fails on every stage boot and passes on every pristine one differs",
          rc == 1 and "kfence/a: pristine PASS, stage FAIL" in table and "2 boots" in table)
    e = boot(d, "e", {"slub_test/x": "PASS"})
    rc, out, table = run(d, [p1], [s1, e])
    check("a suite that did not run on one boot of a kernel fails", rc == 1 and "did not run" in table)
    rc, out, table = run(d, [p1, os.path.join(d, "none.json")], [s1])
    check("an unreadable result file is refused", rc == 1 and "cannot read" in out)
sys.exit(1 if fails else 0)
