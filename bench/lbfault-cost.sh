#!/bin/bash
# Benchmark (make bench-lbfault-cost): what the large-block fault path
# and its reserve cost when memory is not fragmented (issue 17). Boots the
# top stage's default kernel REPEAT times (default 5) per setting of the
# reserve in SETTINGS (default "0 16M": lb_reserve=0, the reserve off and
# its free-path hook a static branch; lb_reserve=16M, set up at boot),
# the settings interleaved, each running qemu/scenarios/lbcost.sh (fio
# mmap random 16 KiB reads and writes on a fresh 64 KiB-block XFS,
# SECS=15 s each, caches dropped first). Writes results/lbfault-cost.csv
# (one row per boot and workload) and results/lbfault-cost.md (medians,
# min-max spread, ratio to the first setting). A failed boot is recorded
# and the run goes on; the script then exits 1.
# Environment: MEM (2G), CPUS (2), ACCEL (auto), RESULTS (results/).
set -euo pipefail
. "$(dirname "$0")/../configs/common.sh"
trap 'trap - INT TERM; echo "interrupted: stopping everything started here" >&2; kill -TERM 0; exit 130' INT TERM

mem=${MEM:-2G} cpus=${CPUS:-2} accel=${ACCEL:-auto}
results=${RESULTS:-$VF_TOP/results}
repeat=${REPEAT:-5} secs=${SECS:-15}
settings=${SETTINGS:-0 16M}
case "$repeat,$secs" in
*[!0-9,]* | 0,* | *,0) die "bench/lbfault-cost.sh: REPEAT='$repeat' SECS='$secs': whole numbers >= 1 (REPEAT=5 SECS=15)" ;;
esac
for st in $settings; do
	case "$st" in [0-9]* ) ;; *) die "bench/lbfault-cost.sh: SETTINGS: '$st' is not a size for lb_reserve= (0, 4M, 16M)" ;; esac
done
top=$(vf_top_stage)
[ "$top" -ge 3 ] || die "bench/lbfault-cost.sh: needs stage 3 (highest stage with patches: $top)"
k=$VF_BUILD/kernels/bzImage-$top-default
[ -f "$k" ] || die "no $k: build it with 'make kernel STAGE=$top VARIANT=default' (make bench-lbfault-cost does)"
root=$VF_BUILD/bench/lbcost-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$root"
csv=$root/lbfault-cost.csv
echo "boot,setting,rw,bw_kib,iops,nostall,majfault,accel" >"$csv"
failed=0
vf_timer_start
for i in $(seq "$repeat"); do
	for st in $settings; do
		name=lbcost-$st-$i
		say "round $i/$repeat: lb_reserve=$st"
		if "$VF_TOP/qemu/run.sh" --kernel "$k" --name "$name" --scenario lbcost --timeout 900 \
			--mem "$mem" --cpus "$cpus" --accel "$accel" \
			--append "lb_reserve=$st vf.cost_secs=$secs kunit.enable=0" >"$root/$name.log" 2>&1; then
			acc=$(cat "$VF_BUILD/runs/$name/accel")
			sed -n 's/^cost rw=\([a-z]*\) bw_kib=\([0-9]*\) iops=\([0-9]*\) nostall=\([0-9]*\) majfault=\([0-9]*\)$/\1,\2,\3,\4,\5/p' \
				"$VF_BUILD/runs/$name/out/lbcost.txt" | sed "s/^/$i,$st,/; s/\$/,$acc/" >>"$csv"
		else
			failed=$((failed + 1))
			echo "$i,$st,failed,,,,," >>"$csv"
			tail -5 "$root/$name.log" >&2
		fi
	done
done
vf_timer_end "lbfault-cost"
python3 - "$csv" "$settings" >"$root/lbfault-cost.md" <<'PY'
import csv, statistics, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["rw"] != "failed"]
settings = sys.argv[2].split()
acc = sorted({r["accel"] for r in rows})
print("# Large-block fault path: cost when memory is not fragmented\n")
print(f"fio ioengine=mmap, 16 KiB random I/O on a fresh 64 KiB-block XFS, caches dropped first; "
      f"stage-3 default kernel; accelerator: {', '.join(acc)}; median (min-max) over the boots; "
      f"ratio = median / median of lb_reserve={settings[0]}.\n")
print("| workload | " + " | ".join(f"lb_reserve={s} IOPS" for s in settings) + " | ratio |")
print("|---|" + "---|" * (len(settings) + 1))
for rw in ("randread", "randwrite"):
    cells, meds = [], []
    for s in settings:
        v = [int(r["iops"]) for r in rows if r["rw"] == rw and r["setting"] == s]
        if not v:
            cells.append("-"); meds.append(None); continue
        m = statistics.median(v); meds.append(m)
        cells.append(f"{m:.0f} ({min(v)}-{max(v)}, n={len(v)})")
    ratio = " / ".join(f"{m / meds[0]:.3f}" for m in meds[1:] if m and meds[0]) or "-"
    print(f"| {rw} | " + " | ".join(cells) + f" | {ratio} |")
PY
cp "$csv" "$root/lbfault-cost.md" "$results/"
cat "$results/lbfault-cost.md"
[ "$failed" = 0 ] || die "$failed boot(s) failed: see $root/*.log"
