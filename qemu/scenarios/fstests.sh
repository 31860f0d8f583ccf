# fstests in the guest (make test-fstests, qemu/fstests.sh): the tests named
# in $VF_IN/tests, one ./check per test, on a 64 KiB-block XFS.
#
# The host's root is shared read-only (run.sh --share-ro hostroot=/) and
# becomes the root of a chroot: fstests' userspace (bash, perl, xfsprogs,
# dmsetup, the built checkout) is the host's own. Writable tmpfs goes over
# /tmp, /run, /var/tmp, /mnt, /home and /root; /etc/passwd, group and
# shadow are the host's plus fstests' users (fsgqa, fsgqa2, 123456-fsgqa);
# the results share is at /mnt/vf. TEST_DEV /dev/vda (made here with
# mkfs.xfs -b size=65536), SCRATCH_DEV /dev/vdb, MKFS_OPTIONS
# "-b size=65536", SOAK_DURATION vf.fstests_soak (90).
#
# Per test, as it finishes, one line in $VF_OUT/fstests.tsv:
#   TEST <tab> pass|fail|notrun|error <tab> REASON <tab> SECONDS
# (error: check ended without a verdict, a harness problem, not recorded by
# the host), and before it "start TEST" in $VF_OUT/progress, so that the
# host knows which test a crash or hang took. check's output per test in
# $VF_OUT/check/, its result files in $VF_OUT/fstests-results/. A test
# killed by its time limit (vf.fstests_timeout, 1800 s) ends the boot: the
# host goes on with the rest in a new one.
. /results/scenarios/common.lib
dir=$(vf_arg fstests_dir)
tmo=$(vf_arg fstests_timeout 1800)
soak=$(vf_arg fstests_soak 90)
H=/host
TSV=$VF_OUT/fstests.tsv
PROG=$VF_OUT/progress
: >"$TSV"
: >"$PROG"
mkdir -p "$VF_OUT/check"

setup_fail() {
	echo "FAIL: fstests setup: $*"
	echo "setup-failed $*" >>"$PROG"
	exit 1
}

[ -n "$dir" ] || setup_fail "no vf.fstests_dir= on the command line"
[ -s "$VF_IN/tests" ] || setup_fail "no test list in $VF_IN/tests"
mkdir -p $H
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,ro,cache=loose hostroot $H ||
	setup_fail "cannot mount the host root (9p tag hostroot; run.sh --share-ro hostroot=/)"
[ -x "$H$dir/check" ] || setup_fail "$dir/check not found in the host root"
for d in proc sys dev tmp run var/tmp mnt home root etc/passwd etc/group; do
	[ -e "$H/$d" ] || setup_fail "the host root has no /$d to mount over"
done
mount -t proc proc $H/proc
mount -t sysfs sysfs $H/sys
mount -t debugfs debugfs $H/sys/kernel/debug
mount -t tracefs tracefs $H/sys/kernel/tracing 2>/dev/null
mount -t devtmpfs devtmpfs $H/dev
# What udev would add: bash's <(...) needs /dev/fd (fstests' helpers use it).
[ -e $H/dev/fd ] || ln -s /proc/self/fd $H/dev/fd
for i in 0:stdin 1:stdout 2:stderr; do
	[ -e $H/dev/${i#*:} ] || ln -s /proc/self/fd/${i%%:*} $H/dev/${i#*:}
done
mkdir -p $H/dev/shm $H/dev/pts
mount -t tmpfs tmpfs $H/dev/shm
mount -t devpts devpts $H/dev/pts 2>/dev/null
mount -t tmpfs -o mode=1777 tmpfs $H/tmp
mount -t tmpfs -o mode=1777 tmpfs $H/var/tmp
for d in run mnt home root; do mount -t tmpfs -o mode=755 tmpfs $H/$d; done
mkdir -p $H/run/lock $H/run/fstests $H/mnt/test $H/mnt/scratch $H/mnt/vf
mount -o bind /results $H/mnt/vf || setup_fail "cannot bind the results share into the chroot"
[ -x "$H$dir/check" ] || setup_fail "$dir/check is hidden by the guest's own mounts (tmpfs over /tmp, /run, /mnt, /home, /root)"

# fstests' users, beside the host's (uids unlikely to be taken there).
mkdir -p /tmp/etc
cp $H/etc/passwd /tmp/etc/passwd
cp $H/etc/group /tmp/etc/group
cp $H/etc/shadow /tmp/etc/shadow 2>/dev/null || : >/tmp/etc/shadow
n=0
for u in fsgqa fsgqa2 123456-fsgqa; do
	n=$((n + 1))
	grep -q "^$u:" /tmp/etc/passwd && continue
	echo "$u:x:$((29000 + n)):$((29000 + n))::/home/$u:/bin/bash" >>/tmp/etc/passwd
	echo "$u:x:$((29000 + n)):" >>/tmp/etc/group
	echo "$u:*:19000:0:99999:7:::" >>/tmp/etc/shadow
	mkdir -p $H/home/$u
	chown $((29000 + n)):$((29000 + n)) $H/home/$u
done
for f in passwd group shadow; do
	[ -e $H/etc/$f ] && mount -o bind /tmp/etc/$f $H/etc/$f
done

cat >$H/run/fstests/local.config <<EOF
export FSTYP=xfs
export TEST_DEV=/dev/vda
export TEST_DIR=/mnt/test
export SCRATCH_DEV=/dev/vdb
export SCRATCH_MNT=/mnt/scratch
export MKFS_OPTIONS="-b size=65536"
export SOAK_DURATION=$soak
export RESULT_BASE=/mnt/vf/out/fstests-results
EOF

# in_root CMD...: CMD in the chroot with a clean environment. No udev runs
# here (the guest kernels have no inotify, which systemd-udevd needs):
# DM_DISABLE_UDEV=1 makes libdevmapper (dmsetup) make the /dev/mapper
# nodes itself, and busybox mdev turns each into udev's link to dm-N
# (fstests finds a dm device's /sys/fs/xfs/dm-N through that link).
# fstests waits with `udevadm wait` for a device that udev initialized,
# forever without udev: a udevadm first in PATH only settles (briefly, for
# mdev) and offers no "wait".
in_root() {
	chroot $H /usr/bin/env -i HOME=/root TERM=dumb LANG=C DM_DISABLE_UDEV=1 \
		PATH=/run/fstests/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOST_OPTIONS=/run/fstests/local.config "$@"
}
# The mdev handler (busybox sh, outside the chroot; /dev is the same
# devtmpfs). On a remove, drop links to that dm-N unless it is already
# another device's.
mkdir -p $H/run/fstests/bin
cat >$H/run/fstests/bin/udevadm <<'EOF2'
#!/bin/sh
# (qemu/scenarios/fstests.sh) no udev in this guest
case "$1" in
settle) sleep 0.2; exit 0 ;;
help | --help) echo "  settle   Wait for pending udev events"; exit 0 ;;
esac
[ -x /usr/bin/udevadm ] && exec /usr/bin/udevadm "$@"
exit 0
EOF2
chmod +x $H/run/fstests/bin/udevadm
cat >/etc/vf-dmlink <<'EOF2'
#!/bin/sh
n=$MDEV
case "$ACTION" in
remove)
	for l in /dev/mapper/*; do
		[ "$(readlink "$l")" = "../$n" ] || continue
		[ "$(cat "/sys/block/$n/dm/name" 2>/dev/null)" = "${l##*/}" ] || rm -f "$l"
	done ;;
*)
	name=$(cat "/sys/block/$n/dm/name" 2>/dev/null)
	[ -n "$name" ] && ln -sfn "../$n" "/dev/mapper/$name" ;;
esac
EOF2
chmod +x /etc/vf-dmlink
printf 'dm-[0-9]+ 0:0 660 */etc/vf-dmlink\n.* 0:0 660 !\n' >/etc/mdev.conf
mdev -d || echo "fstests: WARNING: mdev -d did not start: /dev/mapper holds nodes, not links to dm-N"
i=0
in_root dmsetup create vf-dm-probe --table "0 8 error" >"$VF_OUT/dm-probe.log" 2>&1
while [ ! -L /dev/mapper/vf-dm-probe ] && [ $i -lt 20 ]; do sleep 0.5; i=$((i + 1)); done
if [ -L /dev/mapper/vf-dm-probe ]; then
	echo "fstests: /dev/mapper links by mdev: checked"
else
	echo "fstests: WARNING: no /dev/mapper link for a probe device (dm-probe.log): tests that look up a dm device's sysfs directory will fail"
fi
in_root dmsetup remove vf-dm-probe >>"$VF_OUT/dm-probe.log" 2>&1

[ -b /dev/vda ] && [ -b /dev/vdb ] || setup_fail "no /dev/vda and /dev/vdb (run.sh --disk, twice)"
in_root mkfs.xfs -q -f -b size=65536 /dev/vda || setup_fail "mkfs.xfs -b size=65536 on TEST_DEV /dev/vda"

# The injection point of stage 3 (fail_minorder_folio= on the command
# line) prints a stack trace per injected failure by default: thousands of
# them over a serial console under TCG. Failures stay as configured.
FI=/sys/kernel/debug/fail_minorder_folio
[ -f $FI/verbose ] && echo 0 >$FI/verbose
vm() { awk -v k="$1" '$1 == k { print $2; f = 1 } END { if (!f) print "-" }' /proc/vmstat; }
counters() {
	echo "$1 filemap_minorder_fail=$(vm filemap_minorder_fail) vfallback_io_read=$(vm vfallback_io_read) vfallback_io_write=$(vm vfallback_io_write) fail_minorder_folio_probability=$(cat $FI/probability 2>/dev/null || echo -)" >>"$VF_OUT/counters"
}
counters boot
echo "fstests: $(uname -r), $(wc -l <"$VF_IN/tests") tests, limit ${tmo}s each, SOAK_DURATION=$soak"

RB=$VF_OUT/fstests-results
for t in $(cat "$VF_IN/tests"); do
	log=$VF_OUT/check/$(echo "$t" | tr / _).log
	echo "start $t" >>"$PROG"
	t0=$(date +%s)
	in_root /usr/bin/timeout -k 60 "$tmo" /bin/bash -c "cd '$dir' && exec ./check $t" >"$log" 2>&1
	rc=$?
	secs=$(( $(date +%s) - t0 ))
	stop=0
	if [ $rc = 124 ] || [ $rc = 137 ]; then
		status=fail reason="killed at the time limit of ${tmo}s"
		stop=1
	elif grep -q '^Not run:' "$log"; then
		status=notrun
		reason=$(head -n 1 "$RB/$t.notrun" 2>/dev/null)
		[ -n "$reason" ] || reason=$(grep -m1 '\[not run\]' "$log" | sed 's/.*\[not run\] *//')
	elif grep -q '^Passed all 0 tests' "$log"; then
		status=error reason="check ran no test (not in the checkout's group list? make in $dir)"
	elif grep -q '^Passed all' "$log"; then
		status=pass reason=
	elif grep -q '^Failures:' "$log"; then
		status=fail
		reason=$(grep -m1 "^$t " "$log" | sed -e "s|^$t *||" -e 's/^[0-9]*s \.\.\. *//' \
			-e 's/ *(see [^)]*)//g' -e 's/^ *//')
		hint=$(grep -m1 '^    [-+][^-+]' "$log" | sed 's/^ *//')
		[ -n "$hint" ] && reason="$reason: $hint"
		[ -n "$reason" ] || reason="failed (see check/$(basename "$log"))"
	else
		status=error
		reason="check ended without a verdict (exit $rc): $(grep -v '^ *$' "$log" | tail -n 1)"
	fi
	reason=$(echo "$reason" | tr '\t\r\n' '   ' | sed 's/ *$//' | cut -c1-240)
	printf '%s\t%s\t%s\t%s\n' "$t" "$status" "$reason" "$secs" >>"$TSV"
	echo "fstests: $t $status ${secs}s${reason:+ ($reason)}"
	[ $stop = 1 ] && break
done
counters end
# Leave nothing mounted on the disks (a stuck unmount is fine: reboot -f).
in_root umount /mnt/scratch /mnt/test 2>/dev/null
exit 0
