# Stage-1 scenario: the knobs and counters, and the converted in-tree users
# (swap cluster arrays via swapon/swapoff of a 1 GiB swap device, seq_file
# buffers via large /proc reads) at work under a stress-ng load, with the
# path checked in /proc/vmstat; in mode auto the same reads with the
# physical attempt failed by fail_page_alloc (virtual path, same bytes);
# the buffers' memcg charge rising and falling by their size. The expected
# mode comes from the kernel command line (vf.expect=auto|always).
. /results/scenarios/common.lib
expect=$(vf_arg expect)
mode=/sys/kernel/mm/vfallback/mode

check "mode file exists" test -f $mode
echo "mode: $(cat $mode)"
check "mode shows [$expect]" grep -q "\[$expect\]" $mode
if echo bogus >$mode 2>/dev/null; then fail "invalid mode write rejected"; else pass "invalid mode write rejected (EINVAL)"; fi
check "mode unchanged after invalid write" grep -q "\[$expect\]" $mode
for c in vfallback_physical vfallback_virtual vfallback_fail vfallback_free; do
	check "counter $c in /proc/vmstat" grep -q "^$c " /proc/vmstat
done

snapshot before
p0=$(vmstat vfallback_physical) v0=$(vmstat vfallback_virtual) f0=$(vmstat vfallback_free)
SKF=/sys/kernel/mm/vfallback/physical_skips
sk0=$(cat $SKF 2>/dev/null || echo none)
s0=$(slabs_virtual)

stress-ng --vm 1 --vm-bytes 64M --vm-keep --timeout 30s --quiet &
load=$!

# swapon/swapoff: zeromap (32 KiB) and cluster_info (order >= 1) for 1 GiB.
truncate -s 1G /tmp/swapfile
losetup /dev/loop0 /tmp/swapfile
check "mkswap 1 GiB" mkswap /dev/loop0
check "swapon" swapon /dev/loop0
check "swap is active" grep -q loop0 /proc/swaps
vc=$(grep -c ' vcompound' /proc/vmallocinfo || true)
echo "vcompound areas in /proc/vmallocinfo while swap is on: $vc"
if [ "$expect" = always ]; then
	check "always: swap arrays are vcompound areas in /proc/vmallocinfo" test "$vc" -ge 2
fi
p1=$(vmstat vfallback_physical) v1=$(vmstat vfallback_virtual)
check "swapoff" swapoff /dev/loop0
losetup -d /dev/loop0
swap_allocs=$(( (p1 - p0) + (v1 - v0) ))
echo "swapon: physical +$((p1 - p0)) virtual +$((v1 - v0))"
check "swapon allocated its 2 cluster arrays with GFP_VFALLBACK" test "$swap_allocs" -ge 2

# seq_file: a record larger than a page makes the buffer grow (order >= 1).
# A tmpfs mounted with a ~4 KiB source name on a ~2.4 KiB path gives a
# /proc/self/mountinfo line of more than 6 KiB.
src=$(head -c 3900 /dev/zero | tr '\0' s)
dir=/tmp
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do dir=$dir/$(head -c 200 /dev/zero | tr '\0' d); done
mkdir -p "$dir"
check "tmpfs with a 3900-byte source mounted" mount -t tmpfs "$src" "$dir"
p2=$(vmstat vfallback_physical) v2=$(vmstat vfallback_virtual)
for i in 1 2 3; do
	cat /proc/self/mountinfo >/dev/null
done
p3=$(vmstat vfallback_physical) v3=$(vmstat vfallback_virtual)
umount "$dir"
echo "seq_file reads: physical +$((p3 - p2)) virtual +$((v3 - v2))"
check "large seq_file reads grew their buffer with GFP_VFALLBACK" test $(( (p3 - p2) + (v3 - v2) )) -ge 1

wait $load || true
settle_deferred
snapshot after
p9=$(vmstat vfallback_physical) v9=$(vmstat vfallback_virtual) f9=$(vmstat vfallback_free)
s9=$(slabs_virtual)
echo "scenario totals: physical +$((p9 - p0)) virtual +$((v9 - v0)) free +$((f9 - f0))" \
	"virtual slabs +$((s9 - s0))"
if [ "$expect" = always ]; then
	check "always: no physical GFP_VFALLBACK allocation" test "$p9" -eq "$p0"
	check "always: virtual path taken" test $((v9 - v0)) -ge 3
	if [ -n "$(ls /sys/kernel/slab/*/slabs_virtual 2>/dev/null)" ]; then
		# Stage 2 on: compounds that became slabs (dentries...) stay in
		# use, and other tasks allocate meanwhile: count what is alive.
		areas=$(vc_areas)
		echo "vcompound areas alive: $areas, virtual slabs: $s9"
		check "always: every live virtual compound is a slab (none leaked)" test "$areas" -le "$s9"
	else
		check "always: every virtual compound of the scenario freed" test $((f9 - f0)) -ge $((v9 - v0))
	fi
else
	check "auto (unfragmented): physical path taken" test $((p9 - p0)) -ge 3
	check "auto (unfragmented): no virtual fallback needed" test "$v9" -eq "$v0"
fi

# The same large seq_file record once more, for two checks on the buffer.
check "tmpfs with a 3900-byte source mounted again" mount -t tmpfs "$src" "$dir"
want=$(md5sum </proc/self/mountinfo)
check "the record's checksum taken (md5sum present)" test -n "$want"

# Auto mode with the physical attempt forced to fail: fail_page_alloc fails
# every allocation of order >= 1 without direct reclaim, for this task only
# (task-filter, make-it-fail). vfallback's physical attempt is such an
# allocation, so the buffer must come from the virtual path, with the same
# bytes read.
FI=/sys/kernel/debug/fail_page_alloc
if [ "$expect" = auto ]; then
	echo 1 >$FI/min-order
	echo Y >$FI/ignore-gfp-wait
	echo Y >$FI/task-filter
	echo 0 >$FI/verbose
	echo 0 >$FI/space
	echo 1 >$FI/interval
	echo -1 >$FI/times
	echo 100 >$FI/probability
	p4=$(vmstat vfallback_physical) v4=$(vmstat vfallback_virtual)
	# The file is opened before the task is marked: the lookup of a new
	# /proc/<pid> allocates a dentry, and a dentry slab made then would
	# be virtual too and outlive this check (see stage 2).
	got=$( (exec 9</proc/self/mountinfo; echo 1 >/proc/self/make-it-fail && exec md5sum <&9) )
	p5=$(vmstat vfallback_physical) v5=$(vmstat vfallback_virtual)
	echo 0 >$FI/probability
	echo "forced: physical +$((p5 - p4)) virtual +$((v5 - v4))"
	check "auto, physical attempt failed by fail_page_alloc: virtual path taken" test $((v5 - v4)) -ge 1
	check "auto, physical attempt failed: the record read back intact" test "$got" = "$want"
	# Misses set the recent-miss hint (stage-2 patch 14); the look that
	# follows must still find the free blocks of this unfragmented guest
	# and make the attempt: nothing skipped in the whole scenario.
	if [ "$sk0" != none ]; then
		sk5=$(cat $SKF)
		check "auto, unfragmented, misses forced: no physical attempt skipped ($sk0 -> $sk5)" test "$sk5" = "$sk0"
	fi
fi

# memcg: the buffers are charged (GFP_KERNEL_ACCOUNT) to the reader's
# cgroup, page by page on the virtual path, and uncharged when freed. A
# shell in its own cgroup holds 6 buffers of 8 KiB (6 descriptors read to
# the end; a seq_file keeps its buffer until it is closed), using builtins
# only so that nothing else is charged meanwhile; memory.stat's "kernel"
# is read after 3 s each time (the memcg statistics flush every 2 s).
CG=/sys/fs/cgroup
if [ ! -f $CG/cgroup.controllers ]; then
	mkdir -p $CG
	mount -t cgroup2 none $CG
fi
echo +memory >$CG/cgroup.subtree_control
mkdir -p $CG/vf
mkfifo /tmp/vf-wait
# shellcheck disable=SC2016
out=$(sh -c '
	cg=$1
	echo $$ >$cg/cgroup.procs
	exec 9<>/tmp/vf-wait
	kmem() {
		read -t 3 x <&9
		while read -r k v; do [ "$k" = kernel ] && K=$v; done <$cg/memory.stat
	}
	kmem; k0=$K
	exec 3</proc/self/mountinfo 4</proc/self/mountinfo 5</proc/self/mountinfo \
		6</proc/self/mountinfo 7</proc/self/mountinfo 8</proc/self/mountinfo
	for fd in 3 4 5 6 7 8; do
		while read -r l <&$fd; do :; done
	done
	kmem; k1=$K
	exec 3<&- 4<&- 5<&- 6<&- 7<&- 8<&-
	kmem; k2=$K
	echo "$k0 $k1 $k2"
' sh $CG/vf)
rm -f /tmp/vf-wait
rmdir $CG/vf
# shellcheck disable=SC2086
set -- $out 0 0 0
if [ -z "$out" ]; then
	fail "memcg: the holder in its own cgroup printed nothing"
fi
echo "memcg kernel bytes: before $1, 6 buffers held $2, closed $3"
check "memcg: kernel charge rose by at least 6 buffers of 8 KiB" test $(($2 - $1)) -ge $((6 * 8192))
check "memcg: kernel charge fell by at least 6 buffers of 8 KiB on close" test $(($2 - $3)) -ge $((6 * 8192))
check "memcg: kernel charge back within one buffer of where it was" test $(($3 - $1)) -lt 8192 -a $(($1 - $3)) -lt 8192
umount "$dir"

if [ -w /sys/kernel/debug/kmemleak ]; then
	echo scan >/sys/kernel/debug/kmemleak; sleep 5; echo scan >/sys/kernel/debug/kmemleak
	leaks=$(grep -c '^unreferenced object' /sys/kernel/debug/kmemleak || true)
	check "kmemleak: no leaks ($leaks)" test "$leaks" -eq 0
fi
finish
