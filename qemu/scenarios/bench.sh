# Benchmark scenario (guest side of bench/run.sh): for each order x method,
# one vfbench cell (N allocate/touch/free cycles + access cost), with the
# memory state (buddyinfo, extfrag unusable index, vmstat) taken around it.
#
# Parameters, from the kernel command line or from $VF_IN/bench.conf
# (shell assignments, which win):
#   vf.bench=quick|full            orders 1,3,5,7,9,10 x 200 iters | 1..10 x 1000
#   vf.scenario_frag=none|movable|unmovable|strict|aged
#                                  aged: fragmentation grown by a file
#                                  workload (vf.aged_pct, vf.aged_rounds)
#                                  strict: unmovable, with the fragmenter's
#                                  OOM rescue off during the measurement loop
#                                  and plain measured as plain_mayfail
#   vf.methods=a,b,...  vf.orders=1,2,...  vf.iters=N  vf.budget_ms=N
#   vf.perf=one|all|none           perf stat: every method at one order | every cell
#   vf.perf_order=N vf.perf_iters=N  that order; the perf record profiles
#                                  (plain_noretry and vfallback, N iterations)
#   vf.perf_reps=N                 the profiled cell N times in one record
#                                  (default 1; vfbench takes at most 100000
#                                  iterations, a 0.1 s loop at order 1)
#   vf.perf_slab=1                 the slab workload once more (4000 files in
#                                  new directories) under perf record -a:
#                                  perf-top-slab.txt (a profile, not timed)
#   vf.perf_lbs=BS                 the large-block workload's sequential write
#                                  at block size BS once more under perf
#                                  record -a: perf-top-lbs-BS-seqwrite.txt
#   vf.keep_mb=N                   vffrag keep_mb (unmovable)
#   vf.oom_batch=N                 vffrag oom_batch: held pages released per
#                                  OOM call instead of a kill (default 16)
#   vf.lbs=0|1                     the large-block workload (lbs.sh; default 1)
#   vf.seed=N                      orders the methods within each order (default 1)
#   vf.deferred_max=N              /sys/kernel/mm/vfallback/deferred_max (pages
#                                  of queued virtual-compound releases before
#                                  an allocation does the excess itself; an
#                                  experiment knob, stage 2+; default: leave)
#   vf.hold_mb=N                   hold cells (default 256; 0: none): in the
#                                  scenarios of vf.hold (default unmovable,strict,aged),
#                                  plain_noretry, plain and vfallback keep
#                                  every block of a run until its end, at most
#                                  N MiB (attempts = min(iters, N MiB / size)),
#                                  so that each attempt needs a block of its own
# Output in $VF_OUT: bench-raw.txt (one key=value line per cell),
# bench-info.txt, cells/ (per-cell state before/after), perf-*.txt,
# slab-raw.txt (the slab workload: one key=value line per cache, dentry and
# buffer_head; their SLUB counters around 4000 file creations on ext4).
#
# The measurement loop runs in one shell and uses builtins only: a fork
# needs an order-2 kernel stack, which under "unmovable" only the vffrag
# OOM notifier can provide by unpinning memory. perf stat therefore wraps
# a second run of the cells it measures, after the main loop.
# PASS/FAIL lines are for the harness only (a module that does not load, a
# refused valid command, bad input accepted); allocation failures are data.
. /results/scenarios/common.lib

bench=$(vf_arg bench) frag=$(vf_arg scenario_frag) methods=$(vf_arg methods)
orders=$(vf_arg orders) iters=$(vf_arg iters) budget_ms=$(vf_arg budget_ms)
perf_mode=$(vf_arg perf) perf_order=$(vf_arg perf_order) perf_iters=$(vf_arg perf_iters) perf_reps=$(vf_arg perf_reps 1)
lbs=$(vf_arg lbs) perf_slab=$(vf_arg perf_slab 0) perf_lbs=$(vf_arg perf_lbs)
keep_mb=$(vf_arg keep_mb) oom_batch=$(vf_arg oom_batch)
hold_mb=$(vf_arg hold_mb) hold_scen=$(vf_arg hold) deferred_max=$(vf_arg deferred_max)
seed=$(vf_arg seed)
[ -f "$VF_IN/bench.conf" ] && . "$VF_IN/bench.conf"
bench=${bench:-quick} frag=${frag:-none}
case "$bench" in
quick) d_orders="1 3 5 7 9 10" d_iters=200 d_budget=20000 ;;
full) d_orders="1 2 3 4 5 6 7 8 9 10" d_iters=1000 d_budget=60000 ;;
*) fail "bench: unknown vf.bench='$bench' (quick or full)"; finish; exit 1 ;;
esac
case "$frag" in
none | movable | unmovable | strict | aged) ;;
*) fail "bench: unknown vf.scenario_frag='$frag' (none, movable, unmovable, strict or aged)"; finish; exit 1 ;;
esac
methods=$(echo "${methods:-plain_noretry,plain,vfallback,vmalloc,kvmalloc}" | tr ',' ' ')
# Strict: nothing rescues an allocation, so plain (which would call the
# OOM killer at orders <= 3) is measured as plain_mayfail.
[ "$frag" = strict ] && methods=$(echo " $methods " | sed 's/ plain / plain_mayfail /; s/^ //; s/ $//')
orders=$(echo "${orders:-$d_orders}" | tr ',' ' ')
iters=${iters:-$d_iters} budget_ms=${budget_ms:-$d_budget}
perf_mode=${perf_mode:-one} perf_order=${perf_order:-5} perf_iters=${perf_iters:-20000}
keep_mb=${keep_mb:-0} oom_batch=${oom_batch:-16}
hold_mb=${hold_mb:-256}
hold_scen=$(echo "${hold_scen:-unmovable,strict,aged}" | tr ',' ' ')
case "$perf_reps" in
'' | *[!0-9]* | 0) fail "bench: vf.perf_reps='$perf_reps' is not a count >= 1"; finish; exit 1 ;;
esac
case "$hold_mb" in
'' | *[!0-9]*) fail "bench: vf.hold_mb='$hold_mb' is not a number of MiB"; finish; exit 1 ;;
esac
hold_methods=
case " $hold_scen " in
*" $frag "*) [ "$hold_mb" -gt 0 ] && hold_methods="plain_noretry plain vfallback" ;;
esac
case "$frag" in
strict) hold_methods=$(echo "$hold_methods" | sed 's/\bplain\b/plain_mayfail/') ;;
esac

RUN=/sys/kernel/debug/vfbench/run
FRAG=/sys/kernel/debug/vffrag
CELLS=/tmp/cells	# tmpfs: the loop writes nothing over 9p
mkdir -p "$CELLS"
RAW=$VF_OUT/bench-raw.txt
: >"$RAW"

if ! insmod "$VF_IN/vfbench.ko" budget_ms="$budget_ms"; then
	fail "bench: insmod vfbench.ko"
	finish
	exit 1
fi
pass "bench: vfbench.ko loaded"
have=" $(cat /sys/kernel/debug/vfbench/methods) "
run_methods=
for m in $methods; do
	case "$have" in
	*" $m "*) run_methods="$run_methods $m" ;;
	*) skip "bench: method $m: not in this kernel (vfbench methods:$have)" ;;
	esac
done

# Bad input: each must be refused with EINVAL (and a pr_warn, no splat).
for bad in "bogus 3 10" "plain 0 10" "plain 11 10" "plain 3 0" "plain 3 100001" \
	"plain three 10" "plain 3" "plain 3 10 extra" "plain 3 10 hold=0" "plain 3 10 hold=x" \
	"plain 10 10 hold=100000" "plain 3 10 hold=4 extra" ""; do
	if echo "$bad" >$RUN 2>/dev/null; then
		fail "bench: vfbench accepted bad input '$bad'"
	else
		pass "bench: vfbench refuses '$bad'"
	fi
done

DEFMAX=/sys/kernel/mm/vfallback/deferred_max
if [ -n "$deferred_max" ]; then
	if [ ! -f $DEFMAX ]; then
		fail "bench: vf.deferred_max given but this kernel has no $DEFMAX (stage 2+ only)"
		finish
		exit 1
	elif ! echo "$deferred_max" >$DEFMAX; then
		fail "bench: $DEFMAX refused '$deferred_max' (a number of pages)"
		finish
		exit 1
	fi
fi
deferred_now=n/a
[ -f $DEFMAX ] && deferred_now=$(cat $DEFMAX)
vf_mode=n/a
[ -f /sys/kernel/mm/vfallback/mode ] &&
	vf_mode=$(sed -n 's/.*\[\([a-z]*\)\].*/\1/p' /sys/kernel/mm/vfallback/mode)
perf_ok=0
command -v perf >/dev/null && perf stat -e task-clock -o /dev/null true 2>/dev/null && perf_ok=1
cpus=$(grep -c '^processor' /proc/cpuinfo)
# shellcheck disable=SC2086 # word splitting of the lists is intended
{
	echo "kernel_release=$(uname -r) vf_mode=$vf_mode scenario=$frag bench=$bench"
	echo "methods=$(echo $run_methods | tr ' ' ',') orders=$(echo $orders | tr ' ' ',') iters=$iters budget_ms=$budget_ms"
	echo "hold_methods=$(echo $hold_methods | tr ' ' ',') hold_mb=$hold_mb oom_batch=$oom_batch deferred_max=$deferred_now seed=${seed:-none} lbs=${lbs:-1}"
	echo "mem_total_kb=$(awk '/^MemTotal/ { print $2 }' /proc/meminfo) cpus=$cpus perf=$perf_ok perf_mode=$perf_mode"
	echo "clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)"
	echo "cmdline=$(cat /proc/cmdline)"
} >"$VF_OUT/bench-info.txt"
cat "$VF_OUT/bench-info.txt"

# The measurement loop: one cell per line of the list (TAG METHOD ORDER
# ITERS [noaccess]). With REFRAG=1 (unmovable) each cell first compacts
# and re-pins whatever compaction and the frees since the last cell
# made, so that every cell starts from the same state.
cat >/tmp/vfloop.sh <<'EOF'
# vfloop.sh LIST REFRAG(0|1) [STRICT(0|1)]: builtins only. With STRICT=1
# this shell turns vffrag's strict mode on for itself (no OOM rescue for
# its own allocations, the measured ones) and off at the end; the result
# goes to /tmp/strict.state.
if [ "${3:-0}" = 1 ]; then
	if echo "strict on" >/sys/kernel/debug/vffrag/control; then
		echo on >/tmp/strict.state
	else
		echo refused >/tmp/strict.state
	fi
fi
cap() { while IFS= read -r l; do echo "$l"; done <"$1" >"$2"; }
while read -r tag cmd; do
	d=/tmp/cells/$tag
	if [ "$2" = 1 ]; then
		echo 3 >/proc/sys/vm/drop_caches
		echo 1 >/proc/sys/vm/compact_memory
		echo refrag >/sys/kernel/debug/vffrag/control
		cap /sys/kernel/debug/vffrag/status "$d.frag.before"
	fi
	cap /proc/vmstat "$d.vmstat.before"
	cap /proc/buddyinfo "$d.buddy.before"
	cap /sys/kernel/debug/extfrag/unusable_index "$d.unusable.before"
	cap /proc/zoneinfo "$d.zoneinfo.before"
	if echo "$cmd" >/sys/kernel/debug/vfbench/run; then st=ok; else st=write_failed; fi
	cap /proc/vmstat "$d.vmstat.after"
	cap /proc/buddyinfo "$d.buddy.after"
	cap /sys/kernel/debug/extfrag/unusable_index "$d.unusable.after"
	cap /proc/zoneinfo "$d.zoneinfo.after"
	[ "$2" = 1 ] && cap /sys/kernel/debug/vffrag/status "$d.frag.after"
	if [ $st = ok ]; then read -r res </sys/kernel/debug/vfbench/run; else res=; fi
	echo "status=$st $res" >"$d.result"
	echo "  $tag: $st ${res%% path=*}"
done <"$1"
# An if, not a list: the script's exit status must stay 0 (perf record
# returns it).
if [ "${3:-0}" = 1 ]; then
	echo "strict off" >/sys/kernel/debug/vffrag/control
fi
EOF

# The slab workload (dentry and buffer_head, SLAB_VFALLBACK on stage 2):
# an ext4 with 1 KiB blocks (many buffer heads) on a loop device, prepared
# now, before the fragmentation, while forks are cheap. The workload itself
# runs after the measurement loop, builtins only (/tmp/slabload.sh). A
# guest that cannot set it up skips the workload (no FAIL).
SLAB_RAW=$VF_OUT/slab-raw.txt
: >"$SLAB_RAW"
slab_ok=0 slab_dev='' slab_mounted=0 slab_why=''
slab_prep() {
	truncate -s 64M /tmp/slab.img || { slab_why="truncate -s 64M /tmp/slab.img"; return 1; }
	slab_dev=$(losetup -f 2>/dev/null)	# busybox: the next free loop device
	slab_dev=${slab_dev:-/dev/loop2}
	losetup "$slab_dev" /tmp/slab.img || { slab_why="losetup $slab_dev /tmp/slab.img"; slab_dev=''; return 1; }
	mkfs.ext4 -q -b 1024 -N 12000 "$slab_dev" || { slab_why="mkfs.ext4 -b 1024 on $slab_dev"; return 1; }
	mkdir -p /mnt/slab || { slab_why="mkdir /mnt/slab"; return 1; }
	mount -t ext4 "$slab_dev" /mnt/slab || { slab_why="mount $slab_dev on /mnt/slab"; return 1; }
	slab_mounted=1
	sd=0
	while [ $sd -lt 40 ]; do
		mkdir /mnt/slab/d$sd || { slab_why="mkdir /mnt/slab/d$sd"; return 1; }
		sd=$((sd + 1))
	done
}
slab_cleanup() { # errors ignored
	[ "$slab_mounted" = 1 ] && umount /mnt/slab 2>/dev/null
	[ -n "$slab_dev" ] && losetup -d "$slab_dev" 2>/dev/null
	rm -f /tmp/slab.img
	slab_mounted=0 slab_dev=''
}
if slab_prep; then
	slab_ok=1
	echo "slab workload: ext4 (1 KiB blocks) on $slab_dev mounted on /mnt/slab, 40 directories"
else
	skip "bench: slab workload: $slab_why failed"
	slab_cleanup
fi
cat >/tmp/slabload.sh <<'EOF'
# slabload.sh DIR REFRAG(0|1) [PREFIX]: builtins only. The SLUB files of
# dentry and buffer_head (those that exist) before and after creating
# 40 x 100 files in /mnt/slab/PREFIX0..39 (default d), the time it took
# (/proc/uptime) and the files created, in DIR. With REFRAG=1 (unmovable),
# first the same re-fragmentation as before every cell.
dir=$1 pre=${3:-d}
if [ "$2" = 1 ]; then
	echo 3 >/proc/sys/vm/drop_caches
	echo 1 >/proc/sys/vm/compact_memory
	echo refrag >/sys/kernel/debug/vffrag/control
fi
cap() { while IFS= read -r l; do echo "$l"; done <"$1" >"$2"; }
snap() { # TAG (plain kernels have no slabs_virtual: not an error)
	for c in dentry buffer_head; do
		for k in order objs_per_slab alloc_fastpath alloc_slowpath alloc_slab free_slab \
			order_fallback alloc_from_partial slabs slabs_virtual slabs_physical; do
			if [ -f /sys/kernel/slab/$c/$k ]; then cap /sys/kernel/slab/$c/$k "$dir/slab-$c.$k.$1"; fi
		done
	done
}
snap before
cap /proc/vmstat "$dir/slab-vmstat.before"
read -r up _ </proc/uptime
echo "$up" >"$dir/slab-uptime.before"
n=0 d=0
while [ $d -lt 40 ]; do
	f=0
	while [ $f -lt 100 ]; do
		if ! echo "$d $f vfallback slab workload" >/mnt/slab/$pre$d/f$f; then
			echo "slab workload: writing /mnt/slab/$pre$d/f$f failed"
			d=40
			break
		fi
		n=$((n + 1)) f=$((f + 1))
	done
	d=$((d + 1))
done
read -r up _ </proc/uptime
echo "$up" >"$dir/slab-uptime.after"
echo "$n" >"$dir/slab-files"
cap /proc/vmstat "$dir/slab-vmstat.after"
snap after
EOF

# "movable": stress-ng memory stressors keep running during the
# measurements (three vm workers keep their mappings, mmapmany maps and
# unmaps single pages, pagemove remaps), at nice 10 so that the cells are
# not starved; ~45% of available memory. Stressors alone leave free memory
# in large blocks, so the rest of memory, less a margin for mmapmany, is
# then filled with a tmpfs file (movable page cache) of which every other
# 4 KiB page is punched out: free memory is scattered between movable
# pages, which compaction can move. THP is off during the scenario so that
# anonymous memory is faulted in 4 KiB pages.
stress_pid='' thp_was='' thp=/sys/kernel/mm/transparent_hugepage/enabled
if [ "$frag" = movable ]; then
	if [ -w $thp ]; then
		thp_was=$(sed -n 's/.*\[\([a-z]*\)\].*/\1/p' $thp)
		echo never >$thp
	fi
	avail=$(awk '/^MemAvailable/ { print $2 }' /proc/meminfo)
	vm_kb=$((avail * 13 / 100)) pm_kb=$((avail * 6 / 100))
	echo "movable: stress-ng 3 x vm ${vm_kb}k (keep), pagemove ${pm_kb}k, mmapmany, of ${avail}k available; THP ${thp_was:-n/a} -> never"
	# shellcheck disable=SC2016 # $$ is the inner shell's
	sh -c 'renice -n 10 -p $$ >/dev/null; exec "$@"' stress-ng stress-ng \
		--vm 3 --vm-bytes "${vm_kb}k" --vm-keep --mmapmany 1 \
		--pagemove 1 --pagemove-bytes "${pm_kb}k" \
		--timeout 7200s --metrics-brief >"$VF_OUT/stress-ng.log" 2>&1 &
	stress_pid=$!
	sleep 15
	if kill -0 "$stress_pid" 2>/dev/null; then pass "bench: stress-ng movable load running"; else fail "bench: stress-ng did not start (see stress-ng.log)"; fi
	avail=$(awk '/^MemAvailable/ { print $2 }' /proc/meminfo)
	file_mb=$(( (avail - 350 * 1024) / 1024 ))
	if [ "$file_mb" -gt 64 ]; then
		# A tmpfs of its own: /tmp (half of memory) must keep room.
		mkdir -p /mnt/movable
		mount -t tmpfs -o size=$((file_mb + 8))m movable /mnt/movable
		dd if=/dev/zero of=/mnt/movable/fill bs=1M count="$file_mb" 2>/dev/null
		awk -v n=$((file_mb * 256)) 'BEGIN { for (i = 1; i < n; i += 2) printf "fpunch %d 4096\n", i * 4096 }' \
			>/tmp/movable.cmds
		xfs_io /mnt/movable/fill </tmp/movable.cmds >/tmp/movable.out 2>&1
		rm -f /tmp/movable.cmds
		used_kb=$(du -k /mnt/movable/fill | cut -f1)
		if [ "$used_kb" -le $((file_mb * 1024 * 6 / 10)) ]; then
			pass "bench: movable fill: ${file_mb} MiB tmpfs file, every other page punched out (${used_kb} KiB left)"
		else
			fail "bench: movable fill: punching every other page of the tmpfs file ($used_kb KiB left of $((file_mb * 1024)))"
			head -5 /tmp/movable.out
		fi
	fi
	grep -E '^(MemFree|MemAvailable|AnonPages|Shmem):' /proc/meminfo
	cat /proc/buddyinfo
fi
# "aged": fragmentation grown by a workload, in the manner of mmtests'
# stress-highalloc: rounds of a file workload on tmpfs (fio: many small
# files of 4-32 KiB, each creation allocating inode and dentry slab objects
# between page-cache pages), after each round every other file is deleted.
# What stays: half-used slab pages (unmovable, pinned by the files left)
# spread between movable page cache and free holes of 4-32 KiB. Reclaim
# cannot free tmpfs pages (no swap); compaction can move them but not the
# slabs. Each round fills vf.aged_pct percent of MemAvailable (default 80,
# 2 rounds: the second fills the first one's holes; about two thirds of
# memory stays in use, the free third mostly in small blocks). Nothing
# runs during the measurement.
aged_pct=$(vf_arg aged_pct) aged_rounds=$(vf_arg aged_rounds)
aged_pct=${aged_pct:-80} aged_rounds=${aged_rounds:-2}
if [ "$frag" = aged ]; then
	case "$aged_pct$aged_rounds" in
	*[!0-9]*) fail "bench: vf.aged_pct='$aged_pct' / vf.aged_rounds='$aged_rounds': numbers (percent, rounds)"; finish; exit 1 ;;
	esac
	mkdir -p /mnt/aged
	mount -t tmpfs -o size=90% aged /mnt/aged
	aged_ok=1
	for round in $(seq "$aged_rounds"); do
		avail=$(awk '/^MemAvailable/ { print $2 }' /proc/meminfo)
		nfiles=$((avail * aged_pct / 100 / 18))	# 18 KiB: the mean file
		mkdir -p /mnt/aged/r$round
		t0=$(date +%s)
		if ! fio --name=aged --directory=/mnt/aged/r$round --nrfiles="$nfiles" \
			--filesize=4k-32k --bs=4k --rw=write --ioengine=psync \
			--file_service_type=sequential --openfiles=8 --create_on_open=1 \
			--randseed="${seed:-1}$round" --output="$VF_OUT/aged-fio-r$round.txt" >/dev/null 2>&1; then
			fail "bench: aged round $round: fio (see aged-fio-r$round.txt)"
			aged_ok=0
			break
		fi
		made=$(ls /mnt/aged/r$round | wc -l)
		rm -f /mnt/aged/r$round/*[13579]
		left=$(ls /mnt/aged/r$round | wc -l)
		echo "aged: round $round: $made files of 4-32 KiB on tmpfs in $(($(date +%s) - t0))s, $left left after deleting every other one"
		grep -E '^(MemFree|Shmem|Slab|SUnreclaim):' /proc/meminfo | tr -s ' ' | tr '\n' ' '
		echo
		if [ "$made" -lt $((nfiles * 9 / 10)) ] || [ "$left" -ge "$made" ]; then
			fail "bench: aged round $round: $made of $nfiles files made, $left left"
			aged_ok=0
		fi
	done
	[ "$aged_ok" = 1 ] && pass "bench: aged: $aged_rounds rounds of file creation and deletion"
	cat /proc/buddyinfo
	cat /sys/kernel/debug/extfrag/unusable_index 2>/dev/null
fi
refrag=0
if [ "$frag" = unmovable ] || [ "$frag" = strict ]; then
	if insmod "$VF_IN/vffrag.ko" oom_batch=0 2>/dev/null; then
		rmmod vffrag
		fail "bench: vffrag accepted oom_batch=0"
	else
		pass "bench: vffrag refuses oom_batch=0"
	fi
	echo "unmovable: loading vffrag (keep_mb=$keep_mb oom_batch=$oom_batch)"
	if insmod "$VF_IN/vffrag.ko" keep_mb="$keep_mb" oom_batch="$oom_batch" && [ -f $FRAG/status ]; then
		pass "bench: vffrag.ko loaded"
		cat $FRAG/status
		refrag=1
		# Reclaimable memory (caches) and movable pages next to free
		# odd pages are what reclaim and compaction could still turn
		# into order >= 1 blocks: drop caches, compact, then split
		# what that made, until nothing is gained. Builtins only.
		mop_blocks() { read -r st <$FRAG/status; st=${st#*mop_blocks=}; mb=${st%% *}; }
		for round in 1 2 3 4 5 6; do
			mop_blocks; b0=$mb
			echo 3 >/proc/sys/vm/drop_caches
			echo 1 >/proc/sys/vm/compact_memory
			echo refrag >$FRAG/control
			mop_blocks; b1=$mb
			echo "unmovable: compaction round $round: $((b1 - b0)) blocks made and split"
			[ "$b1" = "$b0" ] && break
		done
		cat $FRAG/status
	else
		fail "bench: insmod vffrag.ko"
	fi
fi
grep -E '^(MemFree|MemAvailable)' /proc/meminfo
snapshot "$frag-start"
cat /proc/zoneinfo >"$VF_OUT/zoneinfo-$frag-start"

# The cells, order-major so that the methods of one order see the same
# conditions (matters under the moving load of "movable"); within an order
# the methods run in an order drawn from vf.seed (recorded in
# bench-info.txt), so that no method always runs first or after another.
# shuffle WORDS...: sets $shuffled to them permuted (builtins only, no
# subshell: the LCG state rng carries over from one order to the next).
shuffle() {
	local rest="$*" n=$# j k w nrest
	shuffled=
	while [ "$n" -gt 0 ]; do
		rng=$(( (rng * 1103515245 + 12345) % 2147483648 ))
		j=$(( (rng >> 8) % n ))
		k=0 nrest=
		for w in $rest; do
			if [ $k = $j ]; then shuffled="$shuffled $w"; else nrest="$nrest $w"; fi
			k=$((k + 1))
		done
		rest=$nrest n=$((n - 1))
	done
}
rng=${seed:-1}
: >/tmp/cells.list
for o in $orders; do
	# shellcheck disable=SC2086
	shuffle $run_methods
	for m in $shuffled; do
		echo "$frag-$m-o$o $m $o $iters" >>/tmp/cells.list
	done
	# Hold cells: one batch, every block kept until the end of the run.
	h=$((hold_mb * 256 >> o))
	[ "$h" -gt "$iters" ] && h=$iters
	for m in $hold_methods; do
		case " $run_methods " in *" $m "*) ;; *) continue ;; esac
		[ "$h" -ge 1 ] && echo "$frag-$m-o$o-hold $m $o $h noaccess hold=$h" >>/tmp/cells.list
	done
done
echo "bench: $(wc -l </tmp/cells.list) cells, $iters iterations each"
t0=$(date +%s)
strict=0
[ "$frag" = strict ] && [ $refrag = 1 ] && strict=1
rm -f /tmp/strict.state
sh /tmp/vfloop.sh /tmp/cells.list $refrag $strict
if [ $strict = 1 ]; then
	st=
	[ -f /tmp/strict.state ] && read -r st </tmp/strict.state
	case "$st" in
	on) pass "bench: vffrag strict mode was on for the measurement loop (no OOM rescue for its allocations)" ;;
	*) fail "bench: vffrag refused 'strict on' (the strict cells were measured with the rescue)" ;;
	esac
	# Other tasks' OOM calls during the loop were rescued, not killed.
	sed -n 's/.*\(strict_rescued=[0-9]*\).*/bench: vffrag \1 (OOM calls of other tasks during the loop)/p' $FRAG/status
fi
echo "bench: measurement loop took $(($(date +%s) - t0))s"

# The slab workload, in the state the measurement loop left (builtins only).
if [ $slab_ok = 1 ]; then
	echo "bench: slab workload: 40 x 100 files on /mnt/slab"
	sh /tmp/slabload.sh "$CELLS" $refrag
	# vf.perf_slab=1: the same workload in 40 new directories under perf
	# record -a, for its profile only (its captures go to /tmp/slabprof).
	if [ "$perf_slab" = 1 ] && [ "$perf_ok" = 1 ]; then
		mkdir -p /tmp/slabprof
		sd=0
		while [ $sd -lt 40 ]; do
			mkdir /mnt/slab/p$sd
			sd=$((sd + 1))
		done
		if perf record -q -a -e cpu-clock -o /tmp/slab-perf.data -- \
			sh /tmp/slabload.sh /tmp/slabprof $refrag p >"$CELLS/slab-perf.err" 2>&1 &&
			[ "$(cat /tmp/slabprof/slab-files 2>/dev/null)" = 4000 ]; then
			{
				echo "# perf record -a -e cpu-clock: the slab workload (4000 files on ext4 with 1 KiB blocks), scenario $frag, mode $vf_mode"
				echo "# top symbols by task, whole guest"
				perf report -i /tmp/slab-perf.data --stdio --sort comm,symbol 2>/dev/null |
					grep -v '^#' | grep -v '^$' | head -30
			} >"$VF_OUT/perf-top-slab.txt"
			echo "perf profile of the slab workload:"
			sed 's/^/    /' "$VF_OUT/perf-top-slab.txt"
		else
			fail "bench: perf record of the slab workload ($(cat /tmp/slabprof/slab-files 2>/dev/null || echo no) files of 4000)"
			sed 's/^/    /' "$CELLS/slab-perf.err"
		fi
		rm -f /tmp/slab-perf.data
	fi
fi

# perf stat: a second run of the cells of one order per method (or of
# all), wrapped; TCG has no hardware counters, which perf reports as
# not supported and which are recorded as "unsupported".
stat_order=$(echo "$orders" | tr ' ' '\n' | tail -1)
case " $orders " in *" $perf_order "*) stat_order=$perf_order ;; esac
perf_val() { # FILE EVENT: value, or "unsupported"
	awk -F, -v e="$2" '$3 ~ "^"e { v = $1 } END {
		if (v == "" || v ~ /not (supported|counted)/) print "unsupported"; else print v }' "$1" 2>/dev/null
}
if [ "$perf_ok" = 1 ] && [ "$perf_mode" != none ]; then
	for o in $orders; do
		[ "$perf_mode" = all ] || [ "$o" = "$stat_order" ] || continue
		for m in $run_methods; do
			tag=$frag-$m-o$o
			echo "$tag-perf $m $o $iters" >/tmp/cell.list
			perf stat -x, -o "$CELLS/$tag.perfstat" -e task-clock,page-faults,dTLB-load-misses -- \
				sh /tmp/vfloop.sh /tmp/cell.list $refrag
		done
	done
fi

# Post-processing (forks allowed from here on).
VMKEYS="compact_stall compact_fail compact_success compact_migrate_scanned compact_free_scanned compact_isolated pgmigrate_success pgmigrate_fail allocstall_dma32 allocstall_normal oom_kill vfallback_physical vfallback_virtual vfallback_fail vfallback_free vfallback_deferred"
# The background reclaim and compaction that a workload causes (kswapd
# woken at a high order on every failed physical attempt reclaims for
# nothing when the memory is pinned): recorded around the slab workload.
RECLAIMKEYS="pgsteal_kswapd pgscan_kswapd pageoutrun kswapd_low_wmark_hit_quickly kswapd_high_wmark_hit_quickly compact_daemon_wake compact_daemon_migrate_scanned compact_daemon_free_scanned slabs_scanned allocstall_normal compact_stall vfallback_physical vfallback_virtual"
vm_delta() { # BEFORE AFTER [KEYS]: key=delta for KEYS (default VMKEYS)
	awk -v keys="${3:-$VMKEYS}" 'NR == FNR { b[$1] = $2; next } { a[$1] = $2 }
		END { n = split(keys, k, " "); for (i = 1; i <= n; i++)
			printf "%s%s=%s", (i > 1 ? " " : ""), k[i], (k[i] in a) ? a[k[i]] - b[k[i]] : "n/a" }' "$1" "$2"
}
unusable_at() { # FILE ORDER: the unusable index of the largest zone (Normal, else DMA32)
	awk -v o="$2" '$4 == "Normal" { n = $(5 + o) } $4 == "DMA32" { d = $(5 + o) }
		END { print (n != "" ? n : (d != "" ? d : "n/a")) }' "$1" 2>/dev/null
}
free_ge() { # FILE ORDER: free blocks of order >= ORDER, all zones
	awk -v o="$2" '$3 == "zone" { for (j = o; j <= 10; j++) s += $(5 + j) } END { print s + 0 }' "$1"
}
frag_key() { # FILE KEY
	sed -n "s/.* $2=\([0-9]*\).*/\1/p" "$1" 2>/dev/null
}
while read -r tag m o _; do
	d=$CELLS/$tag
	res=$(cat "$d.result" 2>/dev/null)
	case "$res" in
	status=ok*) ;;
	*)
		fail "bench: vfbench refused '$m $o $iters' (see the console)"
		res="status=write_failed method=$m order=$o iters=$iters attempts=0 successes=0"
		;;
	esac
	line="scenario=$frag kernel_release=$(uname -r) vf_mode=$vf_mode $res $(vm_delta "$d.vmstat.before" "$d.vmstat.after")"
	line="$line unusable_before=$(unusable_at "$d.unusable.before" "$o") unusable_after=$(unusable_at "$d.unusable.after" "$o")"
	line="$line free_ge_order_before=$(free_ge "$d.buddy.before" "$o") free_ge_order_after=$(free_ge "$d.buddy.after" "$o")"
	if [ $refrag = 1 ]; then
		line="$line oom_released=$(( $(frag_key "$d.frag.after" oom_released) - $(frag_key "$d.frag.before" oom_released) ))"
		line="$line oom_calls=$(( $(frag_key "$d.frag.after" oom_calls) - $(frag_key "$d.frag.before" oom_calls) ))"
	else
		line="$line oom_released=n/a oom_calls=n/a"
	fi
	if [ -f "$d.perfstat" ]; then
		line="$line perf_stat=rerun perf_task_clock_ms=$(perf_val "$d.perfstat" task-clock)"
		line="$line perf_page_faults=$(perf_val "$d.perfstat" page-faults) perf_dtlb_load_misses=$(perf_val "$d.perfstat" dTLB-load-misses)"
	else
		line="$line perf_stat=n/a perf_task_clock_ms=n/a perf_page_faults=n/a perf_dtlb_load_misses=n/a"
	fi
	echo "$line" >>"$RAW"
	echo "[$frag] $(echo "$line" | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^(method|order|successes|p99_ns|seq_ns_per_page|rand_ns_per_page|path|compact_stall|oom_released|oom_calls)=/) printf "%s ", $i; print "" }')"
done </tmp/cells.list

# The slab workload: one line per cache in slab-raw.txt. SLUB_STATS files
# read "TOTAL C0=.. C1=..": the first field counts; absent files are n/a.
slab_val() { # CACHE KEY TAG: first field of the capture, or n/a
	sv=n/a
	[ -f "$CELLS/slab-$1.$2.$3" ] && read -r sv _ <"$CELLS/slab-$1.$2.$3"
	echo "${sv:-n/a}"
}
slab_delta() { # CACHE KEY: after - before, or n/a
	sb=$(slab_val "$1" "$2" before) sa=$(slab_val "$1" "$2" after)
	case "$sb$sa" in
	*[!0-9]*) echo n/a ;;
	*) echo $((sa - sb)) ;;
	esac
}
centisecs_of() { # FILE (/proc/uptime's first field)
	awk '$1 ~ /^[0-9.]+$/ { printf "%d", $1 * 100 + 0.5 }' "$1" 2>/dev/null
}
if [ $slab_ok = 1 ]; then
	su0=$(centisecs_of "$CELLS/slab-uptime.before") su1=$(centisecs_of "$CELLS/slab-uptime.after")
	slab_files=$(cat "$CELLS/slab-files" 2>/dev/null)
	slab_files=${slab_files:-0} slab_cs=n/a slab_fps=n/a
	if [ -n "$su0" ] && [ -n "$su1" ]; then
		slab_cs=$((su1 - su0))
		[ "$slab_cs" -gt 0 ] && slab_fps=$(awk -v n="$slab_files" -v c="$slab_cs" 'BEGIN { printf "%.1f", n * 100 / c }')
	fi
	for c in dentry buffer_head; do
		merged=n/a
		if [ -L /sys/kernel/slab/$c ]; then merged=1; elif [ -d /sys/kernel/slab/$c ]; then merged=0; fi
		so=$(slab_val $c order after) sp=$(slab_val $c objs_per_slab after)
		[ "$so" = n/a ] && so=$(slab_val $c order before)
		[ "$sp" = n/a ] && sp=$(slab_val $c objs_per_slab before)
		line="scenario=$frag kernel_release=$(uname -r) vf_mode=$vf_mode cache=$c order=$so objs_per_slab=$sp"
		line="$line files=$slab_files centisecs=$slab_cs files_per_s=$slab_fps"
		for k in alloc_fastpath alloc_slowpath alloc_slab free_slab order_fallback alloc_from_partial; do
			line="$line $k=$(slab_delta $c $k)"
		done
		line="$line slabs_after=$(slab_val $c slabs after) slabs_virtual_after=$(slab_val $c slabs_virtual after)"
		line="$line slabs_physical_after=$(slab_val $c slabs_physical after) merged=$merged"
		line="$line $(vm_delta "$CELLS/slab-vmstat.before" "$CELLS/slab-vmstat.after" "$RECLAIMKEYS")"
		echo "$line" >>"$SLAB_RAW"
		echo "[$frag] slab $(echo "$line" | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^(cache|order|objs_per_slab|files_per_s|alloc_fastpath|alloc_slowpath|alloc_slab|order_fallback|slabs_virtual_after|slabs_physical_after|merged)=/) printf "%s ", $i; print "" }')"
	done
	if [ -f /mnt/slab/d39/f99 ]; then
		pass "bench: slab workload (4000 files)"
	else
		fail "bench: slab workload: $slab_files of 4000 files created (see the console)"
	fi
fi

# Profiles of the allocate/free loop alone (no access phase): physical
# (plain_noretry) against the vfallback path, top symbols.
if [ "$perf_ok" = 1 ] && [ "$perf_mode" != none ]; then
	echo 10000 >/sys/module/vfbench/parameters/budget_ms
	for m in plain_noretry vfallback; do
		case " $run_methods " in *" $m "*) ;; *) continue ;; esac
		tag=$frag-$m-o$perf_order-profile
		# The cell vf.perf_reps times, and nothing else in the record (no
		# state snapshots as in vfloop.sh: they read /proc/zoneinfo). The
		# fragmented scenarios re-fragment first, as vfloop.sh does.
		if [ "$refrag" = 1 ]; then
			echo 3 >/proc/sys/vm/drop_caches
			echo 1 >/proc/sys/vm/compact_memory
			echo refrag >/sys/kernel/debug/vffrag/control
		fi
		if perf record -q -e cpu-clock -o "/tmp/$tag.data" -- sh -c '
			for _r in $(seq "$1"); do echo "$2" >/sys/kernel/debug/vfbench/run || exit 1; done
			read -r res </sys/kernel/debug/vfbench/run && echo "$res" >"$3"' _ \
			"$perf_reps" "$m $perf_order $perf_iters noaccess" "$CELLS/$tag.result" \
			>/dev/null 2>"$CELLS/$tag.record.err"; then
			{
				echo "# perf record -e cpu-clock: $m order $perf_order, $perf_reps x $perf_iters (allocate/free loop), scenario $frag"
				echo "# last cell: $(cat "$CELLS/$tag.result")"
				echo "# top symbols; the benchmark's own sort of the latencies (sort_r, vfb_cmp_u64, do_swap) left out"
				perf report -i "/tmp/$tag.data" --stdio --sort symbol 2>/dev/null |
					grep -v '^#' | grep -v '^$' | grep -Ev ' (sort_r|vfb_cmp_u64|do_swap) ' | head -25
			} >"$VF_OUT/perf-top-$tag.txt"
			echo "perf profile $tag:"
			sed 's/^/    /' "$VF_OUT/perf-top-$tag.txt"
		else
			fail "bench: perf record of $m order $perf_order"
			sed 's/^/    /' "$CELLS/$tag.record.err"
		fi
		rm -f "/tmp/$tag.data"
	done
	echo "$budget_ms" >/sys/module/vfbench/parameters/budget_ms
else
	skip "bench: perf profiles: perf does not run in this guest or vf.perf=none"
fi

# The large-block workload (XFS with 4/16/64 KiB blocks, fio and files/s;
# results in lbs-raw.txt). It forks (fio, mkfs): under "unmovable" the
# vffrag OOM notifier pays for that, and the workload re-fragments before
# each measurement. vf.lbs=0 skips it.
if [ "${lbs:-1}" != 0 ]; then
	echo "---- large-block workload"
	LBS_PERF_BS=$perf_lbs bash /results/scenarios/lbs.sh "$VF_OUT" "$frag" "$refrag" ||
		fail "bench: large-block workload script"
fi

snapshot "$frag-end"
if [ -n "$stress_pid" ]; then
	kill "$stress_pid" 2>/dev/null
	wait "$stress_pid" 2>/dev/null
	tail -12 "$VF_OUT/stress-ng.log"
	umount /mnt/movable 2>/dev/null
	[ -n "$thp_was" ] && echo "$thp_was" >$thp
fi
if [ $refrag = 1 ]; then
	tee "$VF_OUT/vffrag-status.txt" <$FRAG/status
	check "bench: rmmod vffrag (frees every held page)" rmmod vffrag
fi
slab_cleanup
check "bench: rmmod vfbench" rmmod vfbench
mkdir -p "$VF_OUT/cells"
cp "$CELLS"/* "$VF_OUT/cells/" 2>/dev/null
echo "bench: $(wc -l <"$RAW") cells in $RAW"
finish
