#!/bin/bash
# Benchmark (make bench-workloads): are the workloads slower on the stage
# kernel? Issue 19 goal 5. Boots the plain and the top stage's default
# kernels (same configuration otherwise) REPEAT times each (default 5),
# interleaved and alternating which goes first, unfragmented (scenario
# none), each running qemu/scenarios/bench.sh with its allocation cells cut
# to one token cell (vf.methods=plain vf.orders=1 vf.iters=10, no perf, no
# hold cells) so that the boot measures the workloads only:
#  - the dentry/buffer_head slab workload (4000 files on ext4, files/s;
#    SLUB's alloc_slowpath per 1000 allocations of dentry and buffer_head);
#  - the large-block workload (lbs.sh: XFS with 4, 16, 64 KiB blocks, fio
#    sequential and random buffered writes and reads in MB/s, files/s).
# With AA=1 (the default) each round also boots the plain kernel a second
# time ("plainaa"): plainaa/plain is the A/A floor, what two boots of the
# same kernel differ by in the same run; the three boots of a round rotate
# their order.
# Writes results/workloads.csv (one row per boot and metric) and
# results/workloads.md: per metric the median of each kernel, the ratio
# stage/plain of the medians and the min-max of the per-pair ratios
# (boot i of each kernel), the A/A ratio and spread beside them, and
# whether the ratio is >= 0.98 (slow-path share: <= plain's). A failed
# boot is recorded and the run goes on; the script then exits 1.
# Environment: REPEAT (5), AA (1; 0: no A/A boots); MEM (2G), CPUS (2),
# ACCEL (auto), MAX_LOAD, RESULTS.
set -euo pipefail
. "$(dirname "$0")/../configs/common.sh"
vf_bench_env bench/workloads.sh
repeat=${REPEAT-5} aa=${AA-1}
vf_counts REPEAT="$repeat"
case "$aa" in 0 | 1) ;; *) die "bench/workloads.sh: AA='$aa': 1 (A/A boots of plain, the default) or 0" ;; esac
top=$(vf_top_stage)
[ "$top" -ge 1 ] || die "bench/workloads.sh: needs a stage kernel (no stage has patches)"
declare -A mods
for s in plain "$top"; do
	[ -f "$VF_BUILD/kernels/bzImage-$s-default" ] ||
		die "no $VF_BUILD/kernels/bzImage-$s-default: build it with 'make kernel STAGE=$s VARIANT=default' (make bench-workloads does)"
	say "building vfbench.ko and vffrag.ko against the $s default kernel"
	mods[$s]=$(vf_build_modules "$s" default)
done
root=$VF_BUILD/bench/workloads-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$root"
failed=0
vf_timer_start
for i in $(seq "$repeat"); do
	kernels=(plain "$top")
	[ "$aa" = 1 ] && kernels+=(plainaa)
	for s in $(vf_boot_order "$i" "${kernels[@]}"); do
		name=workloads-$s-$i k=${s%aa}
		say "boot $i/$repeat: $s default kernel, workloads unfragmented"
		if vf_bench_boot "$root" "$name" "$VF_BUILD/kernels/bzImage-$k-default" bench 2400 \
			"vf.bench=quick vf.scenario_frag=none vf.methods=plain vf.orders=1 vf.iters=10 vf.perf=none vf.hold_mb=0 vf.seed=$i kunit.enable=0" \
			--in "${mods[$k]}/vfbench.ko" --in "${mods[$k]}/vffrag.ko"; then
			mkdir -p "$root/$name"
			cp -r "$VF_BUILD/runs/$name/out/." "$root/$name/"
			echo "$VF_ACCEL" >"$root/$name/accel"
		else
			failed=$((failed + 1))
		fi
	done
done
vf_timer_end "workloads"
python3 - "$root" "$top" "$repeat" <<'PY'
import csv, glob, json, os, statistics, sys
root, top, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3])


def kv(line):
    return dict(f.split("=", 1) for f in line.split() if "=" in f)


def fio_mbs(path):
    try:
        text = open(path).read()
        doc = json.loads(text[text.find("{"):])
        job = doc["jobs"][0]
    except (OSError, ValueError, KeyError, IndexError):
        return None
    if int(job.get("error", 0)):
        return None
    return sum(int(job.get(d, {}).get("bw_bytes", 0)) for d in ("read", "write")) / 1e6


rows = []  # boot, kernel, metric, value, accel
for d in sorted(glob.glob(os.path.join(root, "workloads-*-*"))):
    if not os.path.isdir(d):
        continue
    _, kernel, boot = os.path.basename(d).rsplit("-", 2)
    acc = open(os.path.join(d, "accel")).read().strip()
    sp = os.path.join(d, "slab-raw.txt")
    if os.path.exists(sp):
        for line in open(sp):
            r = kv(line)
            c = r.get("cache")
            if c == "dentry":
                try:
                    rows.append((boot, kernel, "slab workload files/s", float(r["files_per_s"]), acc))
                except (KeyError, ValueError):
                    pass
            try:
                fast, slow = int(r["alloc_fastpath"]), int(r["alloc_slowpath"])
                if fast + slow:
                    rows.append((boot, kernel, f"{c} alloc_slowpath per 1000", 1000 * slow / (fast + slow), acc))
            except (KeyError, ValueError):
                pass
    lp = os.path.join(d, "lbs-raw.txt")
    if os.path.exists(lp):
        for line in open(lp):
            r = kv(line)
            w, bs = r.get("workload"), r.get("fsblock")
            if not w or not bs or w.startswith("bufcost") or r.get("rc") not in ("0",):
                continue
            label = f"lbs {int(bs) // 1024}K {w}"
            if "json" in r:
                v = fio_mbs(os.path.join(d, r["json"]))
                if v is not None:
                    rows.append((boot, kernel, label + " MB/s", v, acc))
            elif "usec" in r and int(r["usec"]):
                rows.append((boot, kernel, label + " files/s", int(r["files"]) * 1e6 / int(r["usec"]), acc))
with open(os.path.join(root, "workloads.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["boot", "kernel", "metric", "value", "accel"])
    for r in rows:
        w.writerow([r[0], r[1], r[2], f"{r[3]:.2f}", r[4]])
metrics = []
for r in rows:
    if r[2] not in metrics:
        metrics.append(r[2])
accs = sorted({r[4] for r in rows})
out = open(os.path.join(root, "workloads.md"), "w")
p = lambda *a: print(*a, file=out)
p("# Workloads: plain vs stage kernel, unfragmented\n")
p(f"Plain and stage-{top} default kernels (same configuration otherwise), {repeat} boots each, "
  f"interleaved, alternating which boots first; scenario none; qemu/scenarios/bench.sh with its "
  f"allocation cells cut to one token cell; accelerator: {', '.join(accs)}. Median over the boots "
  f"(min-max); ratio = stage median / plain median; pair spread = min-max of stage/plain for boot i "
  f"of each; A/A = a second boot of plain in the same round (plainaa) / plain: the floor of the "
  f"method (medians of the per-round ratios, min-max). Goal (issue 19 goal 5): ratio >= 0.98, "
  f"slow-path share <= plain's.\n")
p(f"| metric | plain | stage-{top} | ratio | pair spread | A/A | goal |")
p("|---|---|---|---|---|---|---|")
for m in metrics:
    v = {k: {r[0]: r[3] for r in rows if r[2] == m and r[1] == k} for k in ("plain", top, "plainaa")}
    aa = [v["plainaa"][b] / v["plain"][b] for b in v["plainaa"] if v["plain"].get(b)]
    aa_txt = f"{statistics.median(aa):.3f} ({min(aa):.3f}-{max(aa):.3f})" if aa else "-"
    if not v["plain"] or not v[top]:
        p(f"| {m} | - | - | - | - | {aa_txt} | - |")
        continue
    cell = lambda x: f"{statistics.median(x):.1f} ({min(x):.1f}-{max(x):.1f})"
    mp, ms = statistics.median(v["plain"].values()), statistics.median(v[top].values())
    ratio = ms / mp if mp else float("nan")
    pairs = [v[top][b] / v["plain"][b] for b in v[top] if b in v["plain"] and v["plain"][b]]
    spread = f"{min(pairs):.3f}-{max(pairs):.3f}" if pairs else "-"
    slow = "slowpath" in m
    ok = (ms <= mp) if slow else (ratio >= 0.98)
    p(f"| {m} | {cell(list(v['plain'].values()))} | {cell(list(v[top].values()))} | {ratio:.3f} | "
      f"{spread} | {aa_txt} | {'PASS' if ok else 'FAIL'} |")
out.close()
PY
cp "$root/workloads.csv" "$root/workloads.md" "$results/"
cat "$results/workloads.md"
[ "$failed" = 0 ] || die "$failed boot(s) failed: see $root/*.log"
