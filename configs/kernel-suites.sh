#!/bin/bash
# kernel-suites.sh: the kernel's own KUnit suites for the areas the series
# touches (slub_kunit, kfence, usercopy and KASAN's), on the pristine tree
# and on the highest stage in mode always (vfallback=always), both with the
# debug variant's configuration (KASAN, KFENCE, lockdep, DEBUG_VM). Every
# case must end on the stage kernel as on the pristine one: the same
# status with one boot per kernel, a status in common over KFENCE's
# KF_BOOTS boots (below). Writes results/kernel-suites.txt (make
# test-kernel-suites).
#
# These suites provoke KASAN, KFENCE and SLUB reports on purpose, so the
# console's splat check is off for these boots: the verdict is the
# case-by-case comparison (qemu/compare-kunit.py).
set -euo pipefail
. "$(dirname "$0")/common.sh"
trap 'trap - INT TERM; echo "interrupted: stopping everything started here" >&2; kill -TERM 0; exit 130' INT TERM

# Three kinds of boot per kernel. KASAN's suite runs with KFENCE off
# (kfence.sample_interval=0): KFENCE samples allocations every 100 ms, and
# a kmalloc() of the KASAN suite that lands in a KFENCE slot reports
# through KFENCE instead, so KASAN's expected report never comes (seen:
# kasan/kmalloc_uaf "KASAN failure expected ... but none occurred" after
# "BUG: KFENCE: use-after-free read in kmalloc_uaf", on the stage kernel
# only, 2026-12-06). KFENCE's own suite waits for sampled allocations and
# some of its cases depend on timing under TCG (seen 2026-12-06: one case
# failing per boot, a different one on each kernel), so it has KF_BOOTS
# boots per kernel (default 3) and a case differs only if its statuses on
# the stage kernel share none with those on the pristine one
# (qemu/compare-kunit.py). slub_test and usercopy share one boot
# (kunit.filter_glob '[su][ls]*': a foreign suite matching it would show
# up in the table and not be compared).
suites=(slub_test usercopy)
glob='[su][ls]*'
kf_boots=${KF_BOOTS-3}
case "$kf_boots" in
'' | *[!0-9]* | 0 | 0*) die "kernel-suites.sh: KF_BOOTS='$kf_boots': a whole number >= 1" ;;
esac
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
kf_plain='' kf_stage=''
for i in $(seq "$kf_boots"); do
	boot "suites-plain-debug-kfence$i" plain-debug "" kfence
	boot "suites-$top-debug-always-kfence$i" "$top-debug" "vfallback=always" kfence
	kf_plain+=${kf_plain:+,}$VF_BUILD/runs/suites-plain-debug-kfence$i/kunit.json
	kf_stage+=${kf_stage:+,}$VF_BUILD/runs/suites-$top-debug-always-kfence$i/kunit.json
done
boot suites-plain-debug-kasan plain-debug "kfence.sample_interval=0" 'kasan*'
boot "suites-$top-debug-always-kasan" "$top-debug" "vfallback=always kfence.sample_interval=0" 'kasan*'

accel=$(cat "$VF_BUILD/runs/suites-plain-debug/accel")
{
	echo "# The kernel's own KUnit suites: pristine vs stage $top in mode always"
	echo "# $(date -u +%F), linux $(cat "$VF_SRC/pristine/.vf-version"), debug variant"
	echo "# (KASAN generic + vmalloc, KFENCE, lockdep, DEBUG_VM, SLUB_DEBUG_ON, HARDENED_USERCOPY),"
	echo "# QEMU $accel, 2 CPUs, 2G, numa=fake=2; per kernel one boot kunit.filter_glob=$glob,"
	echo "# $kf_boots boots kunit.filter_glob=kfence, one boot kunit.filter_glob=kasan* with"
	echo "# kfence.sample_interval=0; stage kernel booted with vfallback=always (every"
	echo "# __GFP_VFALLBACK allocation virtual). Counts are pass/fail/skip (first boot);"
	echo "# a case differs when its statuses on the stage kernel's boots share none with"
	echo "# those on the pristine kernel's."
} >"$out"
rc=0
python3 "$VF_TOP/qemu/compare-kunit.py" \
	"$VF_BUILD/runs/suites-plain-debug/kunit.json" pristine \
	"$VF_BUILD/runs/suites-$top-debug-always/kunit.json" "stage$top-always" \
	"$out" "${suites[@]}" || rc=1
python3 "$VF_TOP/qemu/compare-kunit.py" "$kf_plain" pristine "$kf_stage" "stage$top-always" \
	"$out" kfence || rc=1
python3 "$VF_TOP/qemu/compare-kunit.py" \
	"$VF_BUILD/runs/suites-plain-debug-kasan/kunit.json" pristine \
	"$VF_BUILD/runs/suites-$top-debug-always-kasan/kunit.json" "stage$top-always" \
	"$out" kasan || rc=1
echo "written: results/kernel-suites.txt"
exit $rc
