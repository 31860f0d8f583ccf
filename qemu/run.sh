#!/bin/bash
# Boot a kernel with the project initramfs and run one guest scenario.
#
#   run.sh --kernel BZIMAGE --name NAME --scenario S [--mem 2G] [--cpus 2]
#          [--timeout SEC] [--accel auto|tcg|kvm] [--append ARGS] [--in FILE]...
#          [--no-splat-check] [--disk FILE]... [--share-ro TAG=DIR]...
#          [--icount] [--interactive]
#
# --interactive: the guest's console on this terminal (and still logged),
# for scenarios that read from it (make shell); Ctrl-A X stops QEMU.
#
# --icount (or ICOUNT=1 in the environment): TCG with QEMU's instruction
# counter as the guest's clock (-icount shift=0,sleep=off, one TCG thread
# for all vCPUs): every in-guest time (ktime, TSC) is then a count of
# executed guest instructions (1 ns each), not host time, so figures do
# not move with the host's load. It models no caches or TLBs. The
# accelerator is recorded as "tcg-icount" (build/runs/NAME/accel).
#
# Files given with --in appear in the guest under /results/in. Each
# --disk FILE is a raw virtio disk (cache=unsafe), /dev/vda, /dev/vdb, ...
# in the order given; each --share-ro TAG=DIR a read-only 9p share of the
# host's DIR that the scenario mounts by its TAG (fstests: the host root). The guest
# writes into build/runs/NAME/out; the console goes to
# build/logs/NAME.console.log. Exit 0 only when the scenario exited 0 and
# the console shows no splat (--no-splat-check: for boots whose KUnit
# suites provoke reports on purpose, judged by their KUnit results).
set -euo pipefail
. "$(dirname "$0")/../configs/common.sh"

kernel= name= scenario= mem=2G cpus=2 timeout=900 accel=${ACCEL:-auto} append= ins=() extra=()
icount=${ICOUNT:-0} interactive=0
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=$2; shift 2 ;;
	--name) name=$2; shift 2 ;;
	--scenario) scenario=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--cpus) cpus=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--accel) accel=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--in) ins+=("$2"); shift 2 ;;
	--no-splat-check) splat_check=no; shift ;;
	--icount) icount=1; shift ;;
	--interactive) interactive=1; shift ;;
	--disk) [ -f "$2" ] || die "run.sh: --disk $2: no such file"
		extra+=(-drive "file=$2,format=raw,if=virtio,cache=unsafe"); shift 2 ;;
	--share-ro) case "$2" in [a-z]*=/*) ;; *) die "run.sh: --share-ro '$2': TAG=/ABSOLUTE/DIR" ;; esac
		extra+=(-virtfs "local,path=${2#*=},mount_tag=${2%%=*},security_model=none,readonly=on,multidevs=remap"); shift 2 ;;
	*) die "run.sh: unknown argument '$1' (see the header of qemu/run.sh)" ;;
	esac
done
[ -n "$kernel" ] && [ -n "$name" ] && [ -n "$scenario" ] ||
	die "run.sh needs --kernel, --name and --scenario"
[ -f "$kernel" ] || die "kernel $kernel does not exist: build it with 'make kernel STAGE=.. VARIANT=..'"
[ -f "$VF_TOP/qemu/scenarios/$scenario.sh" ] ||
	die "unknown scenario '$scenario': have $(cd "$VF_TOP/qemu/scenarios" && ls -- *.sh | sed 's/\.sh$//' | tr '\n' ' ')"
case "$accel" in auto | tcg | kvm) ;; *) die "unknown accel '$accel': use auto, tcg or kvm" ;; esac
case "$icount" in 0 | 1) ;; *) die "ICOUNT=$icount: use 1 (instruction-count clock, TCG) or 0" ;; esac
if [ "$icount" = 1 ]; then
	[ "$accel" = kvm ] && die "ICOUNT=1 needs TCG: QEMU counts instructions only when it emulates them (use ACCEL=tcg or auto)"
	accel=tcg
fi
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing: run 'make deps'"
"$VF_TOP/qemu/mkinitramfs.sh" >/dev/null
initrd=$VF_BUILD/initramfs.cpio.gz

# One boot. Sets boot_rc (qemu/timeout status) and fills $run.
boot() { # boot ACCEL SCENARIO RUNDIR LOG TIMEOUT
	local acc=$1 sc=$2 run=$3 log=$4 tmo=$5 accopt
	rm -rf "$run"
	mkdir -p "$run/scenarios" "$run/in" "$run/out"
	cp "$VF_TOP"/qemu/scenarios/*.sh "$VF_TOP"/qemu/scenarios/*.lib "$run/scenarios/" 2>/dev/null || true
	for f in "${ins[@]}"; do cp -a "$f" "$run/in/"; done
	if [ "$acc" = kvm ]; then
		accopt="-accel kvm -cpu host"
	elif [ "$icount" = 1 ] && [ "$sc" != probe ]; then
		accopt="-accel tcg,thread=single -icount shift=0,sleep=off -cpu max"
		acc=tcg-icount
	else
		accopt="-accel tcg,thread=multi -cpu max"
	fi
	echo "$acc" >"$run/accel"
	boot_rc=0
	# initramfs_async=0: the initramfs is unpacked before the built-in
	# KUnit suites run. Unpacked beside them (20 s in the debug variant),
	# it starved their threads (a 5 s wait of slab_typesafe_by_rcu timed
	# out) and made the rootfs dentries while a case had mode "always"
	# set, leaving a virtual dentry slab for the whole boot.
	if [ "$interactive" = 1 ]; then
		# shellcheck disable=SC2086
		qemu-system-x86_64 $accopt -machine q35 -m "$mem" -smp "$cpus" \
			-kernel "$kernel" -initrd "$initrd" \
			-append "console=ttyS0 panic=-1 loglevel=4 initramfs_async=0 vf.scenario=$sc $append" \
			-display none -no-reboot \
			-chardev "stdio,id=con,mux=on,signal=off,logfile=$log" -serial chardev:con -mon chardev=con,mode=readline \
			-virtfs "local,path=$run,mount_tag=results,security_model=none" ${extra[@]+"${extra[@]}"} ||
			boot_rc=$?
		return
	fi
	# shellcheck disable=SC2086
	# Its own process group: INT/TERM to this script stop QEMU too.
	vf_group_start timeout -k 10 "$tmo" qemu-system-x86_64 $accopt -machine q35 -m "$mem" -smp "$cpus" \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 loglevel=7 initramfs_async=0 vf.scenario=$sc $append" \
		-display none -monitor none -serial "file:$log" -no-reboot \
		-virtfs "local,path=$run,mount_tag=results,security_model=none" ${extra[@]+"${extra[@]}"} \
		</dev/null >"$run/qemu.out" 2>&1
	vf_group_wait || boot_rc=$?
}

if [ "$accel" = auto ]; then
	probe=$VF_BUILD/accel-probe
	if [ -f "$probe" ]; then
		accel=$(cat "$probe")
	elif [ -w /dev/kvm ]; then
		say "probing KVM with a 60s boot (result cached in $probe)"
		boot kvm probe "$VF_BUILD/runs/kvm-probe" "$VF_LOGS/kvm-probe.console.log" 60
		if [ "$(cat "$VF_BUILD/runs/kvm-probe/exit-status" 2>/dev/null)" = 0 ]; then
			accel=kvm
		else
			accel=tcg
			echo "    KVM did not reach userspace in 60s: using TCG"
		fi
		echo "$accel" >"$probe"
	else
		accel=tcg
		echo "$accel" >"$probe"
	fi
fi

run=$VF_BUILD/runs/$name
log=$VF_LOGS/$name.console.log
say "boot $name: $(basename "$kernel"), scenario $scenario, accel $accel, $mem, $cpus CPUs, timeout ${timeout}s"
t0=$(date +%s)
boot "$accel" "$scenario" "$run" "$log" "$timeout"
secs=$(( $(date +%s) - t0 ))
echo "    console: $log ($secs s)"
fail=
if [ "$boot_rc" = 124 ] || [ "$boot_rc" = 137 ]; then
	fail="guest did not power off within ${timeout}s (hang?); last console lines above"
	tail -15 "$log" | sed 's/^/    | /'
elif ! grep -q 'vf-init: userspace reached' "$log"; then
	fail="guest never reached userspace (qemu status $boot_rc); see $log and $run/qemu.out"
	tail -15 "$log" | sed 's/^/    | /'
elif [ ! -f "$run/exit-status" ] && [ "$interactive" = 1 ]; then
	echo "    the guest was powered off from its console (no exit status)"
elif [ ! -f "$run/exit-status" ]; then
	fail="scenario $scenario did not finish (no exit status: guest crashed?)"
	tail -15 "$log" | sed 's/^/    | /'
elif [ "$(cat "$run/exit-status")" != 0 ]; then
	fail="scenario $scenario exited with status $(cat "$run/exit-status")"
	grep -E 'FAIL' "$run/out/scenario.log" 2>/dev/null | head -20 | sed 's/^/    | /' || true
fi
cp "$log" "$run/console.log" 2>/dev/null || true
if [ "${splat_check:-yes}" = no ]; then
	echo "    splat check off for this boot (--no-splat-check): its KUnit results decide"
elif ! python3 "$VF_TOP/qemu/check-log.py" "$log" | sed 's/^/    /'; then
	fail="${fail:+$fail; }console shows kernel splats"
fi
if [ -n "$fail" ]; then
	echo "FAIL: boot $name: $fail"
	exit 1
fi
echo "PASS: boot $name (accel $accel, ${secs}s)"
