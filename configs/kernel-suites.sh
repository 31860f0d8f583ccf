#!/bin/bash
# kernel-suites.sh: the kernel's own KUnit suites for the areas the series
# touches (slub_kunit, kfence, usercopy and KASAN's), on the pristine tree
# and on the highest stage in mode always (vfallback=always), both with the
# debug variant's configuration (KASAN, KFENCE, lockdep, DEBUG_VM). Every
# case must end on the stage kernel exactly as on the pristine one.
# Writes results/kernel-suites.txt (make test-kernel-suites).
#
# These suites provoke KASAN, KFENCE and SLUB reports on purpose, so the
# console's splat check is off for these two boots: the verdict is the
# case-by-case comparison (qemu/compare-kunit.py).
set -euo pipefail
. "$(dirname "$0")/common.sh"
trap 'trap - INT TERM; echo "interrupted: stopping everything started here" >&2; kill -TERM 0; exit 130' INT TERM

# Two boots per kernel. KASAN's suite runs with KFENCE off
# (kfence.sample_interval=0): KFENCE samples allocations every 100 ms, and
# a kmalloc() of the KASAN suite that lands in a KFENCE slot reports
# through KFENCE instead, so KASAN's expected report never comes (seen:
# kasan/kmalloc_uaf "KASAN failure expected ... but none occurred" after
# "BUG: KFENCE: use-after-free read in kmalloc_uaf", on the stage kernel
# only, 2026-12-06). The other three suites run with KFENCE on (its own
# suite needs it). One glob each for kunit.filter_glob: kfence, slub_test
# and usercopy are the variant's suites whose names start with k, s or u
# followed by f, l or s (a foreign one would show up in the table and not
# be compared).
suites=(slub_test kfence usercopy)
glob='[ksu][fls]*'
top=$(vf_top_stage)
[ "$top" -ge 1 ] || die "kernel-suites.sh: no stage has patches; nothing to compare"
out=$VF_TOP/results/kernel-suites.txt

"$VF_TOP/configs/mkkernel.sh" plain debug
"$VF_TOP/configs/mkkernel.sh" "$top" debug

boot() { # boot NAME KERNEL APPEND GLOB
	"$VF_TOP/qemu/run.sh" --kernel "$VF_BUILD/kernels/bzImage-$2" --name "$1" --scenario suites \
		--timeout 5400 --no-splat-check --append "$3 kunit.filter_glob=$4 numa=fake=2"
	python3 "$(vf_tree "${2%%-*}")/tools/testing/kunit/kunit.py" parse \
		--json="$VF_BUILD/runs/$1/kunit.json" "$VF_LOGS/$1.console.log" \
		>"$VF_BUILD/runs/$1/kunit.txt" 2>&1 || true
	[ -s "$VF_BUILD/runs/$1/kunit.json" ] ||
		die "no KUnit results from boot $1 (see $VF_LOGS/$1.console.log)"
}

boot suites-plain-debug plain-debug "" "$glob"
boot "suites-$top-debug-always" "$top-debug" "vfallback=always" "$glob"
boot suites-plain-debug-kasan plain-debug "kfence.sample_interval=0" 'kasan*'
boot "suites-$top-debug-always-kasan" "$top-debug" "vfallback=always kfence.sample_interval=0" 'kasan*'

accel=$(cat "$VF_BUILD/runs/suites-plain-debug/accel")
{
	echo "# The kernel's own KUnit suites: pristine vs stage $top in mode always"
	echo "# $(date -u +%F), linux $(cat "$VF_SRC/pristine/.vf-version"), debug variant"
	echo "# (KASAN generic + vmalloc, KFENCE, lockdep, DEBUG_VM, SLUB_DEBUG_ON, HARDENED_USERCOPY),"
	echo "# QEMU $accel, 2 CPUs, 2G, numa=fake=2; boot 1 kunit.filter_glob=$glob, boot 2"
	echo "# kunit.filter_glob=kasan* with kfence.sample_interval=0; stage kernel booted"
	echo "# with vfallback=always (every __GFP_VFALLBACK allocation virtual)."
	echo "# Counts are pass/fail/skip; a case may differ in no way."
} >"$out"
rc=0
python3 "$VF_TOP/qemu/compare-kunit.py" \
	"$VF_BUILD/runs/suites-plain-debug/kunit.json" pristine \
	"$VF_BUILD/runs/suites-$top-debug-always/kunit.json" "stage$top-always" \
	"$out" "${suites[@]}" || rc=1
python3 "$VF_TOP/qemu/compare-kunit.py" \
	"$VF_BUILD/runs/suites-plain-debug-kasan/kunit.json" pristine \
	"$VF_BUILD/runs/suites-$top-debug-always-kasan/kunit.json" "stage$top-always" \
	"$out" kasan || rc=1
echo "written: results/kernel-suites.txt"
exit $rc
