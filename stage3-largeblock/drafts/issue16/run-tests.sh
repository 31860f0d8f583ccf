#!/bin/sh
# Guest runner for the issue-16 tests (busybox sh). The test*.c files are
# copied into qemu/tools/ (mkinitramfs.sh builds every qemu/tools/*.c with
# gcc -static -O2 -Wall -Werror into /usr/bin/<name>), e.g. as
# vf16-test1.c ... vf16-test5.c; set P to the prefix used (default "vf16-").
# Runs test1, test3, test4, test5 on a fresh 64 KiB-block XFS on /dev/loop2
# with fail_page_alloc set up as stage3.sh's fail_folios 4 (min-order 4,
# task filter: only the threads of the tests that set make-it-fail), then
# test2.sh (its own device setup). Prints PASS/FAIL per test; a test that
# exits 2 (setup or fallback not exercised) is reported as SKIP.
P=${P:-vf16-}
FI=/sys/kernel/debug/fail_page_alloc
DEV=/dev/loop2
MNT=/mnt/xfs
fails=0

result() {
	case $2 in
	0) echo "PASS: $1" ;;
	1) echo "FAIL: $1"; fails=$((fails + 1)) ;;
	*) echo "SKIP: $1 (exit $2)" ;;
	esac
}

echo 4 >$FI/min-order
echo N >$FI/ignore-gfp-wait
echo N >$FI/ignore-gfp-highmem
echo Y >$FI/task-filter
echo 0 >$FI/verbose
echo -1 >$FI/times
echo 100 >$FI/probability

truncate -s 1G /tmp/xfs16.img
losetup $DEV /tmp/xfs16.img
mkdir -p $MNT
mkfs.xfs -q -f -b size=65536 $DEV && mount -t xfs $DEV $MNT || exit 2

dmesg -c >/dev/null 2>&1
${P}test1 $MNT/t1 30 2; rc=$?
dmesg | grep -c 'Direct I/O collision' | sed 's/^/test1: dmesg collisions: /'
result "item 1: fallback read() vs. page_mkwrite() over a hole" $rc
rm -f $MNT/t1

${P}test3 $MNT/t3 200; result "item 3: no EFAULT from a valid buffer" $?
rm -f $MNT/t3

${P}test4 $MNT/t4 32 1; result "item 4: fallback RMW vs. in-flight AIO O_DIRECT" $?
rm -f $MNT/t4
# For comparison (page cache path, not asserted): the same without fallback.
${P}test4 $MNT/t4 32 0; echo "test4 without the fallback (6.12 page cache path): exit $?"
rm -f $MNT/t4

${P}test5 $MNT/t5 $DEV $MNT; result "item 5: on-disk size does not get ahead of data" $?
rm -f $MNT/t5

echo 0 >$FI/probability
umount $MNT
losetup -d $DEV
rm -f /tmp/xfs16.img

sh "$(dirname "$0")/test2.sh"; result "item 2: writeback errors stay with fsync()" $?
echo "issue16 tests: $fails failure(s)"
[ $fails = 0 ]
