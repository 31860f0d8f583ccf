# Stage-3 scenario: the stage-2 scenario first (stacks are cumulative), then
# large blocks on XFS (loop device on tmpfs):
#  - the xfs.vfallback_buffers knob and the new counters;
#  - a metadata matrix: -b 4096 -n 65536, -b 16384, -b 65536, each fresh
#    and under the unmovable fragmenter (vffrag.ko): many-files workload,
#    forced shutdown, log replay on remount, xfs_repair -n clean, the
#    vcompound areas back to their baseline after unmount;
#  - file data on 64 KiB blocks: fio with crc32c verify (sequential and
#    random writes, read back after dropping the caches), with the
#    fallback forced by fail_page_alloc and under the fragmenter;
#  - a whole-block write from a half-unmapped buffer (qemu/tools/shortwrite.c);
#  - truncates inside a block, and MADV_PAGEOUT of one block of a larger
#    folio (qemu/tools/lb-pageout.c);
#  - memory offline of a memory block holding large-block reserve blocks;
#  - mmap of a large-block file while folios cannot be allocated
#    (measured and printed, not asserted);
#  - a file system larger than the guest's memory mounts.
# Mode "always" (vf.expect=always): multi-page XFS buffers are virtual.
. /results/scenarios/common.lib
expect=$(vf_arg expect)
knob=/sys/module/xfs/parameters/vfallback_buffers
FI=/sys/kernel/debug/fail_page_alloc
FRAG=/sys/kernel/debug/vffrag
# Pages the fragmenter gave back in OOM rescues so far (0 when not loaded).
frag_oom_released() {
	if [ -f $FRAG/status ]; then
		sed -n 's/.*oom_released=\([0-9]*\).*/\1/p' $FRAG/status
	else
		echo 0
	fi
}
DEV=/dev/loop2
MNT=/mnt/xfs

echo "---- stage-2 scenario"
if sh /results/scenarios/stage2.sh; then pass "stage-2 scenario"; else fail "stage-2 scenario"; fi
echo "---- stage 3"

# buf_memory FIELD: multi-page XFS buffers so far (physical, virtual, bulk:
# mapped ones from bulk pages, unmapped: XBF_UNMAPPED ones, always bulk)
# or vm_map_ram() mappings (vmapped), from /proc/fs/xfs/stat.
buf_memory() {
	awk -v f="$1" '$1 == "buf_memory" {
		i = (f == "physical") ? 2 : (f == "virtual") ? 3 : (f == "bulk") ? 4 : (f == "unmapped") ? 6 : 5
		print $i }' /proc/fs/xfs/stat
}
# Virtual compounds that are not slabs: virtual slabs of SLAB_VFALLBACK
# caches (dentry, buffer_head) come and go with the dentry cache, in mode
# "always" on every boot.
# Dentries are freed after an RCU grace period, and their slabs with
# them: a slab released between the two readings would count as a stray
# area. So the areas are counted between two equal slab counts, with no
# release queued (at most 20 tries).
vcompounds() {
	t=0
	while :; do
		settle_deferred
		s0=$(slabs_virtual)
		n=$(vc_areas)
		s1=$(slabs_virtual)
		if [ "$s0" = "$s1" ] && [ "$(cat /sys/kernel/mm/vfallback/deferred_pages)" = 0 ]; then
			break
		fi
		t=$((t + 1))
		[ $t -lt 20 ] || break
	done
	echo $((n - s1))
}

check "knob xfs.vfallback_buffers exists" test -f $knob
check "knob is on by default" test "$(cat $knob)" = Y
if echo 2 >$knob 2>/dev/null; then fail "vfallback_buffers=2 rejected"; else pass "vfallback_buffers=2 rejected (EINVAL)"; fi
if echo bogus >$knob 2>/dev/null; then fail "vfallback_buffers=bogus rejected"; else pass "vfallback_buffers=bogus rejected (EINVAL)"; fi
check "knob unchanged after invalid writes" test "$(cat $knob)" = Y
check "buf_memory line in /proc/fs/xfs/stat" grep -q '^buf_memory ' /proc/fs/xfs/stat
for c in filemap_minorder_fail vfallback_io_read vfallback_io_write; do
	check "counter $c in /proc/vmstat" grep -q "^$c " /proc/vmstat
done
check "fail_page_alloc in debugfs" test -d $FI

truncate -s 1G /tmp/xfs.img
losetup $DEV /tmp/xfs.img
mkdir -p $MNT

# metadata NAME MKFS-OPTIONS...: many files with xattrs and renames, a
# forced shutdown with the log flushed, remount (log replay), files all
# there, xfs_repair -n clean, vcompound areas back to the baseline.
metadata() {
	fs=$1	# not "name": check() in common.lib uses that
	shift
	settle_deferred
	base=$(vcompounds)
	bp0=$(buf_memory physical) bv0=$(buf_memory virtual) bb0=$(buf_memory bulk)
	or0=$(frag_oom_released)
	if ! mkfs.xfs -q -f "$@" $DEV; then fail "$fs: mkfs.xfs $*"; return; fi
	if ! mount -t xfs $DEV $MNT; then fail "$fs: mount"; return; fi
	mkdir -p $MNT/stress $MNT/d
	stress-ng --dir 1 --dentry 1 --rename 1 --xattr 1 --timeout 8s \
		--temp-path $MNT/stress --quiet >/tmp/stress.out 2>&1 ||
		{ fail "$fs: stress-ng dir/dentry/rename/xattr"; cat /tmp/stress.out; }
	# The forks above gave memory back: fragment again before the part
	# that runs on shell builtins only.
	[ "$frag" = unmovable ] && echo refrag >$FRAG/control
	i=0
	while [ $i -lt 1500 ]; do
		: >$MNT/d/file-with-a-long-name-$i
		i=$((i + 1))
	done
	mv $MNT/d/file-with-a-long-name-7 $MNT/d/renamed-7
	check "$fs: forced shutdown (log flushed)" xfs_io -x -c "shutdown -f" $MNT
	umount $MNT
	# The unmount freed every buffer, physical ones as free blocks of
	# their order: fragment again, or log replay and the reads after it
	# would take exactly those blocks back.
	[ "$frag" = unmovable ] && echo refrag >$FRAG/control
	if ! mount -t xfs $DEV $MNT; then fail "$fs: remount after shutdown (log replay)"; return; fi
	n=$(ls $MNT/d | wc -l)
	check "$fs: 1500 files after log replay ($n)" test "$n" = 1500
	check "$fs: rename survived log replay" test -e $MNT/d/renamed-7
	rm -rf $MNT/stress
	umount $MNT
	# Inode clusters are read as XBF_UNMAPPED buffers, which are never
	# mapped: they take bulk pages, never a block (a virtual block would
	# be mapped for nothing). ls -l after a fresh mount reads the inode of
	# each of the 1500 files (xfs_imap_to_bp(): 12 or more clusters, 128
	# inodes of 512 bytes per 64 KiB cluster, 32 per 16 KiB cluster with
	# 4 and 16 KiB blocks) and, besides them, only the directory's blocks
	# (at most 8 multi-page ones). bulkstat would not do: its cluster
	# readahead creates the buffers mapped. Under the fragmenter the
	# buffer shrinker may free buffers during the walk and both kinds are
	# read again (debug variant: 17 bulk, 10 blocks where 12 and 2 are
	# usual; once 74 bulk and 98 blocks, with three other guests on the
	# host): the number of mapped buffers says how often the shrinker made
	# the walk re-read, not what the clusters took. Clusters taking blocks
	# would leave under 8 bulk buffers: that is the check.
	if mount -t xfs $DEV $MNT; then
		ub0=$(buf_memory unmapped) ubk0=$(( $(buf_memory physical) + $(buf_memory virtual) ))
		if ls -l $MNT/d >/tmp/ls.out 2>&1; then
			ub=$(( $(buf_memory unmapped) - ub0 )) ubk=$(( $(buf_memory physical) + $(buf_memory virtual) - ubk0 ))
			echo "$fs: ls -l: $ub unmapped multi-page buffers (bulk pages), $ubk blocks"
			check "$fs: inode clusters (XBF_UNMAPPED) from bulk pages, not blocks ($ub bulk >= 8; $ubk mapped buffers besides, directory blocks and re-reads)" \
				test "$ub" -ge 8
		else
			fail "$fs: ls -l of 1500 files"
			tail -5 /tmp/ls.out
		fi
		umount $MNT
	else
		fail "$fs: mount for the inode reads"
	fi
	if xfs_repair -n $DEV >/tmp/repair.out 2>&1; then
		pass "$fs: xfs_repair -n clean"
	else
		fail "$fs: xfs_repair -n"
		tail -20 /tmp/repair.out
	fi
	settle_deferred
	now=$(vcompounds)
	# Mode "always": every GFP_VFALLBACK user is virtual, among them the
	# seq_file buffer that reads /proc/vmallocinfo itself and other /proc
	# readers: a few areas come and go (measured: up to 4). A leak of XFS
	# buffers would be hundreds (one per multi-page buffer).
	slack=0
	[ "$expect" = always ] && slack=8
	if [ "$now" -gt $((base + slack)) ]; then
		echo "$fs: vcompound areas now (slabs: $(slabs_virtual)):"
		grep ' vcompound$\| vcompound ' /proc/vmallocinfo | head -20
	fi
	check "$fs: non-slab vcompound areas back to baseline after unmount ($base -> $now, slack $slack)" \
		test "$now" -le $((base + slack))
	bp=$(( $(buf_memory physical) - bp0 )) bv=$(( $(buf_memory virtual) - bv0 )) bb=$(( $(buf_memory bulk) - bb0 ))
	echo "$fs: multi-page buffers: $bp physical, $bv virtual, $bb bulk"
	echo "metadata $fs frag=$frag physical=$bp virtual=$bv bulk=$bb" >>"$VF_OUT/stage3-buffers.txt"
	if [ "$expect" = always ]; then
		check "$fs: always: multi-page buffers are virtual" test "$bv" -gt 0 -a "$bp" = 0
	elif [ "$frag" = none ]; then
		check "$fs: multi-page buffers are one block each" test $((bp + bv)) -gt 0
	else
		# The fragmenter gives held pages back when an allocation of a
		# small order (a fork's task_struct slab, an order-2 slab under
		# KASAN) would kill: each such rescue rebuilds blocks of order
		# >= 1, and a file system with few multi-page buffers (4k-n64k:
		# only directory blocks) may then find every block physical.
		# Not a failure of the fallback, so said, not asserted; without
		# a rescue meanwhile the fallback must have served some.
		orel=$(( $(frag_oom_released) - or0 ))
		if [ "$bv" = 0 ] && [ "$orel" -gt 0 ]; then
			skip "$fs: fragmented: no multi-page buffer virtual, but the fragmenter's OOM rescue gave back $orel pages meanwhile"
		else
			check "$fs: fragmented: multi-page buffers fall back to virtual ($orel pages given back by OOM rescues)" test "$bv" -gt 0
		fi
	fi
	check "$fs: no bulk-allocated multi-page buffer while the knob is on" test "$bb" = 0
}

# fio_verify NAME RW BS [make-it-fail]: write 32 MiB with crc32c checksums,
# drop the caches, read it back and verify (the same order: sequential or
# random). With make-it-fail, fail_page_alloc fails every allocation of
# the block's folio order made by fio.
fio_verify() {
	job=$1 rw=$2 bs=$3 mif=${4:-0}
	common="--name=$job --filename=$MNT/$job --rw=$rw --bs=$bs --size=32m --ioengine=psync --verify=crc32c --verify_state_save=0 --randrepeat=1"
	r0=$(vmstat vfallback_io_read) w0=$(vmstat vfallback_io_write) m0=$(vmstat filemap_minorder_fail)
	# shellcheck disable=SC2086
	(echo "$mif" >/proc/self/make-it-fail && exec fio $common --do_verify=0) >/tmp/fio-w.out 2>&1
	wrc=$?
	sync
	echo 3 >/proc/sys/vm/drop_caches
	# shellcheck disable=SC2086
	(echo "$mif" >/proc/self/make-it-fail && exec fio $common --verify_only=1) >/tmp/fio-r.out 2>&1
	rrc=$?
	r=$(( $(vmstat vfallback_io_read) - r0 )) w=$(( $(vmstat vfallback_io_write) - w0 ))
	m=$(( $(vmstat filemap_minorder_fail) - m0 ))
	echo "$job ($rw $bs, frag=$frag, forced=$mif): fio write rc=$wrc, verify rc=$rrc; fallback reads $r, writes $w; min-order failures $m"
	echo "fio $job rw=$rw bs=$bs frag=$frag forced=$mif write_rc=$wrc verify_rc=$rrc fallback_read=$r fallback_write=$w minorder_fail=$m" >>"$VF_OUT/stage3-fio.txt"
	check "$job: fio write completes" test "$wrc" = 0
	check "$job: fio verify (crc32c) after dropping caches" test "$rrc" = 0
	grep -q 'err= 0' /tmp/fio-r.out || { fail "$job: fio reported errors"; grep -i 'err\|verify' /tmp/fio-r.out | head; }
	if [ "$mif" = 1 ]; then
		check "$job: forced: min-order folio allocations failed" test "$m" -gt 0
		check "$job: forced: reads served by the fallback" test "$r" -gt 0
		check "$job: forced: writes served by the fallback" test "$w" -gt 0
	fi
	rm -f "$MNT/$job"
}

# mmap_probe NAME TIMES: map a cold 1 MiB range of a large-block file and
# read it while the first TIMES allocations of the block's folio order fail
# (-1: all of them; the read is then stopped after 15 s). Page faults need
# the folio: before stage-3 patch 12 they were retried without end; since,
# the large-block reserve serves them.
mmap_probe() {
	dd if=/dev/urandom of=$MNT/mmap.dat bs=64k count=16 2>/dev/null
	sync
	echo 3 >/proc/sys/vm/drop_caches
	echo "$2" >$FI/times
	m0=$(vmstat filemap_minorder_fail)
	read -r t0 _ </proc/uptime
	(echo 1 >/proc/self/make-it-fail && exec timeout 15 xfs_io -r -c "mmap -r 0 1m" -c "mread 0 1m" $MNT/mmap.dat) \
		>/tmp/mmap.out 2>&1
	rc=$?
	read -r t1 _ </proc/uptime
	m=$(( $(vmstat filemap_minorder_fail) - m0 ))
	echo "mmap $1: mread of 1 MiB of a cold 64 KiB-block file, $2 folio allocations failing: exit $rc after $t0..$t1 s, $m min-order failures ($(tail -c 160 /tmp/mmap.out | tr '\n' ' '))"
	echo "mmap $1 failing=$2 rc=$rc t0=$t0 t1=$t1 minorder_fail=$m" >>"$VF_OUT/stage3-mmap.txt"
	# Since stage-3 patch 12, the large-block reserve serves the faults.
	[ -f /sys/kernel/debug/lb_reserve ] &&
		check "mmap $1: the faults complete (large-block reserve), data read" test "$rc" = 0
	echo -1 >$FI/times
	rm -f $MNT/mmap.dat
}

# progress_probe: debugfs lb_progress (stage-3 patch 15). Off, the reserve
# gives every block back and has size 0, and faults (MADV_RANDOM: no
# readahead, each fault allocates its folio) do not take the progress
# path (minorder_alloc_nostall stays); a value other than 0 or 1 is
# refused; on, the reserve is filled again (within 10 s) and faults take
# the path again.
progress_probe() {
	sw=/sys/kernel/debug/lb_progress res=/sys/kernel/debug/lb_reserve f=$MNT/progress.dat
	held() { awk '/^node/ { p += $6 } END { print p + 0 }' $res; }
	size() { awk '/^node/ { t += $4 } END { print t + 0 }' $res; }
	faults() { # the nostall count that a cold 1 MiB mread adds
		echo 3 >/proc/sys/vm/drop_caches
		n0=$(vmstat minorder_alloc_nostall)
		xfs_io -r -c "mmap -r 0 1m" -c "madvise -r 0 1m" -c "mread 0 1m" $f >/dev/null 2>&1 ||
			echo "progress: mread failed" >&2
		echo $(( $(vmstat minorder_alloc_nostall) - n0 ))
	}
	check "lb_progress: on by default" test "$(cat $sw)" = 1
	xfs_io -f -c "pwrite -q 0 1m" -c fsync $f
	echo 0 >$sw
	check "lb_progress off: reads back 0" test "$(cat $sw)" = 0
	h=$(held) z=$(size)
	check "lb_progress off: the reserve holds nothing and has size 0 ($h pages, size $z)" test "$h.$z" = 0.0
	n=$(faults)
	check "lb_progress off: faults take the ordinary path ($n through the progress path)" test "$n" = 0
	if echo 2 >$sw 2>/dev/null; then fail "lb_progress: 2 accepted"; else pass "lb_progress: 2 refused"; fi
	echo 1 >$sw
	i=0
	while [ $i -lt 100 ] && { [ "$(size)" = 0 ] || [ "$(held)" -lt "$(size)" ]; }; do
		sleep 0.1
		i=$((i + 1))
	done
	h=$(held) z=$(size)
	check "lb_progress on: the reserve is filled again ($h of $z pages)" test "$z" -gt 0 -a "$h" -ge "$z"
	n=$(faults)
	check "lb_progress on: faults take the progress path ($n of 16)" test "$n" -gt 0
	rm -f $f
}

fail_folios() {
	echo "$1" >$FI/min-order
	echo N >$FI/ignore-gfp-wait
	echo N >$FI/ignore-gfp-highmem
	echo Y >$FI/task-filter
	echo 0 >$FI/verbose
	echo -1 >$FI/times
	echo 100 >$FI/probability
}

: >"$VF_OUT/stage3-buffers.txt"
: >"$VF_OUT/stage3-fio.txt"
: >"$VF_OUT/stage3-mmap.txt"
snapshot before
# truncate_probe NAME: a cached 256 KiB file on the mounted 64 KiB-block
# XFS cut to sizes inside a block (the page cache must split or drop the
# straddling folio, never below the minimum order), checked for size and
# data in the cache and again after the cache was dropped.
truncate_probe() {
	dd if=/dev/urandom of=/tmp/trunc.ref bs=4096 count=64 2>/dev/null
	cp /tmp/trunc.ref $MNT/trunc.dat && cat $MNT/trunc.dat >/dev/null
	tok=1
	for sz in 200000 131072 70000 4097; do
		truncate -s $sz $MNT/trunc.dat || tok=0
		head -c $sz /tmp/trunc.ref >/tmp/trunc.exp
		[ "$(stat -c %s $MNT/trunc.dat)" = $sz ] || tok=0
		cmp -s /tmp/trunc.exp $MNT/trunc.dat || tok=0
	done
	sync && echo 3 >/proc/sys/vm/drop_caches
	cmp -s /tmp/trunc.exp $MNT/trunc.dat || tok=0
	check "$1: truncates inside a block keep size and data (cached and from disk)" test $tok = 1
	rm -f $MNT/trunc.dat /tmp/trunc.ref /tmp/trunc.exp
}

# pageout_probe: madvise(MADV_PAGEOUT) over one block of a cached folio
# of two or more blocks (readahead makes them) must split it to the
# block size (stage-3 patch 7); before, the split asked for order 0, was
# refused (a warning under DEBUG_VM) and the folio stayed whole.
# qemu/tools/lb-pageout.c; data compared afterwards.
pageout_probe() {
	dd if=/dev/urandom of=$MNT/pageout.dat bs=1M count=8 2>/dev/null
	sync && echo 3 >/proc/sys/vm/drop_caches
	cat $MNT/pageout.dat >/dev/null
	out=$(lb-pageout $MNT/pageout.dat 65536 2>&1) && prc=0 || prc=$?
	echo "pageout: $out"
	check "$1: MADV_PAGEOUT of one block of a larger folio splits it to the block size, data intact ($out)" \
		test "$prc" = 0
	rm -f $MNT/pageout.dat
}

frag=none
metadata "4k-n64k" -b size=4096 -n size=65536
metadata "16k" -b size=16384
metadata "64k" -b size=65536

# File data on 64 KiB blocks (folio order 4), the fallback forced.
mkfs.xfs -q -f -b size=65536 $DEV && mount -t xfs $DEV $MNT || fail "64k: mkfs and mount for fio"
fail_folios 4
fio_verify seq-forced write 64k 1
fio_verify rand-forced randwrite 16k 1
# A whole-block write whose user buffer is half unmapped: the fallback
# must write only the bytes it copied and keep the block's old ones.
w0=$(vmstat vfallback_io_write)
(echo 1 >/proc/self/make-it-fail && exec shortwrite $MNT/short.dat 65536) >/tmp/short.out 2>&1
src=$?
cat /tmp/short.out
check "short user copy: block holds only new and old bytes (shortwrite exit $src)" test "$src" = 0
check "short user copy: went through the fallback" test "$(vmstat vfallback_io_write)" -gt "$w0"
rm -f $MNT/short.dat
mmap_probe forced-100 100
mmap_probe forced-all -1
echo 0 >$FI/probability
truncate_probe 64k
pageout_probe 64k
# The mount set the large-block reserve up (default size), from wherever
# free 64 KiB blocks were: memory offline of a block holding some.
if [ -f /sys/kernel/debug/lb_reserve_blocks ] && [ -d /sys/devices/system/memory ]; then
	echo "lb_reserve: $(cat /sys/kernel/debug/lb_reserve)"
	drain_probe
fi
[ -w /sys/kernel/debug/lb_progress ] && progress_probe
umount $MNT

# The knob off: the bulk path of 6.12, with vm_map_ram().
echo 0 >$knob
bb0=$(buf_memory bulk) vm0=$(buf_memory vmapped) bp0=$(buf_memory physical) bv0=$(buf_memory virtual)
mkfs.xfs -q -f -b size=4096 -n size=65536 $DEV && mount -t xfs $DEV $MNT
mkdir $MNT/d && i=0 && while [ $i -lt 500 ]; do : >$MNT/d/file-with-a-long-name-$i; i=$((i + 1)); done
umount $MNT
mount -t xfs $DEV $MNT && ls $MNT/d >/dev/null && umount $MNT
check "knob off: multi-page buffers from the bulk allocator" test $(( $(buf_memory bulk) - bb0 )) -gt 0
check "knob off: and mapped with vm_map_ram()" test $(( $(buf_memory vmapped) - vm0 )) -gt 0
check "knob off: no block buffers" test $(( $(buf_memory physical) + $(buf_memory virtual) - bp0 - bv0 )) = 0
echo 1 >$knob

# Under the unmovable fragmenter: no free block of order >= 1 is left.
# The workloads fork (order-2 stacks): an OOM call releases 512 held
# pages, so that they make progress (the benchmark releases fewer).
if insmod "$VF_IN/vffrag.ko" keep_mb=384 oom_batch=512 && [ -f $FRAG/status ]; then
	pass "vffrag.ko loaded"
	echo 3 >/proc/sys/vm/drop_caches
	echo 1 >/proc/sys/vm/compact_memory
	echo refrag >$FRAG/control
	cat $FRAG/status
	cat /proc/buddyinfo
	snapshot frag
	frag=unmovable
	SKF=/sys/kernel/mm/vfallback/physical_skips
	sk0=$(cat $SKF 2>/dev/null || echo none)
	metadata "4k-n64k-frag" -b size=4096 -n size=65536
	metadata "16k-frag" -b size=16384
	metadata "64k-frag" -b size=65536
	mkfs.xfs -q -f -b size=65536 $DEV && mount -t xfs $DEV $MNT || fail "64k-frag: mkfs and mount for fio"
	echo refrag >$FRAG/control
	fio_verify seq-frag write 64k
	echo refrag >$FRAG/control
	fio_verify rand-frag randwrite 16k
	truncate_probe 64k-frag
	umount $MNT
	# Mode auto: after a miss, doomed physical attempts are skipped
	# (stage-2 patch 14): no free block of order >= 1 is left here.
	if [ "$sk0" != none ] && grep -q '\[auto\]' /sys/kernel/mm/vfallback/mode; then
		sk1=$(cat $SKF)
		echo "physical attempts skipped while fragmented: $((sk1 - sk0))"
		check "auto, fragmented: doomed physical attempts skipped ($sk0 -> $sk1)" test "$sk1" -gt "$sk0"
	fi
	# A file system larger than the guest's memory still mounts.
	truncate -s 64G /tmp/big.img
	losetup /dev/loop3 /tmp/big.img
	check "64 GiB xfs (64 KiB blocks): mkfs" mkfs.xfs -q -f -b size=65536 /dev/loop3
	check "64 GiB xfs: mounts with 2 GiB of RAM, fragmented" mount -t xfs /dev/loop3 $MNT
	df -h $MNT | tail -1
	umount $MNT
	losetup -d /dev/loop3
	rm -f /tmp/big.img
	cat $FRAG/status
	check "rmmod vffrag (frees every held page)" rmmod vffrag
else
	fail "insmod vffrag.ko"
fi
frag=none
snapshot after

losetup -d $DEV
rm -f /tmp/xfs.img
finish
