#!/usr/bin/env python3
"""Check a guest console log for kernel splats.

Usage: check-log.py CONSOLE_LOG

Fails (exit 1) and prints the offending lines when the log shows an Oops,
BUG, WARNING, KASAN/UBSAN report, lockdep report, kmemleak leak report,
hung task, soft lockup, RCU stall or panic. Lines between the markers
VF-EXPECT-SPLAT-BEGIN and VF-EXPECT-SPLAT-END (printed by tests that
provoke a warning on purpose) are not counted, nor are the warnings of
the unmodified kernel listed in KNOWN_STOCK (reported instead). A window
that is never closed, or an END without a BEGIN, is itself a failure: an
unclosed window would otherwise hide everything after it (a test that
died between its markers, or a marker printed by mistake).
"""
import re
import sys

PATTERNS = [
    (r"\bOops\b", "oops"),
    (r"\bBUG:", "BUG"),
    (r"\bWARNING:", "WARNING"),
    (r"\bKASAN\b.*(BUG|report)|BUG: KASAN", "KASAN"),
    (r"UBSAN:", "UBSAN"),
    (r"Kernel panic", "panic"),
    (r"general protection fault", "general protection fault"),
    (r"INFO: task .* blocked for more than", "hung task"),
    (r"possible (recursive|circular) locking|inconsistent lock state|"
     r"suspicious RCU usage|lockdep is turned off|DEBUG_LOCKS_WARN_ON",
     "lockdep"),
    (r"kmemleak: \d+ new suspected memory leaks", "kmemleak"),
    (r"soft lockup|hard LOCKUP", "lockup"),
    (r"rcu: INFO: .*stall", "RCU stall"),
    (r"Bad page (state|map)", "bad page"),
    (r"VFS: Busy inodes after unmount", "busy inodes after unmount"),
    (r"\bCall Trace:", "call trace"),
]
BEGIN = "VF-EXPECT-SPLAT-BEGIN"
END = "VF-EXPECT-SPLAT-END"

# Warnings of the unmodified kernel that our scenarios provoke and that no
# patch of ours can change, each recognised by its WARNING line and a
# frame (not a "? " guess) of its call trace, within one splat (from the
# WARNING to "---[ end trace"). They are reported, not counted.
KNOWN_STOCK = [
    ("6.12 __GFP_NOFAIL order > 1: XFS's kzalloc of struct xfs_mount "
     "(a slab of order 2 in the debug variant) at mount under the "
     "fragmenter",
     r"WARNING: .* at mm/page_alloc\.c:\d+ __alloc_pages_slowpath",
     r"\]\s+xfs_init_fs_context\+"),
]
SPLAT_LINES = 150


def known_stock(lines):
    """Return {lineno: name} for the lines of known stock splats."""
    known = {}
    for i, line in enumerate(lines):
        for name, warn, frame in KNOWN_STOCK:
            if not re.search(warn, line):
                continue
            start = i - 1 if i and "[ cut here ]" in lines[i - 1] else i
            end = None
            for j in range(i + 1, min(len(lines), i + SPLAT_LINES)):
                if "---[ end trace" in lines[j]:
                    end = j
                    break
                if re.search(r"\bWARNING:|\bBUG:|\[ cut here \]", lines[j]):
                    break
            if end is None:
                continue
            if any(re.search(frame, lines[j]) for j in range(i, end)):
                for j in range(start, end + 1):
                    known[j + 1] = name
    return known


def check(lines, notes=None):
    """Return a list of (lineno, kind, line) for unexpected splats."""
    found = []
    expected = 0
    opened = []
    known = known_stock(lines)
    for n, line in enumerate(lines, 1):
        if n in known:
            if notes is not None and (n - 1 not in known or
                                      known[n - 1] != known[n]):
                notes.append((n, known[n]))
            continue
        if BEGIN in line:
            expected += 1
            opened.append((n, line.rstrip()))
            continue
        if END in line:
            if not expected:
                found.append((n, "END without BEGIN", line.rstrip()))
                continue
            expected -= 1
            opened.pop()
            continue
        if expected:
            continue
        for pat, kind in PATTERNS:
            if re.search(pat, line):
                found.append((n, kind, line.rstrip()))
                break
    for n, line in opened:
        found.append((n, "expected-splat window never closed", line))
    return found


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        with open(sys.argv[1], errors="backslashreplace") as f:
            lines = f.readlines()
    except OSError as e:
        print(f"check-log: cannot read {sys.argv[1]}: {e}", file=sys.stderr)
        return 2
    notes = []
    found = check(lines, notes)
    for n, name in notes:
        print(f"check-log: line {n}: known stock warning, not counted: {name}")
    if not found:
        print(f"check-log: {sys.argv[1]}: no splats")
        return 0
    print(f"check-log: {sys.argv[1]}: {len(found)} splat line(s):")
    for n, kind, line in found[:40]:
        print(f"  line {n} [{kind}]: {line}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
