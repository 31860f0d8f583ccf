#!/bin/bash
# hang-repro.sh [N] [KERNEL]: boot a kernel N times (default 100; KERNEL
# default build/kernels/bzImage-<top stage>-always) with its built-in
# KUnit suites and no scenario, until one boot stops printing for 40 s
# before "Run /init". Then it sends an NMI through the QEMU monitor; the
# kernel is booted with unknown_nmi_panic=1 panic_print=0x1, so it panics
# and dumps every task's stack to the console log, which is kept in
# build/hang-repro/. For the KUnit hang under "Known problems" in README.
# Exit status: 0 if no boot hung, 1 if one did (its log is named).
set -euo pipefail
. "$(dirname "$0")/../../configs/common.sh"

n=${1:-100}
case "$n" in '' | *[!0-9]* | 0) die "hang-repro.sh: N='$n' must be a number of boots >= 1" ;; esac
kernel=${2:-$VF_BUILD/kernels/bzImage-$(vf_top_stage)-always}
[ -f "$kernel" ] || die "no kernel $kernel: build it with 'make kernel STAGE=.. VARIANT=always'"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing: run 'make deps'"
"$VF_TOP/qemu/mkinitramfs.sh" >/dev/null
dir=$VF_BUILD/hang-repro
mkdir -p "$dir"
say "booting $(basename "$kernel") up to $n times (TCG, 2 GiB, 2 CPUs); logs in $dir"

qpid=
cleanup() { [ -n "$qpid" ] && kill "$qpid" 2>/dev/null; true; }
trap cleanup EXIT
for i in $(seq "$n"); do
	log=$dir/boot-$i.log sock=$dir/monitor.sock
	rm -f "$log" "$sock"
	qemu-system-x86_64 -accel tcg,thread=multi -cpu max -machine q35 -m 2G -smp 2 \
		-kernel "$kernel" -initrd "$VF_BUILD/initramfs.cpio.gz" \
		-append "console=ttyS0 panic=-1 loglevel=7 vf.scenario=none unknown_nmi_panic=1 panic_print=0x1" \
		-display none -monitor "unix:$sock,server,nowait" -serial "file:$log" -no-reboot \
		</dev/null >/dev/null 2>&1 &
	qpid=$!
	last=-1 still=0 state=slow
	for _ in $(seq 300); do
		sleep 1
		if grep -q "Run /init" "$log" 2>/dev/null; then state=ok; break; fi
		size=$(wc -c <"$log" 2>/dev/null || echo 0)
		if [ "$size" = "$last" ]; then still=$((still + 1)); else still=0 last=$size; fi
		if [ "$still" -ge 40 ]; then state=hang; break; fi
	done
	if [ "$state" = ok ]; then
		kill "$qpid" 2>/dev/null || true
		wait "$qpid" 2>/dev/null || true
		qpid=
		[ $((i % 20)) = 0 ] && echo "    $i boots, none hung"
		continue
	fi
	echo "FAIL: boot $i: no console output for 40 s before userspace ($state); last line:"
	tail -1 "$log" | cut -c1-160
	python3 - "$sock" <<-'EOF' || echo "    could not send the NMI through the monitor"
	import socket, sys, time
	s = socket.socket(socket.AF_UNIX)
	s.connect(sys.argv[1])
	time.sleep(0.5)
	s.recv(4096)
	s.send(b"nmi\n")
	time.sleep(1)
	EOF
	sleep 60
	echo "    NMI sent; the task dump (if the console still works) is in $log"
	exit 1
done
echo "PASS: $n boots, none hung"
