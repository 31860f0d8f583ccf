#!/bin/bash
# Benchmark (make bench-perf): issue 19's profiles and report. Every
# profile is perf record -e cpu-clock in the guest (TCG has no hardware
# counters), through qemu/scenarios/bench.sh or vmtest.sh, one boot each:
#  - goals 1 and 2, unfragmented: the top stage's default kernel (vfallback
#    takes the physical path) and its always kernel (the virtual path):
#    plain_noretry and vfallback at order ORDER (default 1), REPS x ITERS
#    allocate/free rounds in one record (default 20 x 100000 on the
#    default kernel, about 2 s at order 1 under TCG; VREPS, default 2, on
#    the always kernel, whose rounds take 5-15 times longer; vfbench runs
#    at most 100000 per cell);
#  - goal 3, under the unmovable fragmenter: vfallback at ORDER on the
#    default kernel (mode auto: the doomed physical attempt, then the
#    virtual path) and on the always kernel (the virtual path alone),
#    VREPS x ITERS rounds each;
#  - goal 4: the plain and the stage default kernels with one
#    lib/test_vmalloc.c test (VM_MASK, default 1024: vm_map_ram_test, the
#    one that was slower) run VM_LOOPS times (default 200000) under perf
#    record -a;
#  - goal 5: the plain and the stage default kernels, the slab workload
#    (4000 files on ext4) and the large-block workload's sequential write
#    at LBS_BS (default 16384) once more each under perf record -a, after
#    their measured runs.
# Writes results/perf-profile-*.txt (the top symbols, the benchmark's own
# sort left out), then regenerates results/perf.md with
# bench/perf-report.py from the results of bench-fastpath, bench-deferred,
# bench-test-vmalloc and bench-workloads (their goals say "not measured"
# when a CSV is missing).
# Environment: ORDER, REPS, VREPS, ITERS, VM_MASK, VM_LOOPS, LBS_BS; MEM
# (2G), CPUS (2), ACCEL (auto), MAX_LOAD (half the host CPUs: each boot
# waits until the 1-minute load is below it), RESULTS (results/).
set -euo pipefail
. "$(dirname "$0")/../configs/common.sh"
vf_bench_env bench/perf.sh
order=${ORDER-1} reps=${REPS-20} vreps=${VREPS-2} iters=${ITERS-100000}
vm_mask=${VM_MASK-1024} vm_loops=${VM_LOOPS-200000} lbs_bs=${LBS_BS-16384}
vf_counts ORDER="$order" REPS="$reps" VREPS="$vreps" ITERS="$iters" VM_MASK="$vm_mask" VM_LOOPS="$vm_loops"
[ "$order" -le 10 ] || die "bench/perf.sh: ORDER=$order: 1..10"
case "$lbs_bs" in
4096 | 16384 | 65536) ;;
*) die "bench/perf.sh: LBS_BS='$lbs_bs': one of the workload's block sizes, 4096, 16384 or 65536" ;;
esac
[ "$iters" -le 100000 ] || die "bench/perf.sh: ITERS=$iters: vfbench runs at most 100000 per cell (raise REPS instead)"
top=$(vf_top_stage)
[ "$top" -ge 1 ] || die "bench/perf.sh: needs a stage kernel (no stage has patches)"
for f in "$VF_BUILD/kernels/bzImage-$top-default" "$VF_BUILD/kernels/bzImage-$top-always" \
	"$VF_BUILD/kernels/bzImage-plain-default" "$VF_BUILD/kernels/test_vmalloc-$top-default.ko" \
	"$VF_BUILD/kernels/test_vmalloc-plain-default.ko"; do
	[ -f "$f" ] || die "bench/perf.sh: no $f: 'make bench-perf' builds the kernels it needs (plain and stage $top default, stage $top always)"
done
root=$VF_BUILD/bench/perf-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$root"
failed=0
vf_timer_start
# perf_alloc_boot VARIANT SCENARIO METHODS REPS: one bench boot of the top
# stage's VARIANT kernel with the allocate/free profiles of METHODS
# (comma-separated) at $order under SCENARIO; one profile per method.
perf_alloc_boot() {
	local v=$1 scen=$2 meths=$3 r=$4 k name n f m want tag=''
	[ "$scen" = none ] || tag=$scen-
	k=$VF_BUILD/kernels/bzImage-$top-$v
	[ -f "$k" ] || die "no $k: build it with 'make kernel STAGE=$top VARIANT=$v' (make bench-perf does)"
	name=perf-$top-$v
	[ "$scen" = none ] || name=$name-$scen
	say "boot: stage-$top $v, $scen, profiles of ${meths//,/ and } at order $order, $r x $iters rounds"
	if vf_bench_boot "$root" "$name" "$k" bench 2400 \
		"vf.bench=quick vf.scenario_frag=$scen vf.methods=$meths vf.orders=$order vf.iters=10 vf.perf=one vf.perf_order=$order vf.perf_iters=$iters vf.perf_reps=$r vf.lbs=0 vf.hold_mb=0 kunit.enable=0" \
		--in "${mods[$v]}/vfbench.ko" --in "${mods[$v]}/vffrag.ko"; then
		n=0
		for f in "$VF_BUILD/runs/$name/out"/perf-top-"$scen"-*-profile.txt; do
			grep -Eq '^ *[0-9.]+%' "$f" 2>/dev/null || continue	# a header without samples is no profile
			m=$(basename "$f" | sed "s/^perf-top-$scen-\(.*\)-o[0-9]*-profile.txt\$/\1/")
			{ echo "# stage-$top $v kernel, scenario $scen, accel $VF_ACCEL"; cat "$f"; } \
				>"$root/perf-profile-$top-$v-$tag$m-o$order.txt"
			n=$((n + 1))
		done
		want=$(tr ',' '\n' <<<"$meths" | wc -l)
		[ "$n" = "$want" ] || { echo "$name: $n profiles instead of $want (see $root/$name.log)" >&2; failed=$((failed + 1)); }
	else
		failed=$((failed + 1))
	fi
}
declare -A mods
for v in default always; do
	say "building vfbench.ko and vffrag.ko against the stage-$top $v kernel"
	mods[$v]=$(vf_build_modules "$top" "$v")
done
perf_alloc_boot default none plain_noretry,vfallback "$reps"
perf_alloc_boot always none plain_noretry,vfallback "$vreps"
perf_alloc_boot default unmovable vfallback "$vreps"
perf_alloc_boot always unmovable vfallback "$vreps"
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
# Goal 5: the workloads' profiles, plain and stage default, unfragmented;
# the bench scenario's allocation cells cut to one token cell.
for s in plain "$top"; do
	k=$VF_BUILD/kernels/bzImage-$s-default
	[ -f "$k" ] || die "no $k: build it with 'make kernel STAGE=$s VARIANT=default' (make bench-perf does)"
	say "building vfbench.ko and vffrag.ko against the $s default kernel"
	m=$(vf_build_modules "$s" default)
	name=perf-workloads-$s
	say "boot: $s default, the slab workload and the $lbs_bs-byte sequential write under perf record -a"
	if vf_bench_boot "$root" "$name" "$k" bench 2400 \
		"vf.bench=quick vf.scenario_frag=none vf.methods=plain vf.orders=1 vf.iters=10 vf.perf=none vf.perf_slab=1 vf.perf_lbs=$lbs_bs vf.hold_mb=0 kunit.enable=0" \
		--in "$m/vfbench.ko" --in "$m/vffrag.ko"; then
		out=$VF_BUILD/runs/$name/out
		for w in slab "lbs-$lbs_bs-seqwrite"; do
			if grep -Eq '^ *[0-9.]+%' "$out/perf-top-$w.txt" 2>/dev/null; then
				{ echo "# $s default kernel, accel $VF_ACCEL"; cat "$out/perf-top-$w.txt"; } \
					>"$root/perf-profile-workload-$w-$s.txt"
			else
				echo "$name: no profile of $w (see $root/$name.log)" >&2
				failed=$((failed + 1))
			fi
		done
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
