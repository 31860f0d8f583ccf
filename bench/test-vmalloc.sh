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
# Environment: REPEAT, RUNS, LOOPS; MEM (2G), CPUS (2), ACCEL (auto),
# MAX_LOAD (half the host CPUs: the 1-minute load a boot waits for), RESULTS.
set -euo pipefail
. "$(dirname "$0")/../configs/common.sh"
vf_bench_env bench/test-vmalloc.sh
repeat=${REPEAT-3} runs=${RUNS-3} loops=${LOOPS-20000}
vf_counts REPEAT="$repeat" RUNS="$runs" LOOPS="$loops"
top=$(vf_top_stage)
[ "$top" -ge 1 ] || die "bench/test-vmalloc.sh: needs a stage kernel (no stage has patches)"
for s in plain "$top"; do
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
	for s in $(vf_boot_order "$i" plain "$top"); do
		name=vmtest-$s-$i
		say "boot $i/$repeat: $s default kernel, $runs runs of test_vmalloc with $loops loops"
		if vf_bench_boot "$root" "$name" "$VF_BUILD/kernels/bzImage-$s-default" vmtest 3600 \
			"vf.vm_runs=$runs vf.vm_loops=$loops kunit.enable=0" \
			--in "$VF_BUILD/kernels/test_vmalloc-$s-default.ko"; then
			vf_kv_rows vmtest run,worker,test,usec,failed "$VF_BUILD/runs/$name/out/vmtest.txt" |
				sed "s/^/$i,$s,/; s/\$/,$VF_ACCEL/" >>"$csv"
		else
			failed=$((failed + 1))
			echo "$i,$s,,,failed,,,," >>"$csv"
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
    spread = f"{min(per):.3f}-{max(per):.3f}" if per else "-"
    if t == "align_shift_alloc_test":
        # It fails by design; its time is that of the failure and its
        # warning on the console.
        print(f"| {t} | {mp:.0f} | {ms:.0f} | {ratio:.3f} | {spread} | not judged: fails by design |")
        continue
    if any(r["failed"] != "0" for r in rows if r["test"] == t):
        nall += 1
        print(f"| {t} | {mp:.0f} | {ms:.0f} | {ratio:.3f} | {spread} | FAIL: the test failed |")
        continue
    ok = ratio <= 1.02
    npass += ok
    nall += 1
    print(f"| {t} | {mp:.0f} | {ms:.0f} | {ratio:.3f} | {spread} | {'PASS' if ok else 'FAIL'} |")
print(f"\n{npass} of {nall} tests within 1.02x.")
PY
cp "$csv" "$root/test-vmalloc.md" "$results/"
cat "$results/test-vmalloc.md"
[ "$failed" = 0 ] || die "$failed boot(s) failed: see $root/*.log"
