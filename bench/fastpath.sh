#!/bin/bash
# Benchmark (make bench-fastpath): the physical fast path of
# alloc_pages(GFP_VFALLBACK) against plain alloc_pages(), unfragmented
# (issue 19, goal 1), and what a doomed physical attempt costs under
# fragmentation (goal 3).
#
#   bench/fastpath.sh              measure the top stage's default kernel
#   bench/fastpath.sh --save DIR   keep that kernel and its modules in DIR
#                                  (to compare a later kernel with it)
#   BEFORE=DIR bench/fastpath.sh   measure the saved kernel and the current
#                                  one side by side: boots alternate
#                                  between them, round by round
#
# Each boot runs qemu/scenarios/fastpath.sh: per order 1..10, vfbench's
# paired runs (two methods alternating in one loop, ITERS rounds):
# plain/plain (the noise floor), plain/vfallback and
# plain_noreclaim/vfallback (plain with the flags of the physical
# attempt). With FRAG=1 (default) it then fragments memory with vffrag
# (unmovable, no OOM rescue for the measurement) and measures vfallback in
# mode "auto" against mode "always" at FRAG_ORDERS (1,2,3), FRAG_ROUNDS (5)
# paired rounds of FRAG_ITERS (2000) allocations.
# Each boot waits for a quiet host (1-minute load < MAX_LOAD, default 0.5
# per CPU; recorded). Writes results/fastpath.csv, results/fastpath-frag.csv
# and results/fastpath.md (bench/fastpath-report.py: medians over the
# boots of each boot's ratios, min-max, PASS/FAIL against the goals, and
# the noise floor; with PRESSURE=reclaim also results/OUT-hold.csv). A
# failed boot is recorded and the run goes on; exit 1 then.
# PAIRS="A:B,C:D" measures other pairs of vfbench methods (b/a ratios,
# the A/A floor from a pair of a method with itself; no goal verdicts),
# FRAG_PAIRS=1 measures them under fragmentation too (instead of the
# modes), and OUT names the files (results/OUT{.csv,-frag.csv,.md});
# e.g. the fallback against kvmalloc:
#   PAIRS=vfallback:vfallback,vfallback:kvmalloc,vfallback:kvmalloc_2025 \
#   FRAG_PAIRS=1 OUT=worth-kvmalloc ICOUNT=1 bench/fastpath.sh
# PRESSURE=reclaim measures the unfragmented pairs under ordinary memory
# pressure (clean page cache of a file 5/4 of the guest's RAM, on a
# virtio disk of the boot, read before each order): where plain succeeds
# physically, a virtual result of the other method is a false fallback;
# HOLD_METHODS (plain,vfallback) names the methods of the held cells.
# Environment: MEM (2G), CPUS (2), ACCEL (auto), ICOUNT, REPEAT (5 boots
# per kernel), ITERS (20000), ORDERS (1,...,10), FRAG (1), FRAG_ORDERS,
# FRAG_ROUNDS, FRAG_ITERS, PAIRS, FRAG_PAIRS (0), PRESSURE (none), OUT
# (fastpath), MAX_LOAD, BEFORE, RESULTS (results/).
set -euo pipefail
. "$(dirname "$0")/../configs/common.sh"
vf_bench_env bench/fastpath.sh

top=$(vf_top_stage)
[ "$top" -ge 1 ] || die "bench/fastpath.sh: needs a stage kernel (no stage has patches)"
k=$VF_BUILD/kernels/bzImage-$top-default
nok="no $k: build it with 'make kernel STAGE=$top VARIANT=default' (make bench-fastpath does)"

if [ "${1:-}" = --save ]; then
	[ -f "$k" ] || die "$nok"
	dir=${2:?usage: bench/fastpath.sh --save DIR}
	say "saving the stage-$top default kernel and its benchmark modules in $dir"
	mods=$(vf_build_modules "$top" default)
	mkdir -p "$dir"
	cp "$k" "$dir/bzImage"
	cp "$mods/vfbench.ko" "$mods/vffrag.ko" "$dir/"
	cp "$VF_BUILD/kernels/config-$top-default" "$dir/config" 2>/dev/null || true
	(cd "$VF_TOP" && git describe --always --dirty 2>/dev/null || echo unknown) >"$dir/commit"
	{ cat "$VF_TOP"/stage*/series; } | sha256sum | cut -d' ' -f1 >"$dir/series.sha256"
	echo "saved: $(ls "$dir" | tr '\n' ' ')"
	exit 0
fi
[ $# = 0 ] || die "bench/fastpath.sh: unknown argument '$1' (no argument, or --save DIR)"

repeat=${REPEAT-5} iters=${ITERS-20000} orders=${ORDERS:-1,2,3,4,5,6,7,8,9,10}
frag=${FRAG:-1} frag_orders=${FRAG_ORDERS:-1,2,3} frag_rounds=${FRAG_ROUNDS-5} frag_iters=${FRAG_ITERS-2000}
vf_counts REPEAT="$repeat" ITERS="$iters" FRAG_ROUNDS="$frag_rounds" FRAG_ITERS="$frag_iters"
case "$frag" in 0 | 1) ;; *) die "bench/fastpath.sh: FRAG='$frag': 1 (measure under fragmentation too) or 0" ;; esac
pairs=${PAIRS:-plain:plain,plain:vfallback,plain_noreclaim:vfallback} frag_pairs=${FRAG_PAIRS:-0} out=${OUT:-fastpath}
case "$pairs" in *[!a-z0-9_:,]* | '' | *,) die "bench/fastpath.sh: PAIRS='$pairs': comma-separated METHOD:METHOD pairs of vfbench's methods" ;; esac
for pp in ${pairs//,/ }; do
	case "$pp" in [a-z]*:[a-z]*) ;; *) die "bench/fastpath.sh: PAIRS: '$pp' is not METHOD:METHOD" ;; esac
done
case "$frag_pairs" in 0 | 1) ;; *) die "bench/fastpath.sh: FRAG_PAIRS='$frag_pairs': 1 (the pairs under fragmentation) or 0" ;; esac
pressure=${PRESSURE:-none} hold_methods=${HOLD_METHODS:-plain,vfallback}
case "$hold_methods" in plain,[a-z]* | plain) ;; *) die "bench/fastpath.sh: HOLD_METHODS='$hold_methods': plain first (the reference), then comma-separated vfbench methods" ;; esac
case "$hold_methods" in *[!a-z0-9_,]* | *,) die "bench/fastpath.sh: HOLD_METHODS='$hold_methods': comma-separated vfbench methods" ;; esac
case "$pressure" in none | reclaim) ;; *) die "bench/fastpath.sh: PRESSURE='$pressure': none or reclaim (the pairs under page-cache pressure)" ;; esac
case "$out" in *[!a-z0-9-]* | '') die "bench/fastpath.sh: OUT='$out': a name of letters, digits and dashes" ;; esac
for list in "$orders" "$frag_orders"; do
	case "$list" in '' | *[!0-9,]*) die "bench/fastpath.sh: ORDERS='$orders' FRAG_ORDERS='$frag_orders': comma-separated orders 1..10 (ORDERS=1,3,9)" ;; esac
	for o in ${list//,/ }; do
		[ "$o" -ge 1 ] && [ "$o" -le 10 ] || die "bench/fastpath.sh: order $o is outside 1..10"
	done
done

[ -f "$k" ] || die "$nok"
root=$VF_BUILD/bench/fastpath-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$root"
say "building vfbench.ko and vffrag.ko against the stage-$top default kernel"
mods=$(vf_build_modules "$top" default)
# The kernels: "label kernel moduledir".
kernels=("current $k $mods")
if [ -n "${BEFORE:-}" ]; then
	for f in bzImage vfbench.ko vffrag.ko; do
		[ -f "$BEFORE/$f" ] || die "BEFORE=$BEFORE has no $f: save a kernel with 'bench/fastpath.sh --save DIR' first"
	done
	kernels=("before $BEFORE/bzImage $BEFORE" "${kernels[@]}")
	say "before: $BEFORE (commit $(cat "$BEFORE/commit" 2>/dev/null || echo unknown)); current: $k"
fi


csv=$root/$out.csv
echo "kernel,boot,load,accel,order,a,b,a_n,a_fail,a_p50,a_p90,a_p99,b_n,b_fail,b_p50,b_p90,b_p99,b_physical,b_virtual,clock" >"$csv"
fcsv=$root/$out-frag.csv
echo "kernel,boot,accel,order,round,mode,skips,attempts,successes,p50,p99,physical,virtual,oom_attempts,clock" >"$fcsv"
hcsv=$root/$out-hold.csv
echo "kernel,boot,accel,order,method,attempts,successes,physical,virtual,p50_ns,p99_ns,memfree_kb,clock" >"$hcsv"
failed=0 nk=${#kernels[@]}
vf_timer_start
for i in $(seq "$repeat"); do
	for j in $(seq 0 $((nk - 1))); do
		# Alternate which kernel boots first in a round.
		[ $((i % 2)) = 1 ] || j=$((nk - 1 - j))
		read -r label kern kmods <<<"${kernels[$j]}"
		name=fastpath-$label-$i
		disk=()
		if [ "$pressure" = reclaim ]; then
			rm -f "$root/$name.img"
			truncate -s "$(( $(numfmt --from=iec "$mem") * 2 ))" "$root/$name.img" || die "bench/fastpath.sh: cannot make the disk image $root/$name.img"
			disk=(--disk "$root/$name.img")
		fi
		say "round $i/$repeat, kernel $label: orders $orders, $iters rounds per pair; fragmented: $([ "$frag" = 1 ] && echo "orders $frag_orders" || echo no)"
		if vf_bench_boot "$root" "$name" "$kern" fastpath 1800 \
			"vf.orders=$orders vf.iters=$iters vf.frag=$frag vf.frag_orders=$frag_orders vf.frag_rounds=$frag_rounds vf.frag_iters=$frag_iters vf.pairs=$pairs vf.frag_pairs=$frag_pairs vf.pressure=$pressure vf.hold_methods=$hold_methods kunit.enable=0" \
			--in "$kmods/vfbench.ko" --in "$kmods/vffrag.ko" "${disk[@]}"; then
			rm -f "$root/$name.img"
			say "host load at boot: $VF_LOAD"
			python3 "$VF_TOP/bench/fastpath-report.py" --collect "$VF_BUILD/runs/$name/out/fastpath.txt" \
				"$label,$i,$VF_LOAD,$VF_ACCEL" "$label,$i,$VF_ACCEL" "$csv" "$fcsv" "$hcsv"
		else
			rm -f "$root/$name.img"
			failed=$((failed + 1))
			echo "$label,$i,$VF_LOAD,failed$(printf ',%.0s' $(seq 16))" >>"$csv"
		fi
	done
done
vf_timer_end "fastpath"
python3 "$VF_TOP/bench/fastpath-report.py" "$csv" "$fcsv" "$hcsv" >"$root/$out.md"
cp "$csv" "$fcsv" "$root/$out.md" "$results/"
[ "$pressure" = none ] || cp "$hcsv" "$results/"
cat "$results/$out.md"
[ "$failed" = 0 ] || die "$failed boot(s) failed: see $root/*.log"
