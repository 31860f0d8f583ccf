#!/usr/bin/env python3
"""Unit check of qemu/fstests-report.py on fixed TSVs.

Run: python3 qemu/tests/test_fstests_report.py
Prints one PASS/FAIL line per case; exits non-zero if any case fails.

Fixture (written here), key k2 current, k1 older: list generic/001
generic/002 generic/003 xfs/004. plain: 001 pass 10 s, 002 pass, 003
notrun ("requires dm flakey"), 004 pass; an older k1 row of 001 as fail
does not count. 3: 001 FAIL ("output mismatch"), 002 pass, 003 notrun,
004 no result yet; a k2 row of 002 as fail followed by one as pass: the
last counts. 3-always: 001 pass, 002 fail (also on plain? no: plain
passes it), 003 fail (plain notrun: not stage-3-only), 004 fail. One
extra test (generic/900, not in the list) on 3-always only comes last.
stage-3-only failures: 001 (3), 002 and 004 (3-always) = 3. A malformed
line stops the report with its file and line; without --key each file's
last key counts.
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "..", "fstests-report.py")
fails = 0


def check(name, cond, detail=""):
    global fails
    print(f"{'PASS' if cond else 'FAIL'}: fstests-report: {name}" + ("" if cond else f" {detail}"))
    fails += not cond


def tsv(d, setting, rows):
    with open(os.path.join(d, setting + ".tsv"), "w") as f:
        f.write("# key\ttest\tstatus\treason\tseconds\n")
        for r in rows:
            f.write("\t".join(str(x) for x in r) + "\n")


def run(*args):
    r = subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


with tempfile.TemporaryDirectory() as t:
    d = os.path.join(t, "fstests-lbs")
    os.makedirs(d)
    lst = os.path.join(t, "fstests-lbs.list")
    with open(lst, "w") as f:
        f.write("# a list\n\ngeneric/001  # why\ngeneric/002\n# --- group\ngeneric/003 # x\nxfs/004\n")
    tsv(d, "plain", [("k1", "generic/001", "fail", "old", 5),
                     ("k2", "generic/001", "pass", "", 10),
                     ("k2", "generic/002", "pass", "", 20),
                     ("k2", "generic/003", "notrun", "requires dm flakey", 1),
                     ("k2", "xfs/004", "pass", "", 30)])
    tsv(d, "3", [("k2", "generic/001", "fail", "output mismatch: +bad", 11),
                 ("k2", "generic/002", "fail", "flaky", 21),
                 ("k2", "generic/002", "pass", "", 22),
                 ("k2", "generic/003", "notrun", "requires dm flakey", 1)])
    tsv(d, "3-always", [("k2", "generic/001", "pass", "", 12),
                        ("k2", "generic/002", "fail", "guest died during the test: BUG: x", 40),
                        ("k2", "generic/003", "fail", "timeout", 1800),
                        ("k2", "xfs/004", "fail", "_check_dmesg: something found", 33),
                        ("k2", "generic/900", "pass", "", 3)])

    rc, out, err = run("--key", "k2", "--list", lst, d)
    check("report runs", rc == 0, err)
    lines = out.splitlines()
    check("settings in order plain, 3, 3-always",
          any(line.split() == ["test", "plain", "3", "3-always"] for line in lines), out)
    row = {line.split()[0]: line.split()[1:] for line in lines
           if line.startswith(("generic/", "xfs/")) and not line.startswith("  ")}
    check("generic/001: pass 10s, FAIL 11s, pass 12s (the k1 fail does not count)",
          row.get("generic/001") == ["pass", "10s", "FAIL", "11s", "pass", "12s"], row.get("generic/001"))
    check("generic/002 on 3: the last row (pass 22s) counts",
          row.get("generic/002", [])[2:4] == ["pass", "22s"], row.get("generic/002"))
    check("xfs/004 on 3: no result yet (-)",
          row.get("xfs/004") == ["pass", "30s", "-", "FAIL", "33s"], row.get("xfs/004"))
    order = [line.split()[0] for line in lines if line.startswith(("generic/", "xfs/"))]
    check("list order, then the extra test",
          order == ["generic/001", "generic/002", "generic/003", "xfs/004", "generic/900"], order)
    check("a notrun reason shared by two settings is given once",
          "  generic/003 (plain, 3): notrun: requires dm flakey" in lines, out)
    check("a fail reason is given",
          "  generic/002 (3-always): FAIL: guest died during the test: BUG: x" in lines, out)
    check("plain summary", "plain: pass 3, fail 0, notrun 1, no result yet 1" in lines, out)
    check("3 summary names its stage-3-only failure",
          "3: pass 1, fail 1, notrun 1, no result yet 2; fail here and pass on plain: 1 (generic/001)"
          in lines, out)
    check("3-always summary: generic/003 (notrun on plain) is not stage-3-only",
          "3-always: pass 2, fail 3, notrun 0, no result yet 0; fail here and pass on plain: 2 "
          "(generic/002 xfs/004)" in lines, out)
    check("ends with the overall line",
          lines[-1] == "stage-3-only failures: 3 (generic/001 generic/002 xfs/004)", lines[-1:])
    check("header names the sources", "configs" not in lines[0] and
          lines[0].startswith("# fstests on a 64 KiB-block XFS: ") and "fstests-lbs/*.tsv" in lines[0], lines[0])

    # Without --key: each file's last key (plain's is k3 now: one row).
    with open(os.path.join(d, "plain.tsv"), "a") as f:
        f.write("k3\tgeneric/001\tpass\t\t9\n")
    rc, out, err = run("--list", lst, d)
    lines = out.splitlines()
    check("without --key: plain at its last key k3 (1 result)",
          "plain: pass 1, fail 0, notrun 0, no result yet 4" in lines, out)
    check("without --key: 3-always's stage-3-only failures against plain at k3",
          lines[-1] == "stage-3-only failures: 1 (generic/001)", lines[-1:])

    # --keys: plain's rows of k1 and k3 count (the same kernel built at two
    # commits; the later row of a test wins), 3's of k2; k1 is shown.
    rc, out, err = run("--keys", "plain=k3,k2", "--keys", "3=k2", "--keys", "3-always=k2", "--list", lst, d)
    lines = out.splitlines()
    check("--keys: plain's k2 and k3 rows count (4 results, k3's 9s row of 001 last)",
          "plain: pass 3, fail 0, notrun 1, no result yet 1" in lines and
          any(line.split()[:3] == ["generic/001", "pass", "9s"] for line in lines), out + err)
    check("--keys: the first key is the one shown", any("plain" in line and "key k3, 4 of 5" in line
                                                          for line in lines), out)
    check("--keys: the k1 fail of plain still does not count", "stage-3-only failures: 3 "
          "(generic/001 generic/002 xfs/004)" == lines[-1], lines[-1:])
    rc, out, err = run("--keys", "plain", d)
    check("--keys without =KEYS is refused", rc == 1 and "SETTING=K1" in err, err)

    # Only plain: the overall line says 0 and the stage-3 lines are absent.
    d2 = os.path.join(t, "only-plain")
    os.makedirs(d2)
    tsv(d2, "plain", [("k2", "generic/001", "pass", "", 10)])
    rc, out, err = run("--key", "k2", d2)
    check("plain only: runs and ends with 0", rc == 0 and out.splitlines()[-1] == "stage-3-only failures: 0",
          out + err)

    # A malformed line stops the report, naming file and line.
    with open(os.path.join(d, "3.tsv"), "a") as f:
        f.write("k2\tgeneric/005\tmaybe\t\t3\n")
    rc, out, err = run("--key", "k2", d)
    check("a bad status is refused with file and line", rc == 1 and "3.tsv:6" in err, err)
    with open(os.path.join(d, "3.tsv"), "w") as f:
        f.write("k2\tgeneric/001\tpass\t\n")
    rc, out, err = run("--key", "k2", d)
    check("a line of 4 fields is refused", rc == 1 and "3.tsv:1" in err, err)

    # No TSV at all.
    d3 = os.path.join(t, "empty")
    os.makedirs(d3)
    rc, out, err = run(d3)
    check("an empty directory is refused", rc == 1 and "no SETTING.tsv" in err, err)

print(f"fstests-report: {'all cases pass' if not fails else f'{fails} case(s) failed'}")
sys.exit(1 if fails else 0)
