#!/bin/bash
# Benchmark (make bench-lbfault-cost): what the large-block fault path
# and its reserve cost when memory is not fragmented (issue 17), measured
# within each boot: boots the top stage's default kernel REPEAT times
# (default 3), each running qemu/scenarios/lbcost.sh: ROUNDS rounds
# (default 8) that switch the mechanism off and on through debugfs
# lb_progress (off,on in odd rounds, on,off in even ones), each setting
# faulting a cold SIZE_MB (default 256) MiB file on a fresh 64 KiB-block
# XFS in once, block by block in random order, with fio ioengine=mmap
# (reads, then writes; IOPS = faults per second). Separate boots of one
# kernel differ by +-25% here, so the cost is the ratio on/off of the two
# runs of one round, one boot; the report gives its median and spread over
# all rounds. RESERVE sets lb_reserve= (default: the kernel's, 4 MiB per
# node, set up at mount). Writes results/lbfault-cost.csv (one row per
# run) and results/lbfault-cost.md. A failed boot is recorded and the run
# goes on; the script then exits 1.
# Environment: REPEAT, SIZE_MB, ROUNDS, RESERVE; MEM (2G), CPUS (2),
# ACCEL (auto), MAX_LOAD (half the host CPUs: each boot waits until the
# 1-minute load is below it), RESULTS (results/).
set -euo pipefail
. "$(dirname "$0")/../configs/common.sh"
vf_bench_env bench/lbfault-cost.sh
repeat=${REPEAT-3} size_mb=${SIZE_MB-256} rounds=${ROUNDS-8} reserve=${RESERVE:-}
vf_counts REPEAT="$repeat" SIZE_MB="$size_mb" ROUNDS="$rounds"
[ "$size_mb" -le 512 ] || die "bench/lbfault-cost.sh: SIZE_MB=$size_mb: at most 512 (the file and its loop image both live in a 2 GiB guest's memory)"
case "$reserve" in
'' | [0-9]*) ;;
*) die "bench/lbfault-cost.sh: RESERVE: '$reserve' is not a size for lb_reserve= (4M, 16M)" ;;
esac
top=$(vf_top_stage)
[ "$top" -ge 3 ] || die "bench/lbfault-cost.sh: needs stage 3 (highest stage with patches: $top)"
k=$VF_BUILD/kernels/bzImage-$top-default
[ -f "$k" ] || die "no $k: build it with 'make kernel STAGE=$top VARIANT=default' (make bench-lbfault-cost does)"
root=$VF_BUILD/bench/lbcost-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$root"
csv=$root/lbfault-cost.csv
echo "boot,round,progress,rw,bw_kib,iops,nostall,majfault,reserve_pages,accel" >"$csv"
append="vf.cost_mb=$size_mb vf.cost_rounds=$rounds kunit.enable=0"
[ -z "$reserve" ] || append="lb_reserve=$reserve $append"
failed=0
vf_timer_start
for i in $(seq "$repeat"); do
	name=lbcost-$i
	say "boot $i/$repeat: $rounds rounds of lb_progress off/on, $size_mb MiB faulted in per fio run"
	if vf_bench_boot "$root" "$name" "$k" lbcost $((600 + rounds * 4 * (size_mb / 8 + 20))) "$append"; then
		vf_kv_rows cost round,progress,rw,bw_kib,iops,nostall,majfault,reserve_pages \
			"$VF_BUILD/runs/$name/out/lbcost.txt" | sed "s/^/$i,/; s/\$/,$VF_ACCEL/" >>"$csv"
	else
		failed=$((failed + 1))
		echo "$i,,,failed,,,,,," >>"$csv"
	fi
done
vf_timer_end "lbfault-cost"
python3 - "$csv" "${reserve:-default (4M per node)}" "$size_mb" >"$root/lbfault-cost.md" <<'PY'
import csv, statistics, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["rw"] != "failed"]
acc = sorted({r["accel"] for r in rows})
res = sorted({int(r["reserve_pages"]) for r in rows if r["progress"] == "1"})
print("# Large-block fault path: cost when memory is not fragmented\n")
print(f"fio ioengine=mmap over a cold {sys.argv[3]} MiB file on a fresh 64 KiB-block XFS, 64 KiB blocks "
      f"in random order, each once (IOPS = faults/s), caches dropped first; "
      f"stage-3 default kernel, lb_reserve={sys.argv[2]} (reserve held when on: "
      f"{', '.join(f'{p * 4} KiB' for p in res) or '-'}); accelerator: {', '.join(acc)}. "
      f"Within each boot the mechanism is switched off and on through debugfs lb_progress, "
      f"alternating order per round; ratio = IOPS on / IOPS off of the two runs of one round; "
      f"median (min-max) over all rounds of all boots.\n")
print("| workload | off faults/s | on faults/s | on/off per round | rounds | median within 2% |")
print("|---|---|---|---|---|---|")
for rw in ("randread", "randwrite"):
    by = {}
    for r in rows:
        if r["rw"] == rw:
            by.setdefault((r["boot"], r["round"]), {})[r["progress"]] = int(r["iops"])
    pairs = [v["1"] / v["0"] for v in by.values() if "0" in v and "1" in v and v["0"]]
    off = [v["0"] for v in by.values() if "0" in v]
    on = [v["1"] for v in by.values() if "1" in v]
    if not pairs:
        print(f"| {rw} | - | - | - | 0 | - |")
        continue
    m = statistics.median(pairs)
    cell = lambda v: f"{statistics.median(v):.0f} ({min(v)}-{max(v)})"
    print(f"| {rw} | {cell(off)} | {cell(on)} | {m:.3f} ({min(pairs):.3f}-{max(pairs):.3f}) | "
          f"{len(pairs)} | {'yes' if m >= 0.98 else 'no'} |")
PY
cp "$csv" "$root/lbfault-cost.md" "$results/"
cat "$results/lbfault-cost.md"
[ "$failed" = 0 ] || die "$failed boot(s) failed: see $root/*.log"
