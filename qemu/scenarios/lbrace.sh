# Large-block fallback races and errors (issue 16, items 1-5 and 7): one guest
# tool per race on a 64 KiB-block XFS, the fallback forced for the tool's
# thread that must take it (fail_page_alloc min-order 4, task-filter,
# make-it-fail set per thread). Each tool exits 0 (behaviour right), 1 (the
# defect showed) or 2 (setup failed or the fallback never ran: a test that
# did not test, counted as a failure here).
. /results/scenarios/common.lib
FI=/sys/kernel/debug/fail_page_alloc
DEV=/dev/loop2
MNT=/mnt/xfs
secs=$(vf_arg race_secs 30)

tool() { # tool NAME COMMAND...: one PASS/FAIL line from the exit status
	name=$1
	shift
	"$@"
	rc=$?
	case $rc in
	0) pass "$name" ;;
	1) fail "$name (the defect showed)" ;;
	*) fail "$name (exit $rc: setup failed or the fallback was not taken)" ;;
	esac
}

fail_folios() { # as stage3.sh: the block's folio order fails, tasks that ask only
	echo 4 >$FI/min-order
	echo N >$FI/ignore-gfp-wait
	echo N >$FI/ignore-gfp-highmem
	echo Y >$FI/task-filter
	echo 0 >$FI/verbose
	echo 0 >$FI/space
	echo 1 >$FI/interval
	echo -1 >$FI/times
	echo "$1" >$FI/probability
}

fail_folios 100
lb_xfs 1G

dmesg -c >/dev/null 2>&1
tool "item 1: fallback read() of a hole while it is written through mmap: no EIO (${secs}s)" \
	lb-read-vs-mkwrite $MNT/t1 "$secs" 2
echo "dmesg 'Direct I/O collision' lines: $(dmesg | grep -c 'Direct I/O collision')"
rm -f $MNT/t1
tool "item 3: fallback write() from a buffer that is unmapped meanwhile: no EFAULT" \
	lb-write-efault $MNT/t3 200
rm -f $MNT/t3
tool "item 4: fallback read-modify-write waits for in-flight AIO O_DIRECT writes" \
	lb-rmw-vs-aio $MNT/t4 32 1
rm -f $MNT/t4
# The same without the fallback, for comparison: printed, not asserted.
# On 6.12's page cache path the AIO write cannot invalidate the folio that
# the racing buffered write holds; iomap prints "Page cache invalidation
# failure on direct I/O" and sets EIO in the mapping's error sequence
# (dio_warn_stale_pagecache()), so fsync() fails: upstream behaviour for
# buffered and direct I/O mixed on one block, not this stack's.
lb-rmw-vs-aio $MNT/t4 32 0
echo "lb-rmw-vs-aio without the fallback (page cache path): exit $? (not asserted)"
rm -f $MNT/t4
tool "read() into a shared mapping of the block it reads returns the block (no livelock, 20 s bound)" \
	lb-read-self-mmap $MNT/t34 20
rm -f $MNT/t34
tool "item 5: after a shutdown, the on-disk size covers only written data" \
	lb-crash-size $MNT/t5 $DEV $MNT
rm -f $MNT/t5
# Item 7 (smaller): a write served by the fallback counts its bytes once
# in XFS's xs_write_bytes (the direct write's completion counted them
# too), and a synchronous write (here: a file system mounted -o sync, so
# IS_SYNC() holds for every inode) is synced once (the direct write
# synced at its completion, then the buffered write's generic_write_sync()).
xpc_write() { awk '$1 == "xpc" { print $3 }' /proc/fs/xfs/stat; }
w0=$(xpc_write) f0=$(vmstat vfallback_io_write)
(echo 1 >/proc/self/make-it-fail && exec xfs_io -f -c "pwrite -q 0 65536" $MNT/t7)
w=$(( $(xpc_write) - w0 )) f=$(( $(vmstat vfallback_io_write) - f0 ))
echo "item 7: one 64 KiB write, $f through the fallback: xs_write_bytes +$w"
check "item 7: a fallback write counts its bytes once in xs_write_bytes" test "$f" = 1 -a "$w" = 65536
rm -f $MNT/t7
TR=/sys/kernel/debug/tracing
# Item 7: contiguous blocks without a folio move in one direct I/O (up to
# 8 blocks, 512 KiB). The events of iomap:iomap_fallback_io name each I/O's
# position and length; a cached block is read from the page cache and ends
# the batch. Reads and writes are single 1 MiB calls (dd bs=1M).
fb_ios() { # fb_ios read|write: "pos+length ..." of the traced fallback I/Os
	grep -o "pos 0x[0-9a-f]* length 0x[0-9a-f]* $1" $TR/trace | awk '{ printf "%s+%s ", $2, $4 }'
}
fb_trace() { [ "$1" = 1 ] && echo >$TR/trace; echo "$1" >$TR/events/iomap/iomap_fallback_io/enable; }
dd if=/dev/urandom of=/tmp/ref bs=64k count=16 2>/dev/null
if [ ! -f $TR/events/iomap/iomap_fallback_io/enable ]; then
	fail "item 7: the tracepoint iomap:iomap_fallback_io"
else
	cp /tmp/ref $MNT/t7r && sync && echo 3 >/proc/sys/vm/drop_caches
	r0=$(vmstat vfallback_io_read)
	fb_trace 1
	(echo 1 >/proc/self/make-it-fail && exec dd if=$MNT/t7r of=/tmp/t7r.out bs=1M 2>/dev/null)
	rc=$?
	fb_trace 0
	ios=$(fb_ios read) r=$(( $(vmstat vfallback_io_read) - r0 ))
	echo "item 7: cold 1 MiB read (one read()), every folio failing: exit $rc, fallback I/Os $ios, vfallback_io_read +$r"
	check "item 7: a cold 1 MiB read moves 8 blocks per direct I/O, data intact" \
		test "$rc" = 0 -a "$ios" = "0x0+0x80000 0x80000+0x80000 " -a "$r" = 16
	cmp -s /tmp/ref /tmp/t7r.out || fail "item 7: batched fallback read: data differs"
	# Blocks 2 and 9 cached (random access: no readahead), the rest not.
	echo 3 >/proc/sys/vm/drop_caches
	xfs_io -c "fadvise -r" -c "pread 131072 65536" -c "pread 589824 65536" $MNT/t7r >/dev/null
	r0=$(vmstat vfallback_io_read)
	fb_trace 1
	(echo 1 >/proc/self/make-it-fail && exec dd if=$MNT/t7r of=/tmp/t7r.out bs=1M 2>/dev/null)
	rc=$?
	fb_trace 0
	ios=$(fb_ios read) r=$(( $(vmstat vfallback_io_read) - r0 ))
	echo "item 7: 1 MiB read, blocks 2 and 9 cached: exit $rc, fallback I/Os $ios, vfallback_io_read +$r"
	check "item 7: a cached block ends the batch and is read from the page cache, data intact" \
		test "$rc" = 0 -a "$ios" = "0x0+0x20000 0x30000+0x60000 0xa0000+0x60000 " -a "$r" = 14
	cmp -s /tmp/ref /tmp/t7r.out || fail "item 7: fallback read around cached blocks: data differs"
	w0=$(vmstat vfallback_io_write)
	fb_trace 1
	(echo 1 >/proc/self/make-it-fail && exec dd if=/tmp/ref of=$MNT/t7w bs=1M 2>/dev/null)
	rc=$?
	fb_trace 0
	ios=$(fb_ios write) w=$(( $(vmstat vfallback_io_write) - w0 ))
	sync && echo 3 >/proc/sys/vm/drop_caches
	echo "item 7: 1 MiB write (one write()), every folio failing: exit $rc, fallback I/Os $ios, vfallback_io_write +$w"
	check "item 7: a 1 MiB write moves 8 blocks per direct I/O, data intact" \
		test "$rc" = 0 -a "$ios" = "0x0+0x80000 0x80000+0x80000 " -a "$w" = 16
	cmp -s /tmp/ref $MNT/t7w || fail "item 7: batched fallback write: data differs"
	rm -f $MNT/t7r $MNT/t7w /tmp/t7r.out
fi
# Item 7: the mount's pool of bounce buffers. fail_fallback_bounce fails
# every bounce buffer of this task (physical and virtual), as when memory
# is fragmented and the window of virtual compounds is short: one block
# at a time (64 KiB calls), each fallback must take a block of the pool.
# times counts down once per injected failure: two per block (the
# fallback's own allocation, then mempool_alloc()'s try before it takes a
# block of the pool), 64 for 16 reads and 16 writes.
BF=/sys/kernel/debug/fail_fallback_bounce
if [ ! -d $BF ]; then
	fail "item 7: the fault-injection point fail_fallback_bounce"
else
	echo Y >$BF/task-filter
	echo 0 >$BF/verbose
	echo 0 >$BF/space
	echo 1 >$BF/interval
	echo 1000 >$BF/times
	echo 100 >$BF/probability
	cp /tmp/ref $MNT/t7p && sync && echo 3 >/proc/sys/vm/drop_caches
	(echo 1 >/proc/self/make-it-fail && exec dd if=$MNT/t7p of=/tmp/t7p.out bs=64k 2>/tmp/t7p.err)
	rrc=$?
	(echo 1 >/proc/self/make-it-fail && exec dd if=/tmp/ref of=$MNT/t7q bs=64k 2>>/tmp/t7p.err)
	wrc=$?
	n=$(( 1000 - $(cat $BF/times) ))
	echo 0 >$BF/probability
	echo -1 >$BF/times
	sync && echo 3 >/proc/sys/vm/drop_caches
	echo "item 7: every bounce buffer failing: read exit $rrc, write exit $wrc, $n injected failures ($(grep -v records /tmp/t7p.err | tr '\n' ' '))"
	check "item 7: fallback reads and writes take the mount's pool when no bounce buffer can be had" \
		test "$rrc" = 0 -a "$wrc" = 0 -a "$n" = 64
	cmp -s /tmp/ref /tmp/t7p.out || fail "item 7: fallback read from the pool: data differs"
	cmp -s /tmp/ref $MNT/t7q || fail "item 7: fallback write from the pool: data differs"
	rm -f $MNT/t7p $MNT/t7q /tmp/t7p.out /tmp/t7p.err
fi
umount $MNT
if ! mount -t xfs -o sync $DEV $MNT || [ ! -f $TR/events/xfs/xfs_file_fsync/enable ]; then
	fail "item 7: mount -o sync and the tracepoint xfs:xfs_file_fsync"
else
	echo >$TR/trace
	echo 1 >$TR/events/xfs/xfs_file_fsync/enable
	f0=$(vmstat vfallback_io_write)
	(echo 1 >/proc/self/make-it-fail && exec xfs_io -f -c "pwrite -q 0 65536" $MNT/t7s)
	f=$(( $(vmstat vfallback_io_write) - f0 ))
	echo 0 >$TR/events/xfs/xfs_file_fsync/enable
	n=$(grep -c 'xfs_file_fsync:' $TR/trace)
	echo "item 7: one 64 KiB write on a -o sync mount, $f through the fallback: $n xfs_file_fsync events"
	check "item 7: a synchronous fallback write is synced once" test "$f" = 1 -a "$n" = 1
	rm -f $MNT/t7s
fi
echo 0 >$FI/probability
umount $MNT
losetup -d $DEV
rm -f /tmp/lb.img

# Items 2 and 7: writes to never-written parts of the data device fail
# (sparse backing file on a tmpfs that is then filled; the log on an
# external, fully written device, metadata on disk by a remount first).
T=/mnt/lbt
M=/mnt/lbx
D=/dev/loop4
L=/dev/loop5
mkdir -p $T $M
# full_device TOOL: "TOOL prepare" on a fresh file system, then "TOOL run"
# with the device failing and every folio of the tool failing; the
# fallback I/Os of the run are traced into /tmp/full-device.ios.
full_device() {
	mount -t tmpfs -o size=256m tmpfs $T || return 2
	truncate -s 1G $T/data.img
	dd if=/dev/zero of=$T/log.img bs=1M count=128 2>/dev/null
	losetup $D $T/data.img && losetup $L $T/log.img || return 2
	mkfs.xfs -q -f -b size=65536 -l logdev=$L $D || return 2
	mount -t xfs -o logdev=$L $D $M || return 2
	"$1" prepare $M/f || return 2
	umount $M
	mount -t xfs -o logdev=$L $D $M || return 2
	dd if=/dev/zero of=$T/fill bs=64k 2>/dev/null
	fail_folios 100
	fb_trace 1
	"$1" run $M/f
	rc=$?
	fb_trace 0
	fb_ios write >/tmp/full-device.ios
	echo 0 >$FI/probability
	rm -f $T/fill
	umount $M
	losetup -d $D
	losetup -d $L
	umount $T
	return $rc
}
tool "item 2: another range's writeback error stays with fsync(), not the fallback's read()/write()" \
	full_device lb-wb-error
# Item 7: a batched fallback write whose direct I/O fails (blocks 1-7 of
# 8 cannot be written) is redone for its first block and comes back short.
tool "item 7: a batched fallback write that fails comes back short with the blocks written" \
	full_device lb-batch-error
ios=$(cat /tmp/full-device.ios)
echo "item 7: fallback write I/Os traced: $ios"
check "item 7: the failing write was one batched direct I/O, then its first block alone" \
	test "${ios%% 0x10000+*}" = "0x0+0x80000 0x0+0x10000"
# Bounce buffers handed to a layer that takes page references. Last in
# the scenario: without the fix, mode phys leaves pages that the allocator
# owns in the mount's pool, and a debug kernel leaves a dead loop worker
# with the I/O in flight; neither file system is touched after that.
# XFS with 64 KiB blocks on a loop device whose backing file is on the 9p
# share: loop -> 9p read_iter/write_iter (cache=none: P9L_DIRECT) -> netfs
# unbuffered I/O -> trans_virtio zero-copy -> iov_iter_get_pages_alloc2(),
# which takes a reference on every page of the fallback's bounce buffer.
P9IMG=$VF_OUT/lb9p.img
D9=/dev/loop6
M9=/mnt/lb9p
MF=/sys/kernel/debug/fail_minorder_folio
BFB=/sys/kernel/debug/fail_fallback_bounce
fi_task() { # fi_task DIR PERCENT: the injection point DIR, tasks with make-it-fail only
	echo Y >$1/task-filter
	echo 0 >$1/verbose
	echo 0 >$1/space
	echo 1 >$1/interval
	echo -1 >$1/times
	echo "$2" >$1/probability
}
echo 0 >$FI/probability
rm -f $P9IMG
mkdir -p $M9
if [ ! -d $MF ] || [ ! -d $BFB ] || ! truncate -s 1G $P9IMG || ! losetup $D9 $P9IMG ||
	! mkfs.xfs -q -f -K -b size=65536 $D9 || ! mount -t xfs $D9 $M9; then
	fail "bounce buffers under 9p: 64 KiB-block XFS on a loop device backed by a file on the 9p share"
else
	echo "bounce buffers under 9p: $D9 backed by $(losetup $D9 2>/dev/null); $(grep " /results " /proc/mounts)"
	# virt: every allocation of order >= 4 of the tool fails (the page cache
	# folio and the bounce buffer's physical attempt): virtual bounce buffers.
	fail_folios 100
	tool "bounce buffers under 9p: a virtual bounce buffer under 9p zero-copy (loop): no page freed by 9p, no kernel report, data intact" \
		lb-9p-bounce virt $M9/v 4
	echo 0 >$FI/probability
	if [ "$rc" != 1 ]; then
		# phys: the page cache folio fails, every bounce buffer fails: each
		# fallback takes a block of the mount's pool, physical (allocated at
		# mount, nothing failing then).
		fi_task $MF 100
		fi_task $BFB 100
		tool "bounce buffers under 9p: a physical bounce buffer (the mount's pool) under 9p zero-copy (loop): no page freed by 9p, no kernel report, data intact" \
			lb-9p-bounce phys $M9/p 4
		echo 0 >$MF/probability
		echo 0 >$BFB/probability
	fi
	if [ "$rc" = 1 ]; then
		echo "bounce buffers under 9p: the defect showed: $M9 and $D9 are left as they are"
	else
		umount $M9 && losetup -d $D9 && rm -f $P9IMG ||
			fail "bounce buffers under 9p: umount of the 9p-backed file system"
	fi
fi
finish
