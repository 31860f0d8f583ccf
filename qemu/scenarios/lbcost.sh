# Cost of the large-block fault path when memory is not fragmented (issue
# 17): a fresh 64 KiB-block XFS on a loop device, a 256 MiB file written
# and then dropped from the cache, fio ioengine=mmap random 16 KiB reads
# and then random 16 KiB writes, time-based (vf.cost_secs=, default 15),
# each with its caches dropped first so that the faults allocate. Writes
# the fio results and the counters that say how the folios were found
# (all from the free lists when nothing is fragmented) to lbcost.txt.
. /results/scenarios/common.lib
DEV=/dev/loop2
MNT=/mnt/xfs
arg() { sed -n "s/.*vf\.$1=\([0-9a-z]*\).*/\1/p" /proc/cmdline; }
secs=$(arg cost_secs)
secs=${secs:-15}
OUTF=$VF_OUT/lbcost.txt
: >"$OUTF"
truncate -s 1G /tmp/lb.img
losetup $DEV /tmp/lb.img
mkdir -p $MNT
if ! mkfs.xfs -q -f -b size=65536 $DEV || ! mount -t xfs $DEV $MNT; then
	fail "64 KiB-block XFS made and mounted"
	finish
	exit
fi
xfs_io -f -c "pwrite -q -b 1m 0 256m" -c fsync $MNT/f
echo "reserve: $(cat /sys/kernel/debug/lb_reserve 2>/dev/null || echo none)" | tee -a "$OUTF"
for rw in randread randwrite; do
	echo 3 >/proc/sys/vm/drop_caches
	n0=$(vmstat minorder_alloc_nostall) f0=$(vmstat pgmajfault)
	if fio --name=$rw --filename=$MNT/f --size=256m --ioengine=mmap --rw=$rw --bs=16k \
		--time_based --runtime="$secs" --randrepeat=1 --output-format=terse --terse-version=3 \
		--output=/tmp/fio.terse >/dev/null 2>&1; then
		# terse v3: field 7 read bw KiB/s, 8 read IOPS; 48 write bw, 49 write IOPS
		if [ $rw = randread ]; then
			bw=$(cut -d';' -f7 /tmp/fio.terse) iops=$(cut -d';' -f8 /tmp/fio.terse)
		else
			bw=$(cut -d';' -f48 /tmp/fio.terse) iops=$(cut -d';' -f49 /tmp/fio.terse)
		fi
		echo "cost rw=$rw bw_kib=$bw iops=$iops nostall=$(( $(vmstat minorder_alloc_nostall) - n0 )) majfault=$(( $(vmstat pgmajfault) - f0 ))" | tee -a "$OUTF"
		pass "fio mmap $rw"
	else
		fail "fio mmap $rw"
	fi
done
echo "counters: $(for c in minorder_alloc_nostall minorder_alloc_reserve minorder_alloc_direct minorder_alloc_evict minorder_alloc_fail lb_reserve_catch lb_reserve_take; do printf '%s=%s ' $c "$(vmstat $c)"; done)" | tee -a "$OUTF"
umount $MNT
losetup -d $DEV
finish
