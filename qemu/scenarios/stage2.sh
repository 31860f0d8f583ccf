# Stage-2 scenario: the stage-1 scenario first (stacks are cumulative), then
# the atomic reserve's knobs and counters, and the dentry and buffer_head
# caches (SLAB_VFALLBACK) under a file-creation workload on ext4 with a
# 1 KiB block size (many buffer heads), data verified after a remount.
# Mode "always": those caches must have virtual slabs while the workload's
# files are cached; mode "auto" on an unfragmented guest: physical slabs.
. /results/scenarios/common.lib
expect=$(vf_arg expect)
kn=/sys/kernel/mm/vfallback

echo "---- stage-1 scenario"
if sh /results/scenarios/stage1.sh; then pass "stage-1 scenario"; else fail "stage-1 scenario"; fi
echo "---- stage 2"

for f in reserve_bytes reserve_free_bytes deferred_pages deferred_max; do
	check "knob $f exists" test -f $kn/$f
done
for c in vfallback_deferred vfallback_atomic_virtual vfallback_atomic_fail; do
	check "counter $c in /proc/vmstat" grep -q "^$c " /proc/vmstat
done
echo "atomic reserve: $(cat $kn/reserve_bytes) bytes, $(cat $kn/reserve_free_bytes) free"
check "atomic reserve set up" test "$(cat $kn/reserve_bytes)" -gt 0
old=$(cat $kn/deferred_max)
if echo 0 >$kn/deferred_max 2>/dev/null; then fail "deferred_max=0 rejected"; else pass "deferred_max=0 rejected (EINVAL)"; fi
check "deferred_max unchanged after invalid write" test "$(cat $kn/deferred_max)" = "$old"
check "reserve vmap area in /proc/vmallocinfo" grep -q 'vcompound-reserve' /proc/vmallocinfo

for c in dentry buffer_head; do
	check "$c cache has SLAB_VFALLBACK" test "$(cat /sys/kernel/slab/$c/vfallback)" = 1
	echo "$c: order $(cat /sys/kernel/slab/$c/order), $(cat /sys/kernel/slab/$c/objs_per_slab) objects per slab"
	check "$c slab order >= 4" test "$(cat /sys/kernel/slab/$c/order)" -ge 4
done

snapshot before
# Stage 1's forced physical misses (fail_page_alloc) can leave a virtual
# dentry slab behind that still holds objects: in mode auto the workload
# is judged by what it adds, the exact vfallback_virtual counter and the
# slabs it creates.
vw0=$(vmstat vfallback_virtual)
for c in dentry buffer_head; do
	eval "v0_$c=\$(cat /sys/kernel/slab/$c/slabs_virtual)"
done
truncate -s 192M /tmp/ext4.img
losetup /dev/loop1 /tmp/ext4.img
check "mkfs.ext4 -b 1024" mkfs.ext4 -q -b 1024 -N 40000 /dev/loop1
mkdir -p /mnt/x
check "mount ext4" mount -t ext4 /dev/loop1 /mnt/x
# 60 directories of 100 files, and one 16 MiB file: dentries and buffer heads.
d=0
while [ $d -lt 60 ]; do
	mkdir /mnt/x/d$d
	f=0
	while [ $f -lt 100 ]; do
		echo "file $d/$f of the vfallback stage-2 scenario" >/mnt/x/d$d/f$f
		f=$((f + 1))
	done
	d=$((d + 1))
done
dd if=/dev/urandom of=/mnt/x/big bs=1M count=16 2>/dev/null
sync
sum1=$(cd /mnt/x && find . -type f | sort | xargs cat | md5sum)
for c in dentry buffer_head; do
	v=$(cat /sys/kernel/slab/$c/slabs_virtual) p=$(cat /sys/kernel/slab/$c/slabs_physical)
	echo "$c while the files are cached: $v virtual slabs, $p physical slabs"
	if [ "$expect" = always ]; then
		check "always: $c lives in virtual slabs" test "$v" -gt 0
	else
		eval "vb=\$v0_$c"
		check "auto (unfragmented): $c has physical slabs" test "$p" -gt 0
		check "auto (unfragmented): no new virtual $c slab ($vb -> $v)" test "$v" -le "$vb"
	fi
done
if [ "$expect" != always ]; then
	vw1=$(vmstat vfallback_virtual)
	check "auto (unfragmented): the workload took no virtual fallback (vfallback_virtual $vw0 -> $vw1)" test "$vw1" -eq "$vw0"
fi
check "umount ext4" umount /mnt/x
echo 3 >/proc/sys/vm/drop_caches
check "mount ext4 again" mount -t ext4 /dev/loop1 /mnt/x
sum2=$(cd /mnt/x && find . -type f | sort | xargs cat | md5sum)
check "6000 files and 16 MiB read back identical after remount" test "$sum1" = "$sum2"
check "file count" test "$(find /mnt/x -type f | wc -l)" -eq 6001
umount /mnt/x
losetup -d /dev/loop1
settle_deferred
snapshot after
echo "after the workload: deferred_pages $(cat $kn/deferred_pages)," \
	"reserve free $(cat $kn/reserve_free_bytes) of $(cat $kn/reserve_bytes)"
check "no queued releases left" test "$(cat $kn/deferred_pages)" -eq 0

# A memory cgroup at its limit, mode auto. The block
# that the physical attempt finds is charged with the caller's flags, so
# a cgroup at its limit reclaims (here its own clean page cache) and the
# block stays physical. Charged with the attempt's flags (no reclaim), a
# charge at the limit failed whenever no margin was left: the block was
# freed, the request went virtual, and the failure was noted as a miss
# for every task (100 ms, that order and above) and woke kcompactd. A
# bash in a cgroup that holds 24 MiB of clean ext4 page cache and sits at
# its limit (memory.max = memory.current) opens 256 seq_files whose
# buffer grows to 8 KiB (GFP_KERNEL_ACCOUNT | __GFP_VFALLBACK, order 1:
# a record of more than 4 KiB, see stage 1) and keeps them open, so that
# each buffer is a new charge: none may go virtual. Before the fix some
# did, each time the margin that order-0 charges had reclaimed ran out.
if [ "$expect" = auto ]; then
	CG=/sys/fs/cgroup
	if [ ! -f $CG/cgroup.controllers ]; then
		mkdir -p $CG
		mount -t cgroup2 none $CG
	fi
	echo +memory >$CG/cgroup.subtree_control
	mkdir -p $CG/vflim /mnt/lim
	truncate -s 64M /tmp/lim.img
	losetup /dev/loop2 /tmp/lim.img
	check "memcg limit: ext4 for page cache" mkfs.ext4 -q /dev/loop2
	check "memcg limit: ext4 mounted" mount -t ext4 /dev/loop2 /mnt/lim
	dd if=/dev/urandom of=/mnt/lim/cache bs=1M count=24 2>/dev/null
	sync
	echo 3 >/proc/sys/vm/drop_caches
	src=$(head -c 3900 /dev/zero | tr '\0' s)
	dir=/tmp
	for _ in 1 2 3 4 5 6 7 8 9 10 11 12; do dir=$dir/$(head -c 200 /dev/zero | tr '\0' l); done
	mkdir -p "$dir"
	check "memcg limit: tmpfs with a 3900-byte source mounted" mount -t tmpfs "$src" "$dir"
	# shellcheck disable=SC2016
	out=$(bash -c '
		cg=$1
		echo $$ >$cg/cgroup.procs
		counters() {
			while read -r k n; do
				case $k in
				vfallback_physical) P=$n ;;
				vfallback_virtual) V=$n ;;
				esac
			done </proc/vmstat
			while read -r k n; do
				[ "$k" = max ] && M=$n
			done <$cg/memory.events
		}
		cat /mnt/lim/cache >/dev/null
		read -r cur <$cg/memory.current
		echo "$cur" >$cg/memory.max
		counters
		p0=$P v0=$V m0=$M
		fds=()
		for ((i = 0; i < 256; i++)); do
			exec {fd}</proc/self/mountinfo || break
			while read -r -u "$fd" _; do :; done
			fds+=("$fd")
		done
		counters
		echo "$p0 $P $v0 $V $m0 $M ${#fds[@]}"
	' bash $CG/vflim)
	umount "$dir"
	umount /mnt/lim
	losetup -d /dev/loop2
	rm -f /tmp/lim.img
	rmdir $CG/vflim 2>/dev/null || true
	# shellcheck disable=SC2086
	set -- $out 0 0 0 0 0 0 0
	echo "memcg limit: vfallback_physical $1 -> $2, vfallback_virtual $3 -> $4," \
		"memory.events max $5 -> $6, $7 buffers held"
	check "memcg limit: 256 seq_file buffers of 8 KiB held" test "$7" -eq 256
	check "memcg limit: the cgroup was at its limit (memory.events max $5 -> $6)" test "$6" -gt "$5"
	check "memcg limit: each buffer a physical block (vfallback_physical +$(($2 - $1)))" \
		test $(($2 - $1)) -ge 256
	check "memcg limit: no buffer went virtual (vfallback_virtual $3 -> $4)" test "$4" -eq "$3"
fi
if [ -w /sys/kernel/debug/kmemleak ]; then
	echo scan >/sys/kernel/debug/kmemleak; sleep 5; echo scan >/sys/kernel/debug/kmemleak
	leaks=$(grep -c '^unreferenced object' /sys/kernel/debug/kmemleak || true)
	check "kmemleak after stage 2: no leaks ($leaks)" test "$leaks" -eq 0
fi
finish
