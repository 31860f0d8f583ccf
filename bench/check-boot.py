#!/usr/bin/env python3
"""Check that one benchmark boot produced what it was asked for.

Usage: check-boot.py RUN_DIR [--expect-path physical|virtual]

RUN_DIR holds the host's `meta` (kernel, methods, orders, lbs) and the
guest's outputs (out/bench-raw.txt, out/bench-info.txt, out/lbs-raw.txt).
Prints one PASS/FAIL line per check and exits 1 on any FAIL:

- every cell the host asked for (meta's methods x orders, and the hold
  cells the guest announced) is there with status=ok; a boot with no
  cell at all fails;
- on a stage kernel, the large-block workload (when meta says lbs=1) has
  rows and every one of them 0 errors: stage 3 must complete every fio
  run, where plain may fail with ENOMEM (that is data, not a failure);
- with --expect-path, every vfallback cell of the none scenario took that
  path in every successful attempt (physical: the fast path of an
  unfragmented guest; virtual: the always variant).

Allocation failures are data and never fail this check.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import process  # noqa: E402


def main(argv):
    args = argv[1:]
    want_path = None
    if len(args) == 3 and args[1] == "--expect-path" and args[2] in ("physical", "virtual"):
        want_path = args[2]
        args = args[:1]
    if len(args) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    run = args[0]
    if not os.path.isfile(os.path.join(run, "meta")):
        print(f"FAIL: bench boot {run}: no meta file (not a benchmark boot directory)")
        return 1
    meta = process.read_kv_file(os.path.join(run, "meta"))
    info = process.read_kv_file(process.guest_file(run, "bench-info.txt"))
    label = f"bench boot {meta.get('name', os.path.basename(run.rstrip(os.sep)))}"
    # The host's request wins over what the guest found it could run.
    want = dict(info)
    if meta.get("methods"):
        want["methods"] = meta["methods"]
    if meta.get("orders"):
        want["orders"] = meta["orders"]
    cells, _ = process.expected_cells(meta, want)
    _, _, rows = process.load_run(run)
    got = {(r["method"], int(r["order"]), r["pattern"]): r for r in rows}
    rc = 0
    ok_cells = [c for c in cells if got.get(c, {}).get("status") == "ok"]
    if not cells or len(ok_cells) != len(cells):
        bad = [f"{m}/o{o}/{p}:{got.get((m, o, p), {}).get('status', 'missing')}"
               for (m, o, p) in cells if (m, o, p) not in ok_cells]
        print(f"FAIL: {label}: {len(ok_cells)} of {len(cells)} expected cells recorded"
              + (f" (not ok: {', '.join(bad[:8])}{' ...' if len(bad) > 8 else ''})" if bad else ""))
        rc = 1
    else:
        print(f"PASS: {label}: all {len(cells)} expected cells recorded")
    if meta.get("kernel", "plain") != "plain" and meta.get("lbs", "0") != "0":
        lbs = process.load_lbs(run)
        errs = [r for r in lbs if str(r.get("errors")) not in ("0", "")]
        if not lbs:
            print(f"FAIL: {label}: the large-block workload recorded nothing")
            rc = 1
        elif errs:
            print(f"FAIL: {label}: {len(errs)} large-block run(s) with errors on a stage kernel: "
                  + ", ".join(f"{r['fsblock']}/{r['workload']} ({r.get('error_text') or 'rc ' + str(r.get('rc'))})"
                              for r in errs[:6]))
            rc = 1
        else:
            print(f"PASS: {label}: {len(lbs)} large-block runs, 0 errors")
    if want_path:
        vf = [r for r in rows if r["method"] == "vfallback" and r.get("scenario") == "none"
              and r.get("status") == "ok"]
        bad = [r for r in vf if process.num(r.get(want_path)) != process.num(r.get("successes"))
               or not process.num(r.get("successes"))]
        if not vf or bad:
            print(f"FAIL: {label}: vfallback cells not all {want_path}: "
                  + ", ".join(f"o{r['order']}: {r.get('physical')} physical, {r.get('virtual')} virtual "
                              f"of {r.get('successes')}" for r in (bad or vf)[:6]) + ("" if vf else "no cell"))
            rc = 1
        else:
            print(f"PASS: {label}: every vfallback attempt {want_path} ({len(vf)} cells)")
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv))
