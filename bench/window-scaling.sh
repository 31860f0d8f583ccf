#!/bin/bash
# Benchmark (make bench-window-scaling): does the virtual path scale with
# CPUs? Issue 15 item 7: every map of a virtual compound reserved its area
# in vmalloc's global free tree under free_vmap_area_lock; since stage-2
# patch 15 freed areas of the window come back from per-node pools.
#
# Boots each kernel of KERNELS (LABEL=BZIMAGE, space-separated; default
# "stage=build/kernels/bzImage-TOP-always", the top stage's always kernel,
# where every GFP_VFALLBACK allocation is virtual) REPEAT times (default
# 3), the kernels rotated from round to round (vf_boot_order). In each
# boot the guest scenario winscale runs vfbench's par cells: vfallback and
# vmalloc (the reference: its areas come from vmalloc's own pools on every
# kernel) at ORDERS (1,3), from 1 and 2 kthreads at once (THREADS), MS ms
# each (2000), REPS times (2). To compare with the kernel before a change,
# add it: KERNELS="before=/path/bzImage stage=build/kernels/bzImage-3-always".
# The bench module is built against the top stage's always tree; it uses
# only exported interfaces that every stage kernel has.
# With PROFILE=1 (the default), the first boot of each kernel also
# profiles one cell per method (order: the first of ORDERS; threads: the
# most) under perf record -a: results/window-scaling-profile-LABEL-METHOD.txt.
# Writes results/window-scaling.csv (one row per boot and cell) and
# results/window-scaling.md (medians over boots and reps: ops/s per cell,
# 2-thread/1-thread scaling, and each kernel against the first).
# Environment: KERNELS, REPEAT, ORDERS, THREADS, MS, REPS, PROFILE; MEM (2G),
# CPUS (2), ACCEL (auto), RESULTS (results/).
set -euo pipefail
. "$(dirname "$0")/../configs/common.sh"
vf_bench_env bench/window-scaling.sh
repeat=${REPEAT-3} orders=${ORDERS-1,3} threads=${THREADS-1,2} ms=${MS-2000} reps=${REPS-2} profile=${PROFILE-1}
case "$profile" in 0 | 1) ;; *) die "$VF_BENCH: PROFILE='$profile': 0 or 1" ;; esac
vf_counts REPEAT="$repeat" MS="$ms" REPS="$reps"
for l in "$orders" "$threads"; do
	case "$l" in '' | *[!0-9,]* | ,* | *, | *,,*) die "$VF_BENCH: ORDERS='$orders' THREADS='$threads': comma-separated numbers (ORDERS=1,3 THREADS=1,2)" ;; esac
done
top=$(vf_top_stage)
[ "$top" -ge 2 ] || die "$VF_BENCH: needs a stage-2 or stage-3 stack (the window comes with stage 2)"
kernels=${KERNELS:-stage=$VF_BUILD/kernels/bzImage-$top-always}
vf_bench_kernels "$kernels" "build the top stage's always kernel: make kernel STAGE=$top VARIANT=always"
say "building vfbench.ko against $(vf_objdir "$top" always)"
mods=$(vf_build_modules "$top" always)
root=$VF_BUILD/bench/winscale-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$root"
vf_timer_start
failed=0
for r in $(seq "$repeat"); do
	for l in $(vf_boot_order "$r" "${labels[@]}"); do
		name=winscale-$l-$r
		say "[$r/$repeat] $l ($(basename "${kpath[$l]}")): orders $orders, threads $threads, ${ms} ms x $reps"
		p=0
		[ "$r" = 1 ] && p=$profile
		if vf_bench_boot "$root" "$name" "${kpath[$l]}" winscale 1800 \
			"vf.orders=$orders vf.threads=$threads vf.ms=$ms vf.reps=$reps vf.perf=$p" \
			--in "$mods/vfbench.ko"; then
			mkdir -p "$root/$name"
			cp "$VF_BUILD/runs/$name/out/winscale.txt" "$root/$name/"
			for f in "$VF_BUILD/runs/$name/out"/perf-par-*.txt; do
				[ -f "$f" ] || continue
				{ echo "# kernel $l ($(basename "${kpath[$l]}")), accel $VF_ACCEL"; cat "$f"; } \
					>"$root/$name/$(basename "$f")"
			done
			echo "$VF_ACCEL" >"$root/$name/accel"
			echo "$l" >"$root/$name/label"
		else
			failed=$((failed + 1))
		fi
	done
done
vf_timer_end "window-scaling"
mkdir -p "$results"
rm -f "$results"/window-scaling-profile-*.txt
for d in "$root"/winscale-*-1; do
	for f in "$d"/perf-par-*.txt; do
		[ -f "$f" ] || continue
		m=$(basename "$f" .txt)
		cp "$f" "$results/window-scaling-profile-$(cat "$d/label")-${m#perf-par-}.txt"
	done
done
python3 "$VF_TOP/bench/window-scaling-report.py" "$root" "$results" "$mem" "$cpus" "${labels[@]}"
say "results: $results/window-scaling.md, $results/window-scaling.csv (raw: $root)"
[ "$failed" = 0 ] || die "$VF_BENCH: $failed boot(s) failed (logs in $root); the tables hold the others"
