# Large-block fallback under mixed I/O (issue 16 stress): a 64 KiB-block
# XFS on a loop device, and the stack's injection point fail_minorder_folio
# failing a share of the large-block page cache folio allocations of
# everyone (vf.inject_pct=, default 20 %), so that blocks in the page cache
# and blocks served by the fallback mix in one file and one I/O:
#  0. sendfile() of a file none of whose blocks can get a folio (the
#     injection at 100 % for the sending task only): same bytes;
#  1. fio, three jobs on one file at once (mmap 16 KiB random writes,
#     buffered 16 KiB random writes, O_DIRECT libaio 64 KiB random writes;
#     each in its own 32 MiB of the file), crc32c-verified, then verified
#     again after the caches are dropped (reads through the injection);
#  2. a crash: 48 blocks appended one by one (some through the fallback,
#     the others left dirty in the page cache), "shutdown -f" (log
#     flushed, data not), remount: every block within the recovered size
#     holds what was written to it (the on-disk size covers only data that
#     reached the disk);
#  3. punch, zero and truncate inside blocks while a writer runs: every
#     operation works (the zeroing of a partial block whose folio the
#     injection failed takes the large-block reserve), no error at all;
#     the file system checks clean;
#  4. (vf.stress=full) stress-ng's file stressors with verification.
# Each part asserts that the fallback really ran and that blocks were
# also cached (a mix, not one path). The duration of the timed parts is
# vf.stress_secs= (default 20).
. /results/scenarios/common.lib
FI=/sys/kernel/debug/fail_minorder_folio
DEV=/dev/loop2
MNT=/mnt/xfs
pct=$(vf_arg inject_pct 20)
secs=$(vf_arg stress_secs 20)
mode=$(vf_arg stress short)

if [ ! -d $FI ]; then
	fail "fail_minorder_folio injection point exists (CONFIG_FAIL_MINORDER_FOLIO)"
	finish
	exit
fi
inject() { # inject PERCENT: every task, no stack dumps
	echo 0 >$FI/verbose
	echo N >$FI/task-filter
	echo 0 >$FI/space
	echo 1 >$FI/interval
	echo -1 >$FI/times
	echo "$1" >$FI/probability
}

lb_xfs 2G
echo "injection: fail_minorder_folio at $pct %, timed parts ${secs}s, mode $mode"

# counters NAME: fallback reads and writes, min-order failures, pages
# dirtied in the page cache, since the last call with the same NAME.
c_snap() { eval "r0_$1=$(vmstat vfallback_io_read) w0_$1=$(vmstat vfallback_io_write) m0_$1=$(vmstat filemap_minorder_fail) d0_$1=$(vmstat nr_dirtied)"; }
c_delta() {
	eval "dr=\$(( \$(vmstat vfallback_io_read) - r0_$1 )) dw=\$(( \$(vmstat vfallback_io_write) - w0_$1 ))"
	eval "dm=\$(( \$(vmstat filemap_minorder_fail) - m0_$1 )) dd=\$(( \$(vmstat nr_dirtied) - d0_$1 ))"
}

# ---- 0. splice read (sendfile) with no folio for any block
S=$MNT/src
xfs_io -f -c "pwrite -q -S 0x5a 0 1m" -c "pwrite -q -S 0xa5 1m 1m" -c "pwrite -q -S 0x3c 2m 12345" -c fsync $S
echo 3 >/proc/sys/vm/drop_caches
inject 100
echo Y >$FI/task-filter
c_snap sf
(echo 1 >/proc/self/make-it-fail && exec xfs_io -f -c "sendfile -q -i $S 0 $((2 * 1048576 + 12345))" $MNT/dst) >/tmp/sf.out 2>&1
rc=$?
c_delta sf
inject 0
echo "sendfile: rc=$rc ($(head -c 200 /tmp/sf.out | tr '\n' ' ')); fallback reads $dr, min-order failures $dm"
check "sendfile of blocks whose folios cannot be allocated: completes" test "$rc" = 0 -a ! -s /tmp/sf.out
check "sendfile: the copy has the same bytes" cmp $S $MNT/dst
check "sendfile: served by the read fallback" test "$dr" -gt 0
rm -f $S $MNT/dst

# ---- 1. fio: buffered, direct and mmap writers on one file
dmesg -c >/dev/null 2>&1
F=$MNT/mix
truncate -s 96M $F
inject "$pct"
c_snap fio
common="--filename=$F --size=32m --verify=crc32c --verify_fatal=1 --verify_state_save=0 --randrepeat=1 --fallocate=none"
# The mmap job stays at offset 0: fio 3.33's mmap engine shifts a job's
# I/O down by its offset= (its writes land in the region before it, and
# its verify reads there: seen on the host's tmpfs too, not a kernel
# matter).
# shellcheck disable=SC2086
fio --output=/tmp/fio-mix.out $common \
	--name=mmap --offset=0 --ioengine=mmap --rw=randwrite --bs=16k \
	--name=buffered --offset=32m --ioengine=psync --rw=randwrite --bs=16k \
	--name=direct --offset=64m --ioengine=libaio --direct=1 --iodepth=8 --rw=randwrite --bs=64k
wrc=$?
c_delta fio
echo "fio mixed writers: rc=$wrc; fallback reads $dr, writes $dw; min-order failures $dm; pages dirtied $dd"
check "fio: buffered, O_DIRECT and mmap writers on one file, each verified (crc32c)" test "$wrc" = 0
grep -c 'err= 0' /tmp/fio-mix.out | grep -qx 3 || { fail "fio: a job reported errors"; grep -i 'err\|verify' /tmp/fio-mix.out | head; }
check "fio: the fallback wrote blocks (injection at $pct %)" test "$dw" -gt 0
check "fio: other blocks went through the page cache (a mix)" test "$dd" -gt 0
sync
echo 3 >/proc/sys/vm/drop_caches
c_snap fiov
# shellcheck disable=SC2086
fio --output=/tmp/fio-ver.out $common --verify_only=1 \
	--name=mmap --offset=0 --ioengine=mmap --rw=randwrite --bs=16k \
	--name=buffered --offset=32m --ioengine=psync --rw=randwrite --bs=16k \
	--name=direct --offset=64m --ioengine=psync --rw=randwrite --bs=64k
vrc=$?
c_delta fiov
echo "fio verify after drop_caches: rc=$vrc; fallback reads $dr; min-order failures $dm"
check "fio: all three regions verify after dropping the caches" test "$vrc" = 0
check "fio: the fallback read blocks while verifying" test "$dr" -gt 0
inject 0
rm -f $F

# ---- 2. crash: the on-disk size covers only data that reached the disk
C=$MNT/crash
inject "$pct"
c_snap crash
# One appending writer (one writer: with two, a block written into the
# cache below a block that the fallback wrote later is legitimately lost
# inside the size), one 64 KiB pwrite per block, filled with the block's
# number (1-48).
w=""
for i in $(seq 0 47); do
	w="$w -c \"pwrite -q -S $((i + 1)) $((i * 65536)) 65536\""
done
eval "xfs_io -f $w $C"
r1=$?
c_delta crash
inject 0
echo "crash: writer rc=$r1; fallback writes $dw, pages dirtied $dd"
check "crash: the writer completed" test "$r1" = 0
check "crash: blocks went both ways (fallback and page cache)" test "$dw" -gt 0 -a "$dw" -lt 48
xfs_io -x -c "shutdown -f" $MNT
umount $MNT
if ! mount -t xfs $DEV $MNT; then
	fail "crash: remount (log recovery)"
else
	size=$(stat -c %s $C 2>/dev/null || echo 0)
	bad=0
	i=0
	while [ $((i * 65536)) -lt "$size" ]; do
		want=$(printf '%02x' $((i + 1)))
		got=$(od -An -tx1 -j $((i * 65536)) -N1 $C | tr -d ' ')
		last=$(od -An -tx1 -j $((i * 65536 + 65535)) -N1 $C | tr -d ' ')
		if [ "$got" != "$want" ] || [ "$last" != "$want" ]; then
			[ $bad = 0 ] && echo "crash: block $i reads $got..$last, written $want"
			bad=$((bad + 1))
		fi
		i=$((i + 1))
	done
	echo "crash: size after recovery $size ($((size / 65536)) blocks), $bad block(s) within it not as written"
	check "crash: every block within the recovered size is as written" test "$bad" = 0
	echo "crash test size=$size blocks_bad=$bad fallback_writes=$dw" >>"$VF_OUT/lbstress.txt"
fi
rm -f $C

# ---- 3. punch, zero and truncate inside blocks during writes
P=$MNT/punch
xfs_io -f -c "pwrite -q 0 8m" $P
inject "$pct"
c_snap punch
rt0=$(( $(vmstat minorder_alloc_reserve) + $(vmstat minorder_alloc_evict) ))
(
	end=$(($(date +%s) + secs))
	while [ "$(date +%s)" -lt $end ]; do
		xfs_io -c "pwrite -q -b 16k $(( (RANDOM % 120) * 65536 )) 48k" $P || echo "writer: error"
	done
) >/tmp/punch-w.out 2>&1 &
pw=$!
ops=0 enomem=0 other=0
end=$(($(date +%s) + secs))
while [ "$(date +%s)" -lt $end ]; do
	off=$(( (RANDOM % 128) * 65536 + 4096 * (1 + RANDOM % 14) ))
	case $((RANDOM % 3)) in
	0) op="fpunch $off 8192" ;;
	1) op="fzero $off 8192" ;;
	*) op="truncate $(( (64 + RANDOM % 64) * 65536 + 4096 * (1 + RANDOM % 14) ))" ;;
	esac
	out=$(xfs_io -c "$op" $P 2>&1)
	ops=$((ops + 1))
	if [ -n "$out" ]; then
		case $out in
		*"Cannot allocate memory"*) enomem=$((enomem + 1)) ;;
		*) other=$((other + 1)); [ $other -le 3 ] && echo "punch: $op: $out" ;;
		esac
	fi
done
wait $pw
c_delta punch
inject 0
werr=$(grep -c 'error\|Cannot\|failed' /tmp/punch-w.out || true)
wenomem=$(grep -c 'Cannot allocate memory' /tmp/punch-w.out || true)
rtake=$(( $(vmstat minorder_alloc_reserve) + $(vmstat minorder_alloc_evict) - rt0 ))
echo "punch/zero/truncate: $ops operations, $enomem ENOMEM, $other other errors; writer: $werr errors ($wenomem ENOMEM); fallback writes $dw; zeroing/fault folios from the reserve $rtake"
echo "punch ops=$ops enomem=$enomem other=$other writer_errors=$werr writer_enomem=$wenomem fallback_writes=$dw reserve=$rtake" >>"$VF_OUT/lbstress.txt"
check "punch/zero/truncate inside blocks: no error, ENOMEM included (zeroing takes the large-block reserve)" test "$other" = 0 -a "$enomem" = 0
check "punch/zero/truncate: the concurrent writer got no error (EOF zeroing included)" test "$werr" = 0
rm -f $P

# ---- 4. stress-ng file stressors (full mode)
if [ "$mode" = full ]; then
	inject "$pct"
	for s in "mmap 2 --mmap-file" "hdd 2 --hdd-opts wr-rnd,rd-rnd,sync" "hdd 2 --hdd-opts wr-seq,rd-seq,dsync" \
		"aiol 2" "aio 2" "fallocate 2" "sendfile 1" "copy-file 1" "splice 1"; do
		name=${s%% *}
		# shellcheck disable=SC2086
		stress-ng --temp-path $MNT --$s --verify --timeout "${secs}s" --metrics-brief >/tmp/sng.out 2>&1
		rc=$?
		echo "stress-ng $s: rc=$rc"
		echo "stress-ng $name rc=$rc" >>"$VF_OUT/lbstress.txt"
		check "stress-ng $s --verify under injection" test "$rc" = 0
		[ "$rc" = 0 ] || grep -i 'fail\|error\|verif' /tmp/sng.out | head -5
	done
	inject 0
fi

umount $MNT
if xfs_repair -n $DEV >/tmp/repair.out 2>&1; then
	pass "xfs_repair -n clean after the stress"
else
	fail "xfs_repair -n clean after the stress"
	head -20 /tmp/repair.out
fi
losetup -d $DEV
rm -f /tmp/lb.img
finish
