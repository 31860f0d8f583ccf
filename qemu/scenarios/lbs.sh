#!/bin/bash
# Large-block workload of the benchmark (guest side; run by bench.sh with
# bash, for $EPOCHREALTIME): XFS on a loop device on tmpfs with 4, 16 and
# 64 KiB blocks; fio sequential (64 KiB) and random (16 KiB) buffered
# writes, then reads after dropping the caches; a metadata workload (files
# created per second). On stage kernels in scenario "none" also the cost
# of XFS buffers by kind: cold directory reads with multi-page buffers
# that are physical blocks, virtual blocks or vm_map_ram() mappings.
#
# lbs.sh OUTDIR SCENARIO REFRAG(0|1)
# Output: OUTDIR/lbs-raw.txt (one key=value line per measurement),
# OUTDIR/lbs/*.json (fio). A failed step is recorded (rc, errors), never
# dropped; the script itself exits 0 unless its arguments are wrong.
# LBS_PERF_BS=N (a block size of the list): after that size's measured
# cells, its sequential write once more under perf record -a (cpu-clock),
# the top symbols by task in OUTDIR/perf-top-lbs-N-seqwrite.txt; not a
# measurement (the profiled run's own time is not recorded).
set -u
out=${1:?usage: lbs.sh OUTDIR SCENARIO REFRAG} scen=${2:?} refrag=${3:?}
raw=$out/lbs-raw.txt
mkdir -p "$out/lbs"
: >"$raw"
dev=/dev/loop4 mnt=/mnt/lbs img=/tmp/lbs.img
knob=/sys/module/xfs/parameters/vfallback_buffers
mode=/sys/kernel/mm/vfallback/mode
mkdir -p $mnt

vmstat() { awk -v k="$1" '$1 == k { print $2; f = 1 } END { if (!f) print 0 }' /proc/vmstat; }
fallback_ios() { echo $(( $(vmstat vfallback_io_read) + $(vmstat vfallback_io_write) )); }
refrag() {
	[ "$refrag" = 1 ] || return 0
	echo 3 >/proc/sys/vm/drop_caches
	echo 1 >/proc/sys/vm/compact_memory
	echo refrag >/sys/kernel/debug/vffrag/control
}
now() { echo "${EPOCHREALTIME/[,.]/}"; }	# microseconds

# fio_cell BS NAME RW IOSIZE FILE
fio_cell() {
	local bs=$1 name=$2 rw=$3 io=$4 file=$5 f0 rc json=$out/lbs/lbs-$1-$2.json
	f0=$(fallback_ios)
	fio --name="$name" --filename="$mnt/$file" --rw="$rw" --bs="$io" --size=64m \
		--ioengine=psync --end_fsync=1 --randrepeat=1 --output-format=json \
		--output="$json" >/dev/null 2>"$out/lbs/lbs-$bs-$name.err"
	rc=$?
	echo "fsblock=$bs workload=$name rc=$rc fallback_ios=$(( $(fallback_ios) - f0 )) json=lbs/lbs-$bs-$name.json" >>"$raw"
	echo "lbs: ${bs}-byte blocks, $name: fio exit $rc"
}

# lbs_profile BS: see LBS_PERF_BS above. A failure is reported on the
# console and leaves no profile file (bench/perf.sh checks for it).
lbs_profile() {
	local bs=$1 t=$out/perf-top-lbs-$1-seqwrite.txt
	if perf record -q -a -e cpu-clock -o /tmp/lbs-perf.data -- \
		fio --name=profile --filename="$mnt/profile" --rw=write --bs=64k --size=64m \
		--ioengine=psync --end_fsync=1 --output=/dev/null >/dev/null 2>"$out/lbs/perf-$bs.err"; then
		{
			echo "# perf record -a -e cpu-clock: fio sequential buffered write, 64 KiB I/Os, 64 MiB, XFS with $bs-byte blocks, scenario $scen"
			echo "# top symbols by task, whole guest (fio, writeback, idle)"
			perf report -i /tmp/lbs-perf.data --stdio --sort comm,symbol 2>/dev/null |
				grep -v '^#' | grep -v '^$' | head -30
		} >"$t"
		echo "lbs: ${bs}-byte blocks, profile of seqwrite: $(basename "$t")"
	else
		echo "lbs: ${bs}-byte blocks: perf record of seqwrite failed:"
		sed 's/^/    /' "$out/lbs/perf-$bs.err"
	fi
	rm -f /tmp/lbs-perf.data "$mnt/profile"
}

# files_cell BS NAME N: create N files in one directory (bash builtins).
files_cell() {
	local bs=$1 name=$2 n=$3 i t0 t1 made=0 f0
	mkdir -p $mnt/meta
	f0=$(fallback_ios)
	t0=$(now)
	for ((i = 0; i < n; i++)); do
		: >"$mnt/meta/file-with-a-long-name-$i" 2>/dev/null || break
		made=$((made + 1))
	done
	t1=$(now)
	echo "fsblock=$bs workload=$name rc=$((made == n ? 0 : 1)) files=$made usec=$((t1 - t0)) fallback_ios=$(( $(fallback_ios) - f0 ))" >>"$raw"
	rm -rf $mnt/meta
}

# Without the fallback (plain 6.12) and under fragmentation, the page
# cache's failing min-order folio allocations warn with a stack trace: that
# is the behaviour measured here, so the console checker is told to expect
# it (on kernels with the fallback, the workload must stay splat-free).
expect_warn=0
if [ "$refrag" = 1 ] && ! grep -q '^vfallback_io_read ' /proc/vmstat; then
	expect_warn=1
	echo "VF-EXPECT-SPLAT-BEGIN large-block workload without fallback: page allocation failures expected" >/dev/kmsg
fi

for bs in 4096 16384 65536; do
	rm -f $img
	truncate -s 768M $img
	if ! losetup $dev $img || ! mkfs.xfs -q -f -b size=$bs $dev || ! mount -t xfs $dev $mnt; then
		echo "fsblock=$bs workload=setup rc=1" >>"$raw"
		echo "lbs: ${bs}-byte blocks: losetup/mkfs/mount failed"
		umount $mnt 2>/dev/null
		losetup -d $dev 2>/dev/null
		continue
	fi
	refrag
	fio_cell $bs seqwrite write 64k seq
	fio_cell $bs randwrite randwrite 16k rand
	sync
	refrag
	echo 3 >/proc/sys/vm/drop_caches
	fio_cell $bs seqread read 64k seq
	echo 3 >/proc/sys/vm/drop_caches
	fio_cell $bs randread randread 16k rand
	rm -f $mnt/seq $mnt/rand
	refrag
	files_cell $bs metadata 2000
	[ "${LBS_PERF_BS:-}" = "$bs" ] && lbs_profile $bs
	umount $mnt
	losetup -d $dev
done

[ "$expect_warn" = 1 ] && echo "VF-EXPECT-SPLAT-END large-block workload" >/dev/kmsg

# The cost of XFS buffers by kind (stage kernels, fresh memory only):
# 20 directories of 300 files with 64 KiB directory blocks, read cold
# (ls -l) three times per kind.
if [ -f $knob ] && [ -f $mode ] && [ "$scen" = none ] &&
	losetup $dev $img && mkfs.xfs -q -f -b size=4096 -n size=65536 $dev &&
	mount -t xfs $dev $mnt; then
	for ((d = 0; d < 20; d++)); do
		mkdir $mnt/d$d
		for ((i = 0; i < 300; i++)); do : >"$mnt/d$d/file-with-a-long-name-$i"; done
	done
	old_mode=$(sed 's/.*\[\(.*\)\].*/\1/' $mode)
	for kind in physical virtual vmapped; do
		case $kind in
		physical) echo 1 >$knob; echo auto >$mode ;;
		virtual) echo 1 >$knob; echo always >$mode ;;
		vmapped) echo 0 >$knob; echo auto >$mode ;;
		esac
		for rep in 1 2 3; do
			umount $mnt && mount -t xfs $dev $mnt
			echo 3 >/proc/sys/vm/drop_caches
			b0=$(awk '$1 == "buf_memory" { print $2 " " $3 " " $4 " " $5 }' /proc/fs/xfs/stat)
			t0=$(now)
			ls -l $mnt/d* >/dev/null 2>&1
			rc=$?
			t1=$(now)
			b1=$(awk '$1 == "buf_memory" { print $2 " " $3 " " $4 " " $5 }' /proc/fs/xfs/stat)
			echo "fsblock=4096 workload=bufcost-$kind rc=$rc files=6000 usec=$((t1 - t0)) rep=$rep buf_before=${b0// /,} buf_after=${b1// /,}" >>"$raw"
		done
		echo "lbs: buffer cost, $kind: done"
	done
	echo 1 >$knob
	echo "$old_mode" >$mode
	umount $mnt
	losetup -d $dev
fi
rm -f $img
exit 0
