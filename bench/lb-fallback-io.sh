#!/bin/bash
# Benchmark (make bench-lb-fallback-io): throughput of the large-block
# fallback against the page cache, issue 16 item 7. Before stage-3 patch
# 18 the fallback moved one 64 KiB block per synchronous direct I/O; since,
# contiguous blocks without a folio move in one (up to 8 blocks, 512 KiB).
#
# Boots each kernel of KERNELS (LABEL=BZIMAGE, space-separated; default
# "stage=build/kernels/bzImage-TOP-default") REPEAT times (default 3), the
# kernels rotated from round to round (vf_boot_order). In each boot the
# guest scenario lbio writes (conv=fsync) and reads (cold) a file of MB
# MiB (64) in 1 MiB calls on a 64 KiB-block XFS, REPS times (3), once
# through the page cache and once with every folio of the task failing
# (the fallback), the two alternating in order. To compare with a kernel
# before a change, add it: KERNELS="before=/path/bzImage
# stage=build/kernels/bzImage-3-default".
# Writes results/lb-fallback-io.csv (one row per timed part) and
# results/lb-fallback-io.md (median MB/s per kernel, path and operation;
# fallback over cache in the same boot and rep; each kernel's fallback
# over the first kernel's).
# Environment: KERNELS, REPEAT, MB, REPS; MEM (2G), CPUS (2), ACCEL (auto),
# RESULTS (results/).
set -euo pipefail
. "$(dirname "$0")/../configs/common.sh"
vf_bench_env bench/lb-fallback-io.sh
repeat=${REPEAT-3} mb=${MB-64} reps=${REPS-3}
vf_counts REPEAT="$repeat" MB="$mb" REPS="$reps"
[ "$mb" -le 256 ] || die "$VF_BENCH: MB=$mb: at most 256 (the file and its source live in the guest's memory)"
top=$(vf_top_stage)
[ "$top" -ge 3 ] || die "$VF_BENCH: needs the stage-3 stack (the large-block fallback)"
kernels=${KERNELS:-stage=$VF_BUILD/kernels/bzImage-$top-default}
vf_bench_kernels "$kernels" "build the stage-3 kernel: make kernel STAGE=$top VARIANT=default"
root=$VF_BUILD/bench/lbio-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$root"
vf_timer_start
failed=0
for r in $(seq "$repeat"); do
	for l in $(vf_boot_order "$r" "${labels[@]}"); do
		name=lbio-$l-$r
		say "[$r/$repeat] $l ($(basename "${kpath[$l]}")): $mb MiB x $reps, cache and fallback"
		if vf_bench_boot "$root" "$name" "${kpath[$l]}" lbio 1800 \
			"kunit.enable=0 vf.mb=$mb vf.reps=$reps"; then
			mkdir -p "$root/$name"
			cp "$VF_BUILD/runs/$name/out/lbio.txt" "$root/$name/"
			echo "$VF_ACCEL" >"$root/$name/accel"
			echo "$l" >"$root/$name/label"
		else
			failed=$((failed + 1))
		fi
	done
done
vf_timer_end "lb-fallback-io"
mkdir -p "$results"
python3 "$VF_TOP/bench/lb-fallback-io-report.py" "$root" "$results" "$mem" "$cpus" "${labels[@]}"
say "results: $results/lb-fallback-io.md, $results/lb-fallback-io.csv (raw: $root)"
[ "$failed" = 0 ] || die "$VF_BENCH: $failed boot(s) failed (logs in $root); the tables hold the others"
