#!/bin/sh
# Guest runner for test2 (issue 16, item 2). Needs the test2 binary, built
# static by mkinitramfs.sh from qemu/tools/${P}test2.c (P defaults to vf16-).
# Makes writes to unwritten parts of an XFS data device fail: the loop
# device's backing file is sparse on a small tmpfs that is then filled;
# the log is on an external, fully written device so log writes still
# succeed, and all metadata is written before the tmpfs is filled (remount).
# Exit status: test2's (0 pass, 1 bug, 2 setup).
T=/mnt/t16
M=/mnt/x16
D=/dev/loop4
L=/dev/loop5
FI=/sys/kernel/debug/fail_page_alloc

mkdir -p $T $M
mount -t tmpfs -o size=256m tmpfs $T || exit 2
truncate -s 1G $T/data.img
dd if=/dev/zero of=$T/log.img bs=1M count=128 2>/dev/null
losetup $D $T/data.img && losetup $L $T/log.img || exit 2
mkfs.xfs -q -f -b size=65536 -l logdev=$L $D || exit 2
mount -t xfs -o logdev=$L $D $M || exit 2
${P:-vf16-}test2 prepare $M/f || exit 2
umount $M
mount -t xfs -o logdev=$L $D $M || exit 2
dd if=/dev/zero of=$T/fill bs=64k 2>/dev/null
df $T | tail -1

# As stage3.sh's fail_folios 4: fail the block's folio order, this task only.
echo 4 >$FI/min-order
echo N >$FI/ignore-gfp-wait
echo N >$FI/ignore-gfp-highmem
echo Y >$FI/task-filter
echo 0 >$FI/verbose
echo -1 >$FI/times
echo 100 >$FI/probability

${P:-vf16-}test2 run $M/f
rc=$?
echo 0 >$FI/probability
rm -f $T/fill
umount $M
losetup -d $D
losetup -d $L
umount $T
echo "test2: exit $rc"
exit $rc
