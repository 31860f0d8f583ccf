#!/bin/bash
# Experiment (make bench-deferred): does the queue of deferred
# virtual-compound releases make vfallback's latency tail?
#
# Until 2026-12-04 the project's kernels had PREEMPT_NONE without
# PREEMPT_COUNT: vfallback_release() could not tell a caller that may sleep
# from one under a spinlock, so every release of a virtual compound was
# queued and done by a work item; an "always-preempt" variant (Debian's
# model) released inline. The committed results/deferred.{csv,md} are that
# comparison. Every kernel now has Debian's model (PREEMPT_DYNAMIC,
# voluntary: PREEMPT_COUNT), so releases from the benchmark loop are
# inline and only atomic callers queue; the experiment now compares the
# kernel's bound of queued releases with 1 page on that kernel.
#
# Boots the top stage's always kernel in each scenario of SCENARIOS
# (default "unmovable", the fragmenter; also "none"), once per setting
# VARIANT:BOUND in SETTINGS (default "always:default always:1"). Each REPEAT times (default 5, the settings interleaved: a
# boot of 30 s under TCG varies more than some of the effects), vfallback
# and vmalloc cycles (and plain's, for the p99 it is compared with) at
# ORDERS (default 1,3,8,10), ITERS each (default 1000). A boot that fails
# is recorded (in the table and the csv's boot list) and the run goes on;
# the script then exits 1. Writes results/deferred.csv (one row per boot
# and cell, with the releases queued: vfallback_deferred) and
# results/deferred.md (medians over the boots).
# Environment: SCENARIOS, SETTINGS, ORDERS, ITERS, REPEAT; MEM (2G), CPUS (2),
# ACCEL (auto), RESULTS (results/).
set -euo pipefail
. "$(dirname "$0")/../configs/common.sh"
# vf_bench_env: MEM, CPUS, ACCEL, MAX_LOAD; on INT/TERM it stops every
# process of this group (the scripts it runs stop
# their own process groups, QEMU and make, through their traps).
vf_bench_env bench/deferred.sh
orders=${ORDERS:-1,3,8,10} iters=${ITERS:-1000} repeat=${REPEAT:-5}
settings=${SETTINGS:-always:default always:1}
scenarios=${SCENARIOS:-unmovable}
for sc in $scenarios; do
	case "$sc" in none | unmovable) ;; *) die "bench/deferred.sh: SCENARIOS: '$sc' (none or unmovable)" ;; esac
done
case "$orders,$iters,$repeat" in
*[!0-9,]* | *,0 | *,,*) die "bench/deferred.sh: ORDERS='$orders' ITERS='$iters' REPEAT='$repeat': numbers only, REPEAT >= 1 (ORDERS=1,3,8 ITERS=1000 REPEAT=5)" ;;
esac
top=$(vf_top_stage)
[ "$top" -ge 2 ] || die "bench/deferred.sh: needs a stage-2 or stage-3 stack (deferred releases come with stage 2)"
declare -A mods
for st in $settings; do
	v=${st%%:*} d=${st#*:}
	case "$st" in *:*) ;; *) die "bench/deferred.sh: SETTINGS: '$st' is not VARIANT:BOUND (always:default, always:1)" ;; esac
	case "$v" in always | default) ;; *) die "bench/deferred.sh: SETTINGS: variant '$v' (always or default)" ;; esac
	case "$d" in default | [1-9] | [1-9]*[0-9]) ;; *) die "bench/deferred.sh: SETTINGS: bound '$d' is neither 'default' nor a number of pages >= 1" ;; esac
	[ -f "$VF_BUILD/kernels/bzImage-$top-$v" ] ||
		die "no $VF_BUILD/kernels/bzImage-$top-$v: build it with 'make kernel STAGE=$top VARIANT=$v' (make bench-deferred does)"
	if [ -z "${mods[$v]:-}" ]; then
		say "building vfbench.ko and vffrag.ko against $(vf_objdir "$top" "$v")"
		mods[$v]=$(vf_build_modules "$top" "$v")
	fi
done
root=$VF_BUILD/bench/deferred-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$root"
vf_timer_start
failed=0
for i in $(seq "$repeat"); do
	for sc in $scenarios; do
	for st in $settings; do
		v=${st%%:*} d=${st#*:}
		name=deferred-$sc-$v-$d-$i
		extra=
		[ "$d" = default ] || extra=" vf.deferred_max=$d"
		say "[$i/$repeat] stage$top/$v, $sc, bound $d: vfallback, vmalloc and plain at orders $orders x $iters"
		vf_fg "$VF_TOP/qemu/run.sh" --kernel "$VF_BUILD/kernels/bzImage-$top-$v" --name "$name" --scenario bench \
			--timeout 2400 --mem "$mem" --cpus "$cpus" --accel "$accel" \
			--append "vf.bench=full vf.scenario_frag=$sc vf.methods=vfallback,vmalloc,plain vf.orders=$orders vf.iters=$iters vf.perf=none vf.lbs=0 vf.hold_mb=0$extra" \
			--in "${mods[$v]}/vfbench.ko" --in "${mods[$v]}/vffrag.ko" || {
			echo "    boot $name failed (see $VF_BUILD/runs/$name/console.log): recorded, going on"
			mkdir -p "$root/$name"
			echo "boot failed; console: $VF_BUILD/runs/$name/console.log" >"$root/$name/failed"
			failed=$((failed + 1))
		}
		mkdir -p "$root/$name"
		cp "$VF_BUILD/runs/$name/out/bench-raw.txt" "$VF_BUILD/runs/$name/out/bench-info.txt" "$root/$name/" 2>/dev/null ||
			echo "no bench output" >>"$root/$name/failed"
		cp "$VF_BUILD/runs/$name/accel" "$root/$name/" 2>/dev/null || echo unknown >"$root/$name/accel"
		echo "$v" >"$root/$name/variant"
		echo "$sc" >"$root/$name/scenario"
	done
	done
done
mkdir -p "$results"
python3 - "$root" "$results" "$top" "$mem" "$cpus" "$VF_TOP/bench" <<'EOF'
import os, statistics, sys
root, out, top, mem, cpus, bench = sys.argv[1:]
sys.path.insert(0, bench)
from process import kv_line as kv  # the bench's one key=value parser
cols = ["scenario", "variant", "deferred_max", "boot", "method", "order", "attempts", "successes", "p50_ns", "p99_ns", "max_ns"]
rows, failed = [], []
for d in sorted(os.listdir(root)):
    if os.path.exists(os.path.join(root, d, "failed")):
        failed.append(d)
        continue
    info = kv(open(os.path.join(root, d, "bench-info.txt")).read().replace("\n", " "))
    accel = open(os.path.join(root, d, "accel")).read().strip()
    for line in open(os.path.join(root, d, "bench-raw.txt")):
        r = kv(line)
        if r.get("status") != "ok" or (r.get("method") != "plain"
                                       and r.get("attempts") != r.get("successes")):
            print(f"deferred: boot {d}: cell not ok or not every attempt successful: {line.strip()}")
            failed.append(d)
            continue
        r.update(deferred_max=info.get("deferred_max", "?"), boot=d, accel=accel,
                 variant=open(os.path.join(root, d, "variant")).read().strip(),
                 scenario=open(os.path.join(root, d, "scenario")).read().strip(),
                 release=info.get("kernel_release", "?"))
        rows.append(r)
if not rows:
    sys.exit("deferred: no cells recorded")
with open(os.path.join(out, "deferred.csv"), "w") as f:
    f.write(",".join(cols + ["vfallback_deferred", "accel", "kernel_release"]) + "\n")
    for r in rows:
        f.write(",".join(r.get(c, "") for c in cols + ["vfallback_deferred", "accel", "release"]) + "\n")
med = statistics.median
def us(ns):
    return f"{ns / 1000:.1f}"
nboots = len({r["boot"] for r in rows})
L = ["# Deferred releases and vfallback's latency tail", "",
     f"Generated by `bench/deferred.sh` (`make bench-deferred`). Stage {top}, variants `always` "
     f"(every vfallback block virtual; PREEMPT_DYNAMIC, voluntary, as Debian's kernel: releases "
     f"from process context inline), scenarios {', '.join(sorted({r['scenario'] for r in rows}))}, guest {mem} / {cpus} CPUs, "
     f"accel {', '.join(sorted({r['accel'] for r in rows}))}, kernel {rows[0]['release']}, "
     f"{nboots} boots (settings interleaved). Per cell: median over the boots of a setting, "
     "in µs of allocate+free (emulator times); `vf/vm p99`: median over the boots of "
     "vfallback's p99 / vmalloc's p99 in the same boot (min-max in brackets). "
     "deferred_max: pages of queued virtual-compound releases before an allocation does the "
     "excess itself (1: every allocation does nearly all). `queued`: releases queued per "
     "vfallback attempt (vfallback_deferred).", "",
     f"Failed boots (recorded, not in the table): {', '.join(sorted(set(failed))) or 'none'}.", "",
     "| scenario | variant | deferred_max | order | boots | queued | vfallback p50 | p99 | vmalloc p50 | p99 | vf/vm p99 | plain success | plain p99 |",
     "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
order_of = {}
for r in rows:
    order_of.setdefault((r["scenario"], r["variant"], r["deferred_max"]), len(order_of))
for (sc, va, dm) in sorted(order_of, key=order_of.get):
    for o in sorted({int(r["order"]) for r in rows}):
        sel = [r for r in rows if (r["scenario"], r["variant"], r["deferred_max"]) == (sc, va, dm)
               and int(r["order"]) == o]
        by = {}
        for r in sel:
            by.setdefault(r["method"], {})[r["boot"]] = r
        vf, vm, pl = by.get("vfallback", {}), by.get("vmalloc", {}), by.get("plain", {})
        def m(d, k):
            return us(med([int(r[k]) for r in d.values()])) if d else "-"
        def ok(d):
            a = sum(int(r["attempts"]) for r in d.values())
            return f"{100 * sum(int(r['successes']) for r in d.values()) / a:.0f}%" if a else "-"
        ratios = [int(vf[b]["p99_ns"]) / int(vm[b]["p99_ns"]) for b in vf if b in vm]
        rs = f"{med(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})" if ratios else "-"
        q = [int(r["vfallback_deferred"]) / int(r["attempts"]) for r in vf.values()
             if r.get("vfallback_deferred", "n/a").lstrip("-").isdigit()]
        qs = f"{med(q):.2f}" if q else "n/a"
        L.append(f"| {sc} | {va} | {dm} | {o} | {len(vf)} | {qs} | {m(vf, 'p50_ns')} | {m(vf, 'p99_ns')} | "
                 f"{m(vm, 'p50_ns')} | {m(vm, 'p99_ns')} | {rs} | {ok(pl)} | {m(pl, 'p99_ns')} |")
open(os.path.join(out, "deferred.md"), "w").write("\n".join(L) + "\n")
print("\n".join(L))
EOF
vf_timer_end "bench-deferred"
[ "$failed" = 0 ] || die "bench-deferred: $failed boot(s) failed (recorded in results/deferred.md); see build/logs/"
