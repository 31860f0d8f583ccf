# Cost of the large-block fault path when memory is not fragmented (issue
# 17), measured within one boot: a fresh 64 KiB-block XFS on a loop
# device, a file of vf.cost_mb= MiB (default 256) written and then dropped
# from the cache, then vf.cost_rounds= rounds (default 8) in which the
# mechanism is switched off and on through debugfs lb_progress (stage-3
# patch 15), in the order off,on in odd rounds and on,off in even ones
# (drift cancels). Each setting runs fio ioengine=mmap over the whole
# file in 64 KiB blocks, random order, each block once: first reads, then
# writes, each with the caches dropped first, so that every I/O is one
# fault that allocates its folio (IOPS = faults per second; a time-based
# run would mostly measure copies from mapped, cached blocks). Checks that
# the switch really switches: off, the reserve holds nothing and no fault
# goes through the progress path (minorder_alloc_nostall does not move);
# on, it does. Writes one line per run to lbcost.txt.
. /results/scenarios/common.lib
DEV=/dev/loop2
MNT=/mnt/xfs
SW=/sys/kernel/debug/lb_progress
mb=$(vf_arg cost_mb 256)
rounds=$(vf_arg cost_rounds 8)
OUTF=$VF_OUT/lbcost.txt
: >"$OUTF"
if [ ! -w $SW ]; then
	fail "debugfs lb_progress exists (stage-3 patch 15)"
	finish
	exit
fi
lb_xfs $((mb + 256))M
xfs_io -f -c "pwrite -q -b 1m 0 ${mb}m" -c fsync $MNT/f
# "node 0 target T pages P blocks ..." -> P summed over the nodes
reserve_pages() { awk '/^node/ { p += $6 } END { print p + 0 }' /sys/kernel/debug/lb_reserve; }
# Set the switch; on, wait (at most 10 s) for the refill to fill the reserve.
set_progress() {
	local t=0
	echo "$1" >$SW
	[ "$(cat $SW)" = "$1" ] || fail "lb_progress reads back $1"
	while [ "$1" = 1 ] && [ "$(reserve_pages)" -lt "$(awk '/^node/ { t += $4 } END { print t + 0 }' /sys/kernel/debug/lb_reserve)" ] && [ $t -lt 100 ]; do
		sleep 0.1
		t=$((t + 1))
	done
}
echo "reserve at start: $(cat /sys/kernel/debug/lb_reserve)" | tee -a "$OUTF"
bad_off=0 bad_on=0
for r in $(seq "$rounds"); do
	if [ $((r % 2)) = 1 ]; then order="0 1"; else order="1 0"; fi
	for p in $order; do
		set_progress "$p"
		res=$(reserve_pages)
		for rw in randread randwrite; do
			echo 3 >/proc/sys/vm/drop_caches
			n0=$(vmstat minorder_alloc_nostall) f0=$(vmstat pgmajfault)
			if fio --name=$rw --filename=$MNT/f --size=${mb}m --ioengine=mmap --rw=$rw --bs=64k \
				--randrepeat=1 --output-format=terse --terse-version=3 \
				--output=/tmp/fio.terse >/dev/null 2>&1; then
				# terse v3: field 7 read bw KiB/s, 8 read IOPS; 48 write bw, 49 write IOPS
				if [ $rw = randread ]; then
					bw=$(cut -d';' -f7 /tmp/fio.terse) iops=$(cut -d';' -f8 /tmp/fio.terse)
				else
					bw=$(cut -d';' -f48 /tmp/fio.terse) iops=$(cut -d';' -f49 /tmp/fio.terse)
				fi
				ns=$(( $(vmstat minorder_alloc_nostall) - n0 ))
				echo "cost round=$r progress=$p rw=$rw bw_kib=$bw iops=$iops nostall=$ns majfault=$(( $(vmstat pgmajfault) - f0 )) reserve_pages=$res" | tee -a "$OUTF"
				if [ "$p" = 0 ] && { [ "$ns" != 0 ] || [ "$res" != 0 ]; }; then bad_off=$((bad_off + 1)); fi
				if [ "$p" = 1 ] && { [ "$ns" = 0 ] || [ "$res" = 0 ]; }; then bad_on=$((bad_on + 1)); fi
			else
				fail "fio mmap $rw round $r progress=$p"
			fi
		done
	done
done
check "off: the reserve is empty and no fault takes the progress path ($bad_off runs otherwise)" test "$bad_off" = 0
check "on: the reserve is filled and faults take the progress path ($bad_on runs otherwise)" test "$bad_on" = 0
echo "counters: $(for c in minorder_alloc_nostall minorder_alloc_reserve minorder_alloc_direct minorder_alloc_evict minorder_alloc_fail lb_reserve_catch lb_reserve_take; do printf '%s=%s ' $c "$(vmstat $c)"; done)" | tee -a "$OUTF"
umount $MNT
losetup -d $DEV
finish
