# Throughput of the large-block fallback (guest side of
# bench/lb-fallback-io.sh; issue 16 item 7): a 64 KiB-block XFS on a loop
# device (tmpfs-backed), a file of vf.mb MiB (32) written and read in
# 1 MiB calls, through the page cache ("cache") and with every folio of
# the task failing, so that every block takes the fallback ("fallback":
# fail_page_alloc, min-order 4, task filter). Writes end with fsync
# (conv=fsync), reads start cold (caches dropped). The two paths alternate
# in order from rep to rep. Every file is compared with its source after
# the timed part.
# Parameters: vf.mb=32 vf.reps=3
# Output: $VF_OUT/lbio.txt, one "lbio ..." line of key=value per timed part.
. /results/scenarios/common.lib
FI=/sys/kernel/debug/fail_page_alloc
DEV=/dev/loop2
MNT=/mnt/xfs
mb=$(vf_arg mb 32) reps=$(vf_arg reps 3)
OUTF=$VF_OUT/lbio.txt
: >"$OUTF"

case "$mb$reps" in *[!0-9]*) fail "lbio: vf.mb=$mb vf.reps=$reps: whole numbers"; finish; exit ;; esac
[ -d $FI ] || { fail "lbio: fail_page_alloc (CONFIG_FAIL_PAGE_ALLOC)"; finish; exit; }
echo 4 >$FI/min-order
echo N >$FI/ignore-gfp-wait
echo N >$FI/ignore-gfp-highmem
echo Y >$FI/task-filter
echo 0 >$FI/verbose
echo 0 >$FI/space
echo 1 >$FI/interval
echo -1 >$FI/times
echo 100 >$FI/probability
lb_xfs 1G
dd if=/dev/urandom of=/tmp/ref bs=1M count="$mb" 2>/dev/null

now_ms() { awk '{ printf "%d", $1 * 1000 }' /proc/uptime; }
blocks() { echo $(( $(vmstat vfallback_io_read) + $(vmstat vfallback_io_write) )); }
# part REP PATH OP: one timed write or read; a line in $OUTF.
part() {
	mif=0
	[ "$2" = fallback ] && mif=1
	sync
	echo 3 >/proc/sys/vm/drop_caches
	b0=$(blocks) t0=$(now_ms)
	if [ "$3" = write ]; then
		(echo $mif >/proc/self/make-it-fail && exec dd if=/tmp/ref of=$MNT/f bs=1M conv=fsync 2>/dev/null)
	else
		(echo $mif >/proc/self/make-it-fail && exec dd if=$MNT/f of=/dev/null bs=1M 2>/dev/null)
	fi
	rc=$?
	t1=$(now_ms) b=$(( $(blocks) - b0 ))
	echo "lbio rep=$1 path=$2 op=$3 mb=$mb ms=$((t1 - t0)) rc=$rc fallback_blocks=$b" | tee -a "$OUTF"
	[ "$rc" = 0 ] || fail "lbio: $2 $3 (rep $1) exit $rc"
	if [ "$2" = fallback ]; then
		[ "$b" = $((mb * 16)) ] || fail "lbio: fallback $3 (rep $1): $b blocks through the fallback, not $((mb * 16))"
	else
		[ "$b" = 0 ] || fail "lbio: cache $3 (rep $1): $b blocks through the fallback"
	fi
}
for rep in $(seq "$reps"); do
	order="cache fallback"
	[ $((rep % 2)) = 0 ] && order="fallback cache"
	for path in $order; do
		rm -f $MNT/f
		part "$rep" "$path" write
		cmp -s /tmp/ref $MNT/f || fail "lbio: $path write (rep $rep): the file differs from its source"
		part "$rep" "$path" read
	done
done
echo 0 >$FI/probability
check "lbio: every part timed" test "$(grep -c '^lbio ' "$OUTF")" = $((reps * 4))
rm -f $MNT/f /tmp/ref
umount $MNT
losetup -d $DEV
finish
