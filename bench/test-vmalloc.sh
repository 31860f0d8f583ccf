#!/bin/bash
# Benchmark (make bench-test-vmalloc): is vmalloc itself slower on the
# stage kernel? The kernel's own lib/test_vmalloc.c (CONFIG_TEST_VMALLOC=m
# in base.config, built with every kernel) on the plain and the top
# stage's default kernel (same configuration otherwise), REPEAT boots each
# (default 3), interleaved; each boot loads the module RUNS times (default
# 3) with its standard test mask, one worker per CPU and LOOPS loops per
# test (default 20000), through qemu/scenarios/vmtest.sh. Writes
# results/test-vmalloc.csv (one row per boot, run, worker and test) and
# results/test-vmalloc.md: per test, the median time of each kernel, the
# ratio stage/plain of the medians, the spread of that ratio over the
# boot pairs, and whether it is <= 1.02 (issue 19 goal 4). A failed boot
# is recorded and the run goes on; the script then exits 1.
# Environment: MEM (2G), CPUS (2), ACCEL (auto), MAX_LOAD, RESULTS.
set -euo pipefail
. "$(dirname "$0")/../configs/common.sh"
trap 'trap - INT TERM; echo "interrupted: stopping everything started here" >&2; kill -TERM 0; exit 130' INT TERM

mem=${MEM:-2G} cpus=${CPUS:-2} accel=${ACCEL:-auto}
results=${RESULTS:-$VF_TOP/results}
repeat=${REPEAT:-3} runs=${RUNS:-3} loops=${LOOPS:-20000}
max_load=${MAX_LOAD:-$(awk -v n="$(nproc)" 'BEGIN { printf "%.2f", n * 0.5 }')}
case "$repeat,$runs,$loops" in
*[!0-9,]* | 0,* | *,0,* | *,0 | ,* | *,,* | *,)
	die "bench/test-vmalloc.sh: REPEAT='$repeat' RUNS='$runs' LOOPS='$loops': whole numbers >= 1 (REPEAT=3 RUNS=3 LOOPS=20000)" ;;
esac
case "$max_load" in '' | *[!0-9.]*) die "bench/test-vmalloc.sh: MAX_LOAD='$max_load' is not a number (e.g. MAX_LOAD=1.0)" ;; esac
top=$(vf_top_stage)
[ "$top" -ge 1 ] || die "bench/test-vmalloc.sh: needs a stage kernel (no stage has patches)"
kinds=(plain "$top")
for s in "${kinds[@]}"; do
	for f in "$VF_BUILD/kernels/bzImage-$s-default" "$VF_BUILD/kernels/test_vmalloc-$s-default.ko"; do
		[ -f "$f" ] || die "no $f: build it with 'make kernel STAGE=$s VARIANT=default' (make bench-test-vmalloc does; base.config has CONFIG_TEST_VMALLOC=m)"
	done
done
root=$VF_BUILD/bench/test-vmalloc-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$root"
csv=$root/test-vmalloc.csv
echo "boot,kernel,run,worker,test,usec,failed,accel" >"$csv"
failed=0
vf_timer_start
for i in $(seq "$repeat"); do
	# Alternate which kernel goes first, so that drift cancels.
	if [ $((i % 2)) = 1 ]; then order=("${kinds[@]}"); else order=("${kinds[1]}" "${kinds[0]}"); fi
	for s in "${order[@]}"; do
		name=vmtest-$s-$i
		wait_for_load "$max_load"
		say "boot $i/$repeat: $s default kernel, $runs runs of test_vmalloc with $loops loops"
		if "$VF_TOP/qemu/run.sh" --kernel "$VF_BUILD/kernels/bzImage-$s-default" --name "$name" \
			--scenario vmtest --timeout 3600 --mem "$mem" --cpus "$cpus" --accel "$accel" \
			--in "$VF_BUILD/kernels/test_vmalloc-$s-default.ko" \
			--append "vf.vm_runs=$runs vf.vm_loops=$loops kunit.enable=0" >"$root/$name.log" 2>&1; then
			acc=$(cat "$VF_BUILD/runs/$name/accel")
			sed -n 's/^vmtest run=\([0-9]*\) worker=\([0-9]*\) test=\([a-z0-9_]*\) usec=\([0-9]*\) failed=\([0-9]*\)$/\1,\2,\3,\4,\5/p' \
				"$VF_BUILD/runs/$name/out/vmtest.txt" | sed "s/^/$i,$s,/; s/\$/,$acc/" >>"$csv"
		else
			failed=$((failed + 1))
			echo "$i,$s,,,failed,,,," >>"$csv"
			tail -5 "$root/$name.log" >&2
		fi
	done
done
vf_timer_end "test-vmalloc"
python3 - "$csv" "$top" "$loops" "$runs" >"$root/test-vmalloc.md" <<'PY'
import csv, statistics, sys
path, top, loops, runs = sys.argv[1:]
rows = [r for r in csv.DictReader(open(path)) if r["test"] != "failed"]
acc = sorted({r["accel"] for r in rows})
tests = []
for r in rows:
    if r["test"] not in tests:
        tests.append(r["test"])
boots = sorted({r["boot"] for r in rows}, key=int)
print("# vmalloc itself: lib/test_vmalloc.c, plain vs stage kernel\n")
print(f"Kernel's own test_vmalloc module (standard test mask, one worker per CPU, "
      f"{loops} loops per test, {runs} loads per boot); plain and stage-{top} default kernels, "
      f"same configuration otherwise, boots interleaved; accelerator: {', '.join(acc)}. "
      f"Time = the module's avg usec per worker and test; median over boots, loads and workers; "
      f"ratio = stage median / plain median; spread = min-max of the per-boot ratio of medians. "
      f"Goal: <= 1.02.\n")
print(f"| test | plain usec | stage-{top} usec | ratio | spread | <= 1.02 |")
print("|---|---|---|---|---|---|")
npass = nall = 0
for t in tests:
    v = {k: [int(r["usec"]) for r in rows if r["test"] == t and r["kernel"] == k] for k in ("plain", top)}
    if not v["plain"] or not v[top]:
        print(f"| {t} | - | - | - | - | - |")
        continue
    mp, ms = statistics.median(v["plain"]), statistics.median(v[top])
    ratio = ms / mp if mp else float("nan")
    per = []
    for b in boots:
        p = [int(r["usec"]) for r in rows if r["test"] == t and r["kernel"] == "plain" and r["boot"] == b]
        s = [int(r["usec"]) for r in rows if r["test"] == t and r["kernel"] == top and r["boot"] == b]
        if p and s and statistics.median(p):
            per.append(statistics.median(s) / statistics.median(p))
    ok = ratio <= 1.02
    npass += ok
    nall += 1
    spread = f"{min(per):.3f}-{max(per):.3f}" if per else "-"
    print(f"| {t} | {mp:.0f} | {ms:.0f} | {ratio:.3f} | {spread} | {'PASS' if ok else 'FAIL'} |")
print(f"\n{npass} of {nall} tests within 1.02x.")
PY
cp "$csv" "$root/test-vmalloc.md" "$results/"
cat "$results/test-vmalloc.md"
[ "$failed" = 0 ] || die "$failed boot(s) failed: see $root/*.log"
