#!/bin/bash
# The project's test command (make test; .ci/run calls it).
#
#   test.sh [quick]
#
# Steps: harness self-tests; patch checks; trees; the plain kernel built
# and booted with the smoke scenario; the highest stage kernel built in
# the default and always variants and booted with its KUnit suites and
# scenario. Every check prints one PASS/FAIL/SKIP line; the run ends with
# "N passed, N failed" and exits non-zero on any failure.
# VARIANTS="default always" and STAGE=N override what is booted;
# test.sh debug runs the debug variant instead (make test-debug).
set -uo pipefail
. "$(dirname "$0")/../configs/common.sh"
# INT/TERM: stop every process of this group (the scripts it runs stop
# their own process groups, QEMU and make, through their traps).
trap 'trap - INT TERM; echo "interrupted: stopping everything started here" >&2; kill -TERM 0; exit 130' INT TERM

mode=${1:-full}
case "$mode" in full | debug | stress | lbfault) ;; *) die "test.sh: unknown mode '$mode' (full, debug, stress or lbfault)" ;; esac
log=$VF_LOGS/test-$mode.log
: >"$log"
pass=0 fail=0 skip=0
t_start=$(date +%s)

# step NAME COMMAND...: run, show and count its PASS/FAIL/SKIP lines.
step() {
	local name=$1 t0 rc out p f s
	shift
	t0=$(date +%s)
	echo "---- $name"
	out=$VF_LOGS/step-$mode.out
	# In the background and waited for: a TERM to this script runs its
	# trap at once (bash defers traps while a foreground child runs).
	( "$@" 2>&1 | tee "$out" | tee -a "$log"; exit "${PIPESTATUS[0]}" ) &
	rc=0
	wait "$!" || rc=$?
	p=$(grep -c '^PASS: ' "$out"); f=$(grep -c '^FAIL: ' "$out"); s=$(grep -c '^SKIP: ' "$out")
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		echo "FAIL: $name (exit status $rc)" | tee -a "$log"
		f=1
	fi
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	echo "---- $name: $p passed, $f failed, $s skipped ($(( $(date +%s) - t0 ))s)" | tee -a "$log"
	return "$rc"
}

# build_step STAGE VARIANT: one PASS/FAIL line for a kernel build.
build_kernel() {
	if "$VF_TOP/configs/mkkernel.sh" "$1" "$2"; then
		echo "PASS: build $1-$2 (linux $(cat "$VF_SRC/pristine/.vf-version"))"
	else
		echo "FAIL: build $1-$2"
		return 1
	fi
}

tree_applies() {
	if "$VF_TOP/configs/mktree.sh" "$1"; then
		echo "PASS: stacks 1..$1 apply with quilt to linux $(cat "$VF_SRC/pristine/.vf-version")"
	else
		echo "FAIL: stacks 1..$1 do not apply"
		return 1
	fi
}

boot_smoke() {
	local k=$VF_BUILD/kernels/bzImage-$1 rc=0
	"$VF_TOP/qemu/run.sh" --kernel "$k" --name "test-$1-smoke" --scenario smoke --timeout 600 || rc=1
	"$VF_TOP/qemu/check-snapshot.sh" "$VF_BUILD/runs/test-$1-smoke/out" before || rc=1
	"$VF_TOP/qemu/check-snapshot.sh" "$VF_BUILD/runs/test-$1-smoke/out" after || rc=1
	return $rc
}

# kunit_verdict STAGE NAME SUITE...: the KUnit verdict of boot NAME, from
# the kernel's own kunit.py parse (its exit status counts: a crash or KTAP
# that does not parse fails) and kunit-summary.py (a missing suite, a
# failed or an unexpected skipped case fails).
kunit_verdict() {
	local st=$1 name=$2 prc=0
	shift 2
	python3 "$(vf_tree "$st")/tools/testing/kunit/kunit.py" parse \
		--json="$VF_BUILD/runs/$name/kunit.json" "$VF_LOGS/$name.console.log" \
		>"$VF_BUILD/runs/$name/kunit.txt" 2>&1 || prc=$?
	[ "$prc" = 0 ] || grep -E 'ERROR|CRASHED|FAILED' "$VF_BUILD/runs/$name/kunit.txt" | head -5 | sed 's/^/    | /'
	python3 "$VF_TOP/qemu/kunit-summary.py" "$VF_BUILD/runs/$name/kunit.json" "$name" --parse-rc "$prc" "$@"
}

# boot_stage STAGE VARIANT: KUnit suites + the stage scenario.
boot_stage() {
	local st=$1 var=$2 name=test-$1-$2 expect=auto rc=0 suites=(vfallback) ins=() timeout=1200 mods
	local filter=() skips=()
	# Skips that are right for the variant: the NOFS/NOIO case needs
	# lockdep (debug only); KASAN defers frees and quarantines objects, so
	# the SLUB-debug free checks run in the other variants.
	# window_pools_give_way fills the whole window with areas, for which
	# KASAN_VMALLOC would populate shadow (512 MiB for 4 GiB).
	if [ "$var" = debug ]; then
		skips=(--allow-skip 'vfallback/vfallback_test_window_pools_give_way'
			--allow-skip 'vfallback_slab/vfallback_test_slab_debug_redzone_free'
			--allow-skip 'vfallback_slab/vfallback_test_slab_debug_poison'
			--allow-skip 'vfallback_slab/vfallback_test_slab_reclaimed_pages')
	else
		# might_alloc_caller_flags needs CONFIG_DEBUG_ATOMIC_SLEEP.
		skips=(--allow-skip 'vfallback_slab/vfallback_test_slab_gfp_nofs_noio'
			--allow-skip 'vfallback/vfallback_test_might_alloc_caller_flags')
	fi
	# Stage 2 sizes the window with vfallback_window= (its KUnit case
	# window_size_param checks that the boot's value is the one in use).
	# slab_order_param runs where slab_vfallback_order= is given
	# (boot_preempt_full).
	[ "$st" -ge 2 ] && suites+=(vfallback_atomic vfallback_slab) && filter+=(vfallback_window=4G) &&
		skips+=(--allow-skip 'vfallback_slab/vfallback_test_slab_order_param')
	[ "$var" = always ] && expect=always
	# The debug variant also carries the kernel's own suites (slub_kunit,
	# kfence, usercopy, KASAN's), which provoke reports on purpose: they
	# run apart, in make test-kernel-suites.
	[ "$var" = debug ] && filter+=(kunit.filter_glob='vfallback*')
	# Stage 3 runs its XFS matrix under the unmovable fragmenter too.
	if [ "$st" -ge 3 ]; then
		mods=$(vf_build_modules "$st" "$var") || return 1
		ins=(--in "$mods/vffrag.ko")
		timeout=3000
		# The debug kernel (KASAN, lockdep, kmemleak) took 2258 s here.
		[ "$var" = debug ] && timeout=6000
	fi
	"$VF_TOP/qemu/run.sh" --kernel "$VF_BUILD/kernels/bzImage-$st-$var" --name "$name" \
		--scenario "stage$st" --timeout "$timeout" --append "vf.expect=$expect numa=fake=2 ${filter[*]}" \
		"${ins[@]}" || rc=1
	kunit_verdict "$st" "$name" "${skips[@]}" "${suites[@]}" || rc=1
	return $rc
}

# boot_lbrace STAGE VARIANT: the large-block fallback's races and error
# paths (issue 16 items 1-5), one guest tool each; the race window of
# item 1 for 10 s here (the full stress target runs it longer).
boot_lbrace() {
	local timeout=1200
	[ "$2" = debug ] && timeout=3600
	"$VF_TOP/qemu/run.sh" --kernel "$VF_BUILD/kernels/bzImage-$1-$2" --name "test-$1-$2-lbrace" \
		--scenario lbrace --timeout "$timeout" --append "vf.race_secs=10 kunit.enable=0"
}

# boot_lbstress STAGE VARIANT [MODE PERCENT SECS]: mixed buffered, direct
# and mmap I/O, a crash and punch/truncate on one 64 KiB-block XFS while
# fail_minorder_folio fails PERCENT % of the large-block folios (short
# mode by default; make test-stress runs the full one).
boot_lbstress() {
	local timeout=1200 smode=${3:-short} pct=${4:-20} secs=${5:-10}
	[ "$2" = debug ] && timeout=3600
	"$VF_TOP/qemu/run.sh" --kernel "$VF_BUILD/kernels/bzImage-$1-$2" \
		--name "test-$1-$2-lbstress${3:+-$smode-$pct}" --scenario lbstress --timeout "$timeout" \
		--append "vf.stress=$smode vf.inject_pct=$pct vf.stress_secs=$secs kunit.enable=0"
}

# boot_lbfault KERNEL [MODE RECORD LIMIT]: page faults and zeroing on large
# blocks with every allocation of order >= 4 failing (issue 17): the
# reserve (lb_reserve=16M at boot), eviction into it, SIGBUS when it is
# spent by design; RECORD=1 (plain 6.12) records instead of asserting;
# LIMIT: seconds a workload may take (240; a livelock ends there).
boot_lbfault() {
	local timeout=1500 lmode=${2:-short} rec=${3:-0} limit=${4:-240} mods ins=()
	case $1 in *debug) timeout=4000 ;; esac
	if [ "$lmode" = full ]; then
		timeout=3600
		mods=$(vf_build_modules "${1%-*}" "${1##*-}") || return 1
		ins=(--in "$mods/vffrag.ko")
	fi
	# plain 6.12's OOM kills are part of what is recorded there
	[ "$rec" = 1 ] && ins+=(--no-splat-check)
	"$VF_TOP/qemu/run.sh" --kernel "$VF_BUILD/kernels/bzImage-$1" "${ins[@]}" \
		--name "test-$1-lbfault-$lmode" --scenario lbfault --timeout "$timeout" \
		--append "lb_reserve=16M vf.lbfault=$lmode vf.lbfault_record=$rec vf.lbfault_limit=$limit kunit.enable=0"
}

# boot_lbfault_movable KERNEL: the short lbfault scenario with most memory
# in ZONE_MOVABLE (movablecore=1G): the reserve fills from the allocator at
# boot and refills after takes, whose blocks must not come from that zone.
boot_lbfault_movable() {
	"$VF_TOP/qemu/run.sh" --kernel "$VF_BUILD/kernels/bzImage-$1" \
		--name "test-$1-lbfault-movable" --scenario lbfault --timeout 1500 \
		--append "lb_reserve=16M movablecore=1G vf.lbfault=short vf.lbfault_record=0 vf.lbfault_limit=240 kunit.enable=0"
}

# kconfig_aliasing STAGE: VFALLBACK cannot be enabled on an architecture
# whose data caches alias (sparc64: Kconfig only, no compiler needed).
kconfig_aliasing() {
	local o=$VF_BUILD/kconfig-sparc64 src
	src=$(vf_tree "$1")
	rm -rf "$o" && mkdir -p "$o"
	make -s -C "$src" O="$o" ARCH=sparc64 allnoconfig >"$o/log" 2>&1 ||
		{ echo "FAIL: Kconfig: sparc64 allnoconfig failed (see $o/log)"; return 1; }
	grep -q '^CONFIG_ARCH_HAS_CPU_CACHE_ALIASING=y' "$o/.config" ||
		{ echo "FAIL: Kconfig: sparc64 no longer selects ARCH_HAS_CPU_CACHE_ALIASING: pick another architecture"; return 1; }
	echo CONFIG_VFALLBACK=y >>"$o/.config"
	make -s -C "$src" O="$o" ARCH=sparc64 olddefconfig >>"$o/log" 2>&1 ||
		{ echo "FAIL: Kconfig: sparc64 olddefconfig failed (see $o/log)"; return 1; }
	if grep -q '^CONFIG_VFALLBACK=y' "$o/.config"; then
		echo "FAIL: Kconfig: VFALLBACK can be enabled with aliasing data caches (sparc64)"
		return 1
	fi
	echo "PASS: Kconfig: no VFALLBACK with aliasing data caches (sparc64 asked for it, olddefconfig dropped it)"
}

# boot_preempt_full STAGE: the always kernel with preempt=full, the KUnit
# suites of atomic use and virtual slabs, and the smoke scenario. It also
# gives an invalid slab_vfallback_order= (-1), which must be refused with
# a warning: the slab suite's slab_order_param checks that the default
# order is in use.
boot_preempt_full() {
	local st=$1 name=test-$1-always-preempt-full rc=0
	"$VF_TOP/qemu/run.sh" --kernel "$VF_BUILD/kernels/bzImage-$st-always" --name "$name" \
		--scenario smoke --timeout 1200 --append "preempt=full kunit.filter_glob=vfallback_* numa=fake=2 vfallback_window=4G slab_vfallback_order=-1" || rc=1
	grep -q 'Dynamic Preempt: full' "$VF_LOGS/$name.console.log" ||
		{ echo "FAIL: $name: the console does not say 'Dynamic Preempt: full'"; rc=1; }
	if grep -q 'slab_vfallback_order=-1 ignored' "$VF_LOGS/$name.console.log"; then
		echo "PASS: $name: slab_vfallback_order=-1 refused with a warning"
	else
		echo "FAIL: $name: slab_vfallback_order=-1 not refused on the console"
		rc=1
	fi
	kunit_verdict "$st" "$name" --allow-skip 'vfallback_slab/vfallback_test_slab_gfp_nofs_noio' \
		vfallback_atomic vfallback_slab || rc=1
	return $rc
}

# boot_bench STAGE VARIANT: a short vfbench run (no fragmenter, orders 1,
# 4 and 9, 50 cycles each, every method, no large-block workload) on a
# kernel the run built anyway; bench/check-boot.py checks that every cell
# was recorded and that vfallback took the path the variant promises
# (default, unfragmented: physical; always: virtual).
boot_bench() {
	local st=$1 var=$2 name=test-$1-$2-bench mods dest path=physical
	[ "$var" = always ] && path=virtual
	mods=$(vf_build_modules "$st" "$var") || return 1
	"$VF_TOP/qemu/run.sh" --kernel "$VF_BUILD/kernels/bzImage-$st-$var" --name "$name" \
		--scenario bench --timeout 900 --in "$mods/vfbench.ko" --in "$mods/vffrag.ko" \
		--append "vf.bench=quick vf.scenario_frag=none vf.orders=1,4,9 vf.iters=50 vf.lbs=0 vf.hold_mb=0 vf.perf=none kunit.enable=0" ||
		return 1
	dest=$VF_BUILD/runs/$name
	printf 'kernel=stage%s\nvariant=%s\nscenario=none\nbench=quick\nmethods=plain_noretry,plain,vfallback,vmalloc,kvmalloc\norders=1,4,9\nlbs=0\nname=%s\n' \
		"$st" "$var" "$name" >"$dest/meta"
	python3 "$VF_TOP/bench/check-boot.py" "$dest" --expect-path "$path"
}

echo "vfallback test run ($mode) on $(hostname), $(date -u +%FT%TZ)"
step "pristine tree" "$VF_TOP/configs/mktree.sh" plain
step "harness self-tests" bash "$VF_TOP/qemu/tests/test-harness.sh"
top=${STAGE:-$(vf_top_stage)}
echo "highest stage with patches: $top" | tee -a "$log"
step "patch checks" "$VF_TOP/configs/check-patches.sh"
[ -f "$VF_TOP/bench/tests/test_process.py" ] &&
	step "bench result processing (fixed input)" python3 "$VF_TOP/bench/tests/test_process.py"
[ -f "$VF_TOP/bench/tests/test_fastpath_report.py" ] &&
	step "fast-path report (fixed input)" python3 "$VF_TOP/bench/tests/test_fastpath_report.py"
[ -f "$VF_TOP/bench/tests/test_perf_report.py" ] &&
	step "perf report (fixed input)" python3 "$VF_TOP/bench/tests/test_perf_report.py"
[ -f "$VF_TOP/bench/tests/test_window_scaling_report.py" ] &&
	step "window-scaling report (fixed input)" python3 "$VF_TOP/bench/tests/test_window_scaling_report.py"
[ -f "$VF_TOP/bench/tests/test_lb_fallback_io_report.py" ] &&
	step "large-block fallback I/O report (fixed input)" python3 "$VF_TOP/bench/tests/test_lb_fallback_io_report.py"
[ -f "$VF_TOP/qemu/tests/test_fstests_report.py" ] &&
	step "fstests report (fixed input)" python3 "$VF_TOP/qemu/tests/test_fstests_report.py"
[ -f "$VF_TOP/qemu/tests/test_compare_kunit.py" ] &&
	step "kernel-suite comparison (fixed input)" python3 "$VF_TOP/qemu/tests/test_compare_kunit.py"
[ "$top" -ge 1 ] && step "stack applies" tree_applies "$top"
[ "$top" -ge 1 ] && step "Kconfig: aliasing data caches" kconfig_aliasing "$top"

if [ "$mode" = full ]; then
	step "build plain-default" build_kernel plain default &&
		step "boot plain-default (smoke)" boot_smoke plain-default
	if [ "$top" -ge 1 ]; then
		for v in ${VARIANTS:-default always}; do
			step "build $top-$v" build_kernel "$top" "$v" || continue
			step "boot $top-$v (KUnit + stage$top scenario)" boot_stage "$top" "$v"
			step "boot $top-$v (short vfbench run)" boot_bench "$top" "$v"
			[ "$top" -ge 3 ] && [ "$v" = default ] &&
				step "boot $top-$v (large-block races)" boot_lbrace "$top" "$v"
			[ "$top" -ge 3 ] && [ "$v" = default ] &&
				step "boot $top-$v (large-block stress, short)" boot_lbstress "$top" "$v"
			[ "$top" -ge 3 ] &&
				step "boot $top-$v (large-block faults and zeroing, forced failure)" boot_lbfault "$top-$v"
			[ "$top" -ge 3 ] && [ "$v" = default ] &&
				step "boot $top-$v (large-block reserve with ZONE_MOVABLE)" boot_lbfault_movable "$top-$v"
		done
		# Preemption opens races that the voluntary model hides: the top
		# always kernel once more with preempt=full, the atomic and slab
		# suites only (kunit.filter_glob; stage 2 and later).
		if [ "$top" -ge 2 ] && [ -f "$VF_BUILD/kernels/bzImage-$top-always" ]; then
			step "boot $top-always preempt=full (vfallback_atomic, vfallback_slab)" boot_preempt_full "$top"
		fi
	fi
elif [ "$mode" = stress ]; then
	# The full large-block stress (make test-stress): stage-3 default and
	# always kernels, 10 % and 30 % of the large-block folios failed,
	# stress-ng's file stressors included, 30 s per timed part.
	[ "$top" -ge 3 ] || die "test.sh stress: needs stage 3 (highest stage with patches: $top)"
	for v in default always; do
		step "build $top-$v" build_kernel "$top" "$v" || continue
		for pct in 10 30; do
			step "boot $top-$v (large-block stress, full, $pct %)" boot_lbstress "$top" "$v" full "$pct" 30
		done
	done
	{
		echo "# make test-stress, $(date -u +%F), TCG guest (2 GiB, 2 CPUs), 64 KiB-block XFS on a loop device"
		echo "# per boot: kernel, injection percent, then the scenario's PASS/FAIL lines and counters"
		for v in default always; do
			for pct in 10 30; do
				f=$VF_LOGS/test-$top-$v-lbstress-full-$pct.console.log
				echo "== $top-$v, fail_minorder_folio $pct %"
				[ -f "$f" ] && grep -E '^(PASS|FAIL|fio|crash|punch|stress-ng|scenario done)' "$f"
			done
		done
	} >"$VF_TOP/results/stress.txt"
	echo "summary: results/stress.txt" | tee -a "$log"
elif [ "$mode" = lbfault ]; then
	# Issue 17 side by side (make test-lbfault): plain 6.12 (recorded,
	# time limits end its livelocks) and the stage-3 kernels, 16, 32 and
	# 64 KiB blocks, every allocation of order >= 4 failing.
	[ "$top" -ge 3 ] || die "test.sh lbfault: needs stage 3 (highest stage with patches: $top)"
	step "build plain-default" build_kernel plain default &&
		step "boot plain-default (large-block faults, recorded)" boot_lbfault plain-default full 1 120
	for v in default always; do
		step "build $top-$v" build_kernel "$top" "$v" &&
			step "boot $top-$v (large-block faults and zeroing, full)" boot_lbfault "$top-$v" full
	done
	{
		echo "# make test-lbfault, $(date -u +%F), TCG guest (2 GiB, 2 CPUs), XFS on a loop device,"
		echo "# every allocation of order >= 4 failing (fail_page_alloc) from before the mount, lb_reserve=16M"
		for k in plain-default $top-default $top-always; do
			f=$VF_LOGS/test-$k-lbfault-full.console.log
			echo "== $k"
			[ -f "$f" ] && grep -E '^(PASS|FAIL|RECORDED|bs=|kernel:|reserve|lb_reserve|scenario done)' "$f"
		done
	} >"$VF_TOP/results/lbfault.txt"
	echo "summary: results/lbfault.txt" | tee -a "$log"
else
	if [ "$top" -ge 1 ]; then
		step "build $top-debug" build_kernel "$top" debug &&
			step "boot $top-debug (KUnit + stage$top scenario)" boot_stage "$top" debug
		[ "$top" -ge 3 ] && [ -f "$VF_BUILD/kernels/bzImage-$top-debug" ] &&
			step "boot $top-debug (large-block races)" boot_lbrace "$top" debug
		[ "$top" -ge 3 ] && [ -f "$VF_BUILD/kernels/bzImage-$top-debug" ] &&
			step "boot $top-debug (large-block stress, short)" boot_lbstress "$top" debug
		[ "$top" -ge 3 ] && [ -f "$VF_BUILD/kernels/bzImage-$top-debug" ] &&
			step "boot $top-debug (large-block faults and zeroing)" boot_lbfault "$top-debug"
	else
		step "build plain-debug" build_kernel plain debug &&
			step "boot plain-debug (smoke)" boot_smoke plain-debug
	fi
fi

secs=$(( $(date +%s) - t_start ))
echo "total time: ${secs}s; log: $log" | tee -a "$log"
echo "$pass passed, $fail failed, $skip skipped" | tee -a "$log"
[ "$fail" = 0 ]
