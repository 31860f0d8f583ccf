#!/bin/bash
# The benchmark matrix (make bench): bench/run.sh quick|full
#
# For each kernel of the matrix (plain-default always; the highest stage
# kernel that exists in build/kernels/, in its default and always
# variants), build bench/vfbench.ko and bench/vffrag.ko against that
# kernel's O= dir, boot it once per scenario (none, aged, strict; optionally movable, unmovable)
# with qemu/scenarios/bench.sh, keep the guest outputs, then write
# results/: raw/ (the guest outputs that matter), meta.json, alloc.csv,
# slab.csv (the dentry/buffer_head slab workload), README.md and plots
# (bench/process.py).
#
# Every run writes into build/results/RUN_ID/. A complete full run (every
# boot passed) is then published: copied into results/ (raw/ replaced).
# A quick run, or one with a failed boot, is never published, so that it
# cannot replace the committed full run; PUBLISH=1 forces it, PUBLISH=0
# never publishes.
# Before each boot the host's 1-minute load average must be below
# MAX_LOAD (default 0.5 per host CPU): a benchmark beside a kernel build
# measures the build. The load is recorded in each boot's meta and in
# meta.json. Each boot gets a random seed (recorded) that orders the
# methods of every order in the guest (vf.seed; SEED=N fixes it).
#
# REPEAT rounds (quick 1, full 5), interleaved: each round boots every
# kernel in every scenario once; process.py gives medians and spreads.
#
# Environment: MEM (2G), CPUS (2), ACCEL (auto), SCENARIOS ("none aged
# strict"; also movable and unmovable), BENCH_TIMEOUT (per boot, seconds), MAX_LOAD, SEED,
# PUBLISH, REPEAT.
set -euo pipefail
. "$(dirname "$0")/../configs/common.sh"
# vf_bench_env: MEM, CPUS, ACCEL, MAX_LOAD; on INT/TERM it stops every
# process of this group (the scripts it runs stop
# their own process groups, QEMU and make, through their traps).
vf_bench_env bench/run.sh

bench=${1:-quick}
case "$bench" in
quick) timeout=${BENCH_TIMEOUT:-1200} orders=1,3,5,7,9,10 ;;
full) timeout=${BENCH_TIMEOUT:-5400} orders=1,2,3,4,5,6,7,8,9,10 ;;
*) die "bench/run.sh: unknown BENCH '$bench': use quick or full" ;;
esac
case "${SEED:-0}" in *[!0-9]*) die "bench/run.sh: SEED='$SEED' is not a number" ;; esac
publish=${PUBLISH:-auto}
case "$publish" in auto | 0 | 1) ;; *) die "bench/run.sh: PUBLISH='$publish': use 1, 0 or leave it unset" ;; esac
case "$bench" in quick) repeat=${REPEAT:-1} ;; full) repeat=${REPEAT:-5} ;; esac
case "$repeat" in '' | 0 | *[!0-9]*) die "bench/run.sh: REPEAT='$repeat': a number of rounds >= 1 (REPEAT=5)" ;; esac
scenarios=${SCENARIOS:-none aged strict}
for s in $scenarios; do
	case "$s" in none | aged | strict | movable | unmovable) ;; *) die "unknown scenario '$s' in SCENARIOS (none, aged, strict, movable, unmovable)" ;; esac
done
command -v python3 >/dev/null || die "python3 missing: run 'make deps'"

# The matrix: "stage variant" pairs whose kernel exists.
matrix=("plain default")
[ -f "$VF_BUILD/kernels/bzImage-plain-default" ] ||
	die "no plain kernel: build it with 'make kernel STAGE=plain VARIANT=default'"
top=0
for n in 3 2 1; do
	if ls "$VF_BUILD/kernels/bzImage-$n-"* >/dev/null 2>&1; then top=$n; break; fi
done
want=$(vf_top_stage)
if [ "$top" = 0 ]; then
	echo "    note: no stage kernel in $VF_BUILD/kernels (the stacks go up to stage $want):" \
		"the matrix is the plain kernel only; missing: bzImage-$want-default, bzImage-$want-always"
else
	[ "$top" -lt "$want" ] && echo "    note: stage $want has patches but only stage $top kernels are built"
	for v in default always; do
		if [ -f "$VF_BUILD/kernels/bzImage-$top-$v" ]; then
			matrix+=("$top $v")
		else
			echo "    note: missing $VF_BUILD/kernels/bzImage-$top-$v: the $v variant is not measured"
		fi
	done
fi

run_id=$(date -u +%Y%m%dT%H%M%SZ)-$bench
root=$VF_BUILD/bench/$run_id
results=$VF_BUILD/results/$run_id

mkdir -p "$root"
nboots=$(( repeat * ${#matrix[@]} * $(echo "$scenarios" | wc -w) ))
say "bench $bench: $repeat x ${#matrix[@]} kernel(s) x scenarios ($scenarios) = $nboots boots, interleaved, guest $mem/$cpus CPUs, raw in $root"
vf_timer_start
t_all=$VF_T0

json_str() { python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$1"; }

# Per kernel: modules, version, config hash, methods (once, before any boot).
declare -A k_mods k_ver k_csum k_methods
kernels_json=
for kv in "${matrix[@]}"; do
	read -r stage variant <<<"$kv"
	kname=plain
	[ "$stage" = plain ] || kname=stage$stage
	obj=$(vf_objdir "$stage" "$variant")
	say "[$kname/$variant] building vfbench.ko and vffrag.ko against $obj"
	k_mods[$kv]=$(vf_build_modules "$stage" "$variant")
	k_ver[$kv]=$(cat "$obj/include/config/kernel.release" 2>/dev/null || echo unknown)
	cfg=$VF_BUILD/kernels/config-$stage-$variant
	k_csum[$kv]=$(sha256sum "$cfg" 2>/dev/null | cut -d' ' -f1 || echo unknown)
	k_methods[$kv]=plain_noretry,plain,vmalloc,kvmalloc
	[ "$stage" = plain ] || k_methods[$kv]=plain_noretry,plain,vfallback,vmalloc,kvmalloc
	kernels_json="$kernels_json${kernels_json:+,}
    {\"kernel\": \"$kname\", \"variant\": \"$variant\", \"version\": \"${k_ver[$kv]}\", \"config_sha256\": \"${k_csum[$kv]}\", \"bzImage\": \"bzImage-$stage-$variant\"}"
done

# Interleaved: each round boots every kernel in every scenario once, so
# that a slow period of the host spreads over all of them.
n=0 failed=0
for r in $(seq "$repeat"); do
for kv in "${matrix[@]}"; do
	read -r stage variant <<<"$kv"
	kname=plain
	[ "$stage" = plain ] || kname=stage$stage
	mods=${k_mods[$kv]} kver=${k_ver[$kv]} csum=${k_csum[$kv]} methods=${k_methods[$kv]}
	# strict measures plain as plain_mayfail (no OOM killer, no rescue).
	smethods=${methods/,plain,/,plain_mayfail,}
	for scen in $scenarios; do
		n=$((n + 1))
		sfx=
		[ "$repeat" = 1 ] || sfx=-r$r
		name=bench-$stage-$variant-$scen$sfx
		say "[$n/$nboots] round $r/$repeat: $kname/$variant, scenario $scen ($(( $(date +%s) - t_all ))s so far)"
		boot=PASS
		load=$(wait_for_load)
		seed=${SEED:-$(( (RANDOM << 15 | RANDOM) % 1000000 + 1 ))}
		t0=$(date +%s)
		if ! vf_fg "$VF_TOP/qemu/run.sh" --kernel "$VF_BUILD/kernels/bzImage-$stage-$variant" --name "$name" \
			--scenario bench --timeout "$timeout" --mem "$mem" --cpus "$cpus" --accel "$accel" \
			--append "vf.bench=$bench vf.scenario_frag=$scen vf.seed=$seed kunit.enable=0" \
			--in "$mods/vfbench.ko" --in "$mods/vffrag.ko"; then
			boot=FAIL
			failed=$((failed + 1))
		fi
		dest=$root/$kname-$variant-$scen$sfx
		mkdir -p "$dest"
		cp -a "$VF_BUILD/runs/$name/out" "$dest/" 2>/dev/null || mkdir -p "$dest/out"
		cp "$VF_BUILD/runs/$name/console.log" "$dest/" 2>/dev/null || true
		cat >"$dest/meta" <<-EOF
		kernel=$kname
		variant=$variant
		scenario=$scen
		accel=$(cat "$VF_BUILD/runs/$name/accel" 2>/dev/null || echo unknown)
		mem=$mem
		cpus=$cpus
		bench=$bench
		boot=$boot
		seconds=$(( $(date +%s) - t0 ))
		kernel_version=$kver
		methods=$([ "$scen" = strict ] && echo "$smethods" || echo "$methods")
		orders=$orders
		name=$name
		lbs=1
		round=$r
		seed=$seed
		host_load_1min=$load
		config_sha256=$csum
		EOF
		# The boot must have produced every cell it was asked for (and, on a
		# stage kernel, large-block runs without errors).
		if ! python3 "$VF_TOP/bench/check-boot.py" "$dest" | sed 's/^/    /'; then
			[ "$boot" = FAIL ] || failed=$((failed + 1))
			boot=FAIL
			sed -i 's/^boot=.*/boot=FAIL/' "$dest/meta"
		fi
		echo "    $(grep -c . "$dest/out/bench-raw.txt" 2>/dev/null || echo 0) cells recorded in $dest"
	done
done
done

# results/: the raw outputs worth keeping (not the per-cell state files,
# which stay in $root), the metadata, then the tables and plots.
say "writing $results"
mkdir -p "$results"
rm -rf "$results/raw"
for d in "$root"/*/; do
	b=$(basename "$d")
	mkdir -p "$results/raw/$b"
	cp "$d/meta" "$results/raw/$b/"
	(cd "$d/out" 2>/dev/null && cp bench-raw.txt bench-info.txt slab-raw.txt lbs-raw.txt scenario.log perf-top-*.txt \
		vffrag-status.txt stress-ng.log buddyinfo-* unusable-* extfrag-* vmstat-* zoneinfo-* "$results/raw/$b/" 2>/dev/null) || true
	[ -d "$d/out/lbs" ] && cp -r "$d/out/lbs" "$results/raw/$b/"
done
accels=$(cat "$root"/*/meta | sed -n 's/^accel=//p' | sort -u | paste -sd, -)
host_cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
cat >"$results/meta.json" <<EOF
{
  "run_id": "$run_id",
  "bench": "$bench",
  "date": "$(date -u +%Y-%m-%dT%H:%M:%SZ)",
  "accel": "$accels",
  "guest_mem": "$mem",
  "guest_cpus": $cpus,
  "host_cpu": $(json_str "$host_cpu"),
  "host_cpus": $(nproc),
  "scenarios": "$scenarios",
  "orders": "$orders",
  "repeat": $repeat,
  "max_load": "$max_load",
  "host_load_1min_per_boot": $(json_str "$(sed -n 's/^host_load_1min=//p' "$root"/*/meta | paste -sd, -)"),
  "seeds_per_boot": $(json_str "$(sed -n 's/^seed=//p' "$root"/*/meta | paste -sd, -)"),
  "kernels": [$kernels_json
  ]
}
EOF
python3 "$VF_TOP/bench/process.py" "$results/raw" --out "$results"
vf_timer_end "bench $bench ($nboots boots)"
if [ "$publish" = 1 ] || { [ "$publish" = auto ] && [ "$bench" = full ] && [ "$failed" = 0 ]; }; then
	say "publishing $results into $VF_TOP/results/"
	rm -rf "$VF_TOP/results/raw"
	cp -r "$results"/. "$VF_TOP/results/"
else
	echo "    not published into results/ (BENCH=$bench, $failed failed boot(s), PUBLISH=$publish): results in $results"
fi
if [ "$failed" != 0 ]; then
	echo "FAIL: bench: $failed of $nboots boots failed (their cells are recorded as missing; see $root)"
	exit 1
fi
echo "PASS: bench: $nboots boots, results in $results"
