#!/bin/bash
# Benchmark (make bench-perf): issue 19's profiles and report. Boots the
# top stage's default kernel (vfallback takes the physical path) and its
# always kernel (the virtual path), unfragmented, each once, through
# qemu/scenarios/bench.sh with one token cell and its perf record
# profiles: plain_noretry and vfallback at order ORDER (default 1),
# REPS x ITERS allocate/free rounds in one record (default 20 x 100000 on
# the default kernel, about 2 s at order 1 under TCG; VREPS, default 2, on
# the always kernel, whose rounds take 5-15 times longer; vfbench runs at
# most 100000 per cell). Writes results/perf-profile-*.txt
# (the top symbols, the benchmark's own sort left out), then regenerates
# results/perf.md with bench/perf-report.py from the results of
# bench-fastpath, bench-deferred, bench-test-vmalloc and bench-workloads
# (their goals say "not measured" when a CSV is missing).
# Then, for goal 4, boots the plain and the stage default kernels once
# each with one lib/test_vmalloc.c test (VM_MASK, default 1024:
# vm_map_ram_test, the one that was slower) run VM_LOOPS times (default
# 200000) under perf record -a: results/perf-profile-vmtest-*.txt.
# Environment: ORDER, REPS, VREPS, ITERS, VM_MASK, VM_LOOPS; MEM (2G), CPUS (2), ACCEL (auto),
# MAX_LOAD (half the host CPUs: each boot waits until the 1-minute load is
# below it), RESULTS (results/).
set -euo pipefail
. "$(dirname "$0")/../configs/common.sh"
vf_bench_env bench/perf.sh
order=${ORDER-1} reps=${REPS-20} vreps=${VREPS-2} iters=${ITERS-100000}
vm_mask=${VM_MASK-1024} vm_loops=${VM_LOOPS-200000}
vf_counts ORDER="$order" REPS="$reps" VREPS="$vreps" ITERS="$iters" VM_MASK="$vm_mask" VM_LOOPS="$vm_loops"
[ "$order" -le 10 ] || die "bench/perf.sh: ORDER=$order: 1..10"
[ "$iters" -le 100000 ] || die "bench/perf.sh: ITERS=$iters: vfbench runs at most 100000 per cell (raise REPS instead)"
top=$(vf_top_stage)
[ "$top" -ge 1 ] || die "bench/perf.sh: needs a stage kernel (no stage has patches)"
root=$VF_BUILD/bench/perf-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$root"
failed=0
vf_timer_start
for v in default always; do
	k=$VF_BUILD/kernels/bzImage-$top-$v
	[ -f "$k" ] || die "no $k: build it with 'make kernel STAGE=$top VARIANT=$v' (make bench-perf does)"
	say "building vfbench.ko and vffrag.ko against the stage-$top $v kernel"
	mods=$(vf_build_modules "$top" "$v")
	name=perf-$top-$v r=$reps
	[ "$v" = default ] || r=$vreps
	say "boot: stage-$top $v, profiles of plain_noretry and vfallback at order $order, $r x $iters rounds"
	if vf_bench_boot "$root" "$name" "$k" bench 2400 \
		"vf.bench=quick vf.scenario_frag=none vf.methods=plain_noretry,vfallback vf.orders=$order vf.iters=10 vf.perf=one vf.perf_order=$order vf.perf_iters=$iters vf.perf_reps=$r vf.lbs=0 vf.hold_mb=0 kunit.enable=0" \
		--in "$mods/vfbench.ko" --in "$mods/vffrag.ko"; then
		n=0
		for f in "$VF_BUILD/runs/$name/out"/perf-top-none-*-profile.txt; do
			grep -Eq '^ *[0-9.]+%' "$f" 2>/dev/null || continue	# a header without samples is no profile
			m=$(basename "$f" | sed 's/^perf-top-none-\(.*\)-o[0-9]*-profile.txt$/\1/')
			{ echo "# stage-$top $v kernel, accel $VF_ACCEL"; cat "$f"; } >"$root/perf-profile-$top-$v-$m-o$order.txt"
			n=$((n + 1))
		done
		[ "$n" = 2 ] || { echo "$name: $n profiles instead of 2 (see $root/$name.log)" >&2; failed=$((failed + 1)); }
	else
		failed=$((failed + 1))
	fi
done
for s in plain "$top"; do
	k=$VF_BUILD/kernels/bzImage-$s-default ko=$VF_BUILD/kernels/test_vmalloc-$s-default.ko
	for f in "$k" "$ko"; do
		[ -f "$f" ] || die "no $f: build it with 'make kernel STAGE=$s VARIANT=default' (make bench-perf does)"
	done
	name=perf-vmtest-$s
	say "boot: $s default, test_vmalloc run_test_mask=$vm_mask x $vm_loops under perf record -a"
	if vf_bench_boot "$root" "$name" "$k" vmtest 1800 \
		"vf.vm_runs=1 vf.vm_loops=$vm_loops vf.vm_mask=$vm_mask vf.vm_perf=1 kunit.enable=0" --in "$ko" &&
		grep -Eq '^ *[0-9.]+%' "$VF_BUILD/runs/$name/out/vmtest-perf-1.txt" 2>/dev/null; then
		{
			echo "# $s default kernel, accel $VF_ACCEL; the module's summary:"
			sed 's/^/# /' "$VF_BUILD/runs/$name/out/vmtest.txt"
			cat "$VF_BUILD/runs/$name/out/vmtest-perf-1.txt"
		} >"$root/perf-profile-vmtest-$s.txt"
	else
		failed=$((failed + 1))
	fi
done
vf_timer_end "perf"
[ "$failed" = 0 ] || die "$failed boot(s) failed or made no profile: see $root/*.log (results/ left as it was)"
mkdir -p "$results"
rm -f "$results"/perf-profile-*.txt
cp "$root"/perf-profile-*.txt "$results/"
python3 "$VF_TOP/bench/perf-report.py" "$results" >"$root/perf.md"
cp "$root/perf.md" "$results/perf.md"
say "results/perf.md:"
sed -n '/^| goal/,/^$/p' "$results/perf.md"
