# Large-block fallback races and errors (issue 16, items 1-5): one guest
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

# Item 2: writes to never-written parts of the data device fail (sparse
# backing file on a tmpfs that is then filled; the log on an external,
# fully written device, metadata on disk by a remount first).
T=/mnt/lbt
M=/mnt/lbx
D=/dev/loop4
L=/dev/loop5
mkdir -p $T $M
item2() {
	mount -t tmpfs -o size=256m tmpfs $T || return 2
	truncate -s 1G $T/data.img
	dd if=/dev/zero of=$T/log.img bs=1M count=128 2>/dev/null
	losetup $D $T/data.img && losetup $L $T/log.img || return 2
	mkfs.xfs -q -f -b size=65536 -l logdev=$L $D || return 2
	mount -t xfs -o logdev=$L $D $M || return 2
	lb-wb-error prepare $M/f || return 2
	umount $M
	mount -t xfs -o logdev=$L $D $M || return 2
	dd if=/dev/zero of=$T/fill bs=64k 2>/dev/null
	fail_folios 100
	lb-wb-error run $M/f
	rc=$?
	echo 0 >$FI/probability
	rm -f $T/fill
	umount $M
	losetup -d $D
	losetup -d $L
	umount $T
	return $rc
}
tool "item 2: another range's writeback error stays with fsync(), not the fallback's read()/write()" item2
finish
