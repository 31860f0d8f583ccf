#!/bin/bash
# Tests of the harness itself: the console checker, the config verifier,
# the patch checker, tree creation with a patch that does not apply, and
# the answers to bad input. Each case prints PASS/FAIL.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
fx=$top/qemu/tests/fixtures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "${fst:-}"' EXIT
fails=0

ok() { echo "PASS: harness: $1"; }
ko() { echo "FAIL: harness: $1"; fails=$((fails + 1)); }
# expect RC NAME COMMAND...: the command exits with RC (0 or "nonzero").
expect() {
	local want=$1 name=$2 rc=0
	shift 2
	"$@" >"$tmp/out" 2>&1 || rc=$?
	if { [ "$want" = 0 ] && [ $rc = 0 ]; } || { [ "$want" = nonzero ] && [ $rc != 0 ]; }; then
		ok "$name"
	else
		ko "$name (exit $rc)"; sed 's/^/    /' "$tmp/out" | head -10
	fi
}
# expect_msg PATTERN NAME: the last command's output says PATTERN.
expect_msg() {
	if grep -qE "$1" "$tmp/out"; then ok "$2"; else ko "$2 (no '$1' in output)"; sed 's/^/    /' "$tmp/out" | head -10; fi
}

# console checker
expect 0 "check-log accepts a clean log with an expected-splat window" python3 "$top/qemu/check-log.py" "$fx/good-console.log"
for f in "$fx"/bad-*.log; do
	expect nonzero "check-log rejects $(basename "$f" .log)" python3 "$top/qemu/check-log.py" "$f"
	expect_msg "splat line" "check-log names the offending line of $(basename "$f" .log)"
done
sed 's/VF-EXPECT-SPLAT-END/something else/' "$fx/good-console.log" | sed '4d' >"$tmp/unclosed.log"
printf '[ 5.0] WARNING: CPU: 0 at x\n' >"$tmp/late.log"
cat "$fx/good-console.log" "$tmp/late.log" >"$tmp/after-window.log"
expect nonzero "check-log counts a splat after the expected window closed" python3 "$top/qemu/check-log.py" "$tmp/after-window.log"
expect nonzero "check-log fails on an expected-splat window that never closes" python3 "$top/qemu/check-log.py" "$tmp/unclosed.log"
expect_msg "window never closed" "check-log names the unclosed window"
printf '[ 1.0] Linux version 6.12\n[ 2.0] t: VF-EXPECT-SPLAT-END\n[ 3.0] vf-init: userspace reached\n' >"$tmp/orphan-end.log"
expect nonzero "check-log fails on an END marker without BEGIN" python3 "$top/qemu/check-log.py" "$tmp/orphan-end.log"
expect nonzero "check-log fails on a missing file" python3 "$top/qemu/check-log.py" "$tmp/nonexistent.log"
expect 0 "check-log reports a known stock warning and does not count it" python3 "$top/qemu/check-log.py" "$fx/good-stock-nofail-xfs-mount.log"
expect_msg "known stock warning, not counted" "check-log names the known stock warning"
sed 's/ xfs_init_fs_context+/ vfallback_alloc+/' "$fx/good-stock-nofail-xfs-mount.log" >"$tmp/stock-other-caller.log"
expect nonzero "check-log counts the same warning from another caller" python3 "$top/qemu/check-log.py" "$tmp/stock-other-caller.log"
grep -v 'end trace' "$fx/good-stock-nofail-xfs-mount.log" >"$tmp/stock-unended.log"
expect nonzero "check-log counts a known stock warning whose splat does not end" python3 "$top/qemu/check-log.py" "$tmp/stock-unended.log"

# config verifier
printf 'CONFIG_A=y\nCONFIG_B=m\n# CONFIG_C is not set\nCONFIG_D="x"\n' >"$tmp/.config"
printf 'CONFIG_A=y\n# CONFIG_C is not set\nCONFIG_D="x"\nCONFIG_E=n\n' >"$tmp/good.frag"
printf 'CONFIG_A=y\nCONFIG_C=y\nCONFIG_B=y\n' >"$tmp/bad.frag"
expect 0 "check-config accepts a .config that has every fragment option" "$top/configs/check-config.sh" "$tmp/.config" "$tmp/good.frag"
expect nonzero "check-config rejects options that did not land" "$top/configs/check-config.sh" "$tmp/.config" "$tmp/bad.frag"
expect_msg "CONFIG_C: fragment bad.frag asks for 'y', .config has 'n'" "check-config names the missing option"
expect_msg "CONFIG_B: .*asks for 'y', .config has 'm'" "check-config names a y/m mismatch"

# patch checker
mkdir -p "$tmp/stack"
cat >"$tmp/stack/0001-good.patch" <<'P'
From: Dev Eloper <dev@example.org>
Subject: [PATCH] docs: fix a word

The README said "teh" where it meant "the". Fix the spelling so that
the text reads as intended; nothing else changes.

Signed-off-by: Dev Eloper <dev@example.org>
---
 README | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

--- a/README
+++ b/README
@@ -1,3 +1,3 @@
 Linux kernel
 ============
-There are several guides for kernel developers and users.
+There are several guides for kernel developers and their users.
P
sed '/^Signed-off-by/d' "$tmp/stack/0001-good.patch" >"$tmp/stack/0002-nosob.patch"
sed 's/^Subject: .*/Subject: fix/' "$tmp/stack/0001-good.patch" >"$tmp/stack/0003-nosubject.patch"
printf '0001-good.patch\n' >"$tmp/stack/series"
expect 0 "check-patches accepts a well-formed patch" "$top/configs/check-patches.sh" "$tmp/stack"
printf '0001-good.patch\n0002-nosob.patch\n0003-nosubject.patch\n0004-missing.patch\n' >"$tmp/stack/series"
expect nonzero "check-patches rejects bad patches" "$top/configs/check-patches.sh" "$tmp/stack"
expect_msg "FAIL: patch stack/0002-nosob.patch: no Signed-off-by" "check-patches names a missing Signed-off-by"
expect_msg "FAIL: patch stack/0003-nosubject.patch: no Subject" "check-patches names a bad Subject"
expect_msg "FAIL: patch stack/0004-missing.patch: listed in series but missing" "check-patches names a missing patch file"

# a patch that does not apply: named, and no tree is left behind
mkdir -p "$tmp/top/stage1-vfallback" "$tmp/top/stage2-irq-slub" "$tmp/top/stage3-largeblock" "$tmp/build/src"
cp -r "$top/configs" "$tmp/top/"
ln -s "$top/build/src/pristine" "$tmp/build/src/pristine"
sed 's/several guides for kernel developers and users/no such line/' "$tmp/stack/0001-good.patch" >"$tmp/top/stage1-vfallback/0001-bad.patch"
printf '0001-bad.patch\n' >"$tmp/top/stage1-vfallback/series"
touch "$tmp/top/stage2-irq-slub/series" "$tmp/top/stage3-largeblock/series"
# Three quilt configurations: an empty HOME (Debian's /etc/quilt.quiltrc,
# QUILT_PATCHES_PREFIX=yes, applies), a ~/.quiltrc that sets what the
# development machines had, and a hostile one; the answer is the same.
mkdir -p "$tmp/home-empty" "$tmp/home-dev" "$tmp/home-hostile"
printf 'QUILT_DIFF_OPTS="--suppress-blank-empty"\n' >"$tmp/home-dev/.quiltrc"
printf 'QUILT_PATCHES=elsewhere\nQUILT_PATCHES_PREFIX=yes\nQUILT_PUSH_ARGS="--color=always"\nQUILT_PC=.other\n' >"$tmp/home-hostile/.quiltrc"
for h in empty dev hostile; do
	expect nonzero "mktree stops on a patch that does not apply (HOME with $h quilt config)" \
		env HOME="$tmp/home-$h" VF_BUILD="$tmp/build" "$tmp/top/configs/mktree.sh" 1
	expect_msg "patch stage1-vfallback/0001-bad.patch does not apply" "mktree names the patch that does not apply (HOME with $h quilt config)"
	if [ -e "$tmp/build/src/stage1" ]; then ko "mktree removed the half-made tree ($h)"; else ok "mktree removed the half-made tree ($h)"; fi
done
# ... and a series that applies is applied whatever the quilt config says.
cat >"$tmp/top/stage1-vfallback/0001-good.patch" <<'P'
From: Dev Eloper <dev@example.org>
Subject: [PATCH] README: say who the guides are for

Signed-off-by: Dev Eloper <dev@example.org>
---
--- a/README
+++ b/README
@@ -1,6 +1,6 @@
 Linux kernel
 ============

-There are several guides for kernel developers and users. These guides can
+There are several guides for kernel developers and their users. These guides can
 be rendered in a number of formats, like HTML and PDF. Please read
 Documentation/admin-guide/README.rst first.
P
printf '0001-good.patch\n' >"$tmp/top/stage1-vfallback/series"
expect 0 "mktree applies a good patch under a hostile ~/.quiltrc" \
	env HOME="$tmp/home-hostile" VF_BUILD="$tmp/build" "$tmp/top/configs/mktree.sh" 1
if grep -q 'kernel developers and their users' "$tmp/build/src/stage1/README" 2>/dev/null; then
	ok "the applied patch changed the tree"
else
	ko "the applied patch changed the tree (README of $tmp/build/src/stage1 unchanged)"
fi
# A changed patch: the tree is updated in place (build dirs kept), and
# the result is the new patch on pristine, as a fresh tree would be.
mkdir -p "$tmp/build/src/stage1/o-default" && touch "$tmp/build/src/stage1/o-default/keep"
sed -i 's/kernel developers and their users/kernel developers and all their users/' "$tmp/top/stage1-vfallback/0001-good.patch"
expect 0 "mktree takes a changed patch" env HOME="$tmp/home-empty" VF_BUILD="$tmp/build" "$tmp/top/configs/mktree.sh" 1
expect_msg "updated in place" "mktree updates a complete tree in place"
if grep -q 'kernel developers and all their users' "$tmp/build/src/stage1/README" && [ -f "$tmp/build/src/stage1/o-default/keep" ] &&
	cmp -s "$tmp/build/src/pristine/README" "$top/build/src/pristine/README" &&
	! grep -q 'their users' "$top/build/src/pristine/README"; then
	ok "the updated tree has the new patch, its build dir, and pristine is untouched"
else
	ko "the updated tree has the new patch, its build dir, and pristine is untouched"
fi
rm -rf "$tmp/build/src/stage1"

# bad input to the drivers
expect nonzero "mkkernel rejects an unknown STAGE" "$top/configs/mkkernel.sh" 7 default
expect_msg "unknown STAGE '7'" "mkkernel says which STAGE is wrong"
expect nonzero "mkkernel rejects an unknown VARIANT" "$top/configs/mkkernel.sh" plain fast
expect_msg "unknown VARIANT 'fast'" "mkkernel says which VARIANT is wrong"
expect nonzero "mkkernel rejects VARIANT=always for the plain kernel" "$top/configs/mkkernel.sh" plain always
expect nonzero "run.sh rejects an unknown scenario" "$top/qemu/run.sh" --kernel "$tmp/.config" --name x --scenario nosuch
expect_msg "unknown scenario 'nosuch'" "run.sh says which scenario is unknown"
expect nonzero "run.sh rejects a --disk that does not exist" "$top/qemu/run.sh" --disk "$tmp/no.img" --kernel "$tmp/.config" --name x --scenario smoke
expect_msg "disk $tmp/no.img: no such file" "run.sh names the missing disk"
expect nonzero "run.sh rejects a --share-ro without TAG=/DIR" "$top/qemu/run.sh" --share-ro hostroot --kernel "$tmp/.config" --name x --scenario smoke
expect_msg "TAG=/ABSOLUTE/DIR" "run.sh says what --share-ro takes"
expect nonzero "run.sh rejects ICOUNT=1 with KVM" env ICOUNT=1 "$top/qemu/run.sh" --accel kvm --kernel "$tmp/.config" --name x --scenario smoke
expect_msg "ICOUNT=1 needs TCG" "run.sh says the instruction-count clock needs TCG"
expect nonzero "run.sh rejects an ICOUNT other than 0 or 1" env ICOUNT=yes "$top/qemu/run.sh" --kernel "$tmp/.config" --name x --scenario smoke
expect_msg "ICOUNT=yes: use 1" "run.sh says what ICOUNT takes"
expect nonzero "make run without CMD fails" env -u CMD make -s -C "$top" run K=plain-nosuch
expect_msg "no build/kernels/bzImage-plain-nosuch" "make run names the kernel that is not built"
expect nonzero "make test refuses an unknown SUITE" make -s -C "$top" test SUITE=nosuch
expect_msg "SUITE='nosuch' is not a suite: full" "make test names the unknown SUITE and the suites"
expect nonzero "bench-test-vmalloc rejects a bad AA" env AA=2 "$top/bench/test-vmalloc.sh"
expect_msg "AA=2: use 1" "bench-test-vmalloc says what AA takes"
# make test-fstests: a stub checkout that counts as built
# (beside the project: fstests.sh refuses a checkout inside it, or under
# a directory the guest covers with its own, such as /tmp)
fst=$(mktemp -d -p "$(dirname "$top")" .vf-fstests-stub.XXXXXX)
mkdir -p "$fst/tests/generic" "$fst/ltp" "$fst/src"
for f in check ltp/fsx ltp/fsstress src/feature tests/generic/001; do printf '#!/bin/sh\n' >"$fst/$f"; chmod +x "$fst/$f"; done
expect nonzero "fstests.sh needs FSTESTS" env FSTESTS= "$top/qemu/fstests.sh"
expect_msg "give FSTESTS=DIR" "fstests.sh says FSTESTS is missing"
expect nonzero "fstests.sh rejects a test the checkout does not have" env FSTESTS="$fst" TESTS="generic/001 generic/999" "$top/qemu/fstests.sh"
expect_msg "not tests of .*: generic/999$" "fstests.sh names the unknown test"
expect nonzero "fstests.sh rejects an unknown setting" env FSTESTS="$fst" TESTS=generic/001 SETTINGS=4 "$top/qemu/fstests.sh"
expect_msg "unknown setting '4'" "fstests.sh names the unknown setting"
expect nonzero "fstests.sh stops on a kernel that is not built" env VF_BUILD="$tmp/nobuild" FSTESTS="$fst" TESTS=generic/001 SETTINGS="plain 3-inject20" "$top/qemu/fstests.sh"
expect_msg "make kernel STAGE=plain VARIANT=default" "fstests.sh names the make kernel command of the missing kernel"
# an unbuilt checkout is built with its own make; a failed build says what is missing
mkdir -p "$tmp/fst2/tests/generic"
for f in check tests/generic/001; do printf '#!/bin/sh\n' >"$tmp/fst2/$f"; chmod +x "$tmp/fst2/$f"; done
printf 'default:\n\t@echo "FATAL ERROR: could not find a valid UUID library."; exit 1\n' >"$tmp/fst2/Makefile"
expect nonzero "fstests.sh stops when the checkout's build fails" env VF_BUILD="$tmp/nobuild" FSTESTS="$tmp/fst2" TESTS=generic/001 "$top/qemu/fstests.sh"
expect_msg "FATAL ERROR: could not find a valid UUID library" "fstests.sh shows what the failed build reported missing"
mkdir -p "$tmp/snap"
printf 'Node 0, zone   Normal 1 2 3\n' >"$tmp/snap/buddyinfo-x"
printf 'nr_free_pages 10\n' >"$tmp/snap/vmstat-x"
expect nonzero "check-snapshot rejects a truncated buddyinfo/vmstat" "$top/qemu/check-snapshot.sh" "$tmp/snap" x
printf '{"name": "KUnit Test", "sub_groups": [{"name": "vfallback", "test_cases": [{"name": "a", "status": "PASS"}, {"name": "b", "status": "FAIL"}], "sub_groups": []}]}' >"$tmp/k.json"
expect nonzero "kunit-summary fails on a failed case" python3 "$top/qemu/kunit-summary.py" "$tmp/k.json" t vfallback
expect_msg "FAIL: t kunit vfallback/b" "kunit-summary names the failed case"
printf '{"name": "KUnit Test", "sub_groups": [{"name": "vfallback", "test_cases": [{"name": "a", "status": "PASS"}, {"name": "s", "status": "SKIP"}], "sub_groups": []}]}' >"$tmp/k3.json"
expect nonzero "kunit-summary fails on an unexpected SKIP" python3 "$top/qemu/kunit-summary.py" "$tmp/k3.json" t vfallback
expect_msg "FAIL: t kunit vfallback/s \\(skipped" "kunit-summary names the skipped case"
expect 0 "kunit-summary accepts a SKIP that --allow-skip names" python3 "$top/qemu/kunit-summary.py" "$tmp/k3.json" t --allow-skip 'vfallback/s' vfallback
printf '{"name": "KUnit Test", "sub_groups": [{"name": "vfallback", "test_cases": [{"name": "a", "status": "PASS"}], "sub_groups": []}]}' >"$tmp/k4.json"
expect nonzero "kunit-summary fails when kunit.py parse failed" python3 "$top/qemu/kunit-summary.py" "$tmp/k4.json" t --parse-rc 1 vfallback
expect_msg "kunit.py parse exited 1" "kunit-summary says that kunit.py parse failed"
# kunit.py parse itself: a crashed suite (KTAP cut short) exits non-zero.
kparse="$top/build/src/pristine/tools/testing/kunit/kunit.py"
printf 'KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: vfallback\n    1..2\n    ok 1 a\n' >"$tmp/cut.log"
expect nonzero "kunit.py parse fails on a suite cut short (crash)" python3 "$kparse" parse "$tmp/cut.log"
printf 'KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: vfallback\n    1..1\n    ok 1 a\nok 1 vfallback\n' >"$tmp/whole.log"
expect 0 "kunit.py parse accepts a complete passing suite" python3 "$kparse" parse "$tmp/whole.log"
printf '{"name": "KUnit Test", "sub_groups": []}' >"$tmp/k2.json"
expect nonzero "kunit-summary fails when the suite did not run" python3 "$top/qemu/kunit-summary.py" "$tmp/k2.json" t vfallback
# bench/check-boot.py: a benchmark boot must have produced what it was
# asked for (fixtures of bench/tests, changed here to break each rule).
bfx=$top/bench/tests/fixtures/runs
expect 0 "check-boot accepts a boot with every cell" python3 "$top/bench/check-boot.py" "$bfx/stage1-always-none"
expect nonzero "check-boot fails on missing cells" python3 "$top/bench/check-boot.py" "$bfx/stage1-default-unmovable"
expect_msg "3 of 10 expected cells recorded" "check-boot counts the missing cells"
cp -r "$bfx/stage1-always-none" "$tmp/b0" && : >"$tmp/b0/out/bench-raw.txt"
expect nonzero "check-boot fails on a boot with zero cells" python3 "$top/bench/check-boot.py" "$tmp/b0"
expect 0 "check-boot: the always variant's vfallback cells are virtual" python3 "$top/bench/check-boot.py" "$bfx/stage1-always-none" --expect-path virtual
expect nonzero "check-boot fails when vfallback took the other path" python3 "$top/bench/check-boot.py" "$bfx/stage1-always-none" --expect-path physical
cp -r "$bfx/stage1-always-none" "$tmp/b1" && echo lbs=1 >>"$tmp/b1/meta"
expect nonzero "check-boot fails when a stage kernel's large-block workload recorded nothing" python3 "$top/bench/check-boot.py" "$tmp/b1"
printf 'fsblock=65536 workload=seqwrite rc=1 fallback_ios=0 json=lbs/x.json\nfsblock=65536 workload=metadata rc=0 files=10 usec=5 fallback_ios=0\n' >"$tmp/b1/out/lbs-raw.txt"
expect nonzero "check-boot fails on a stage kernel's fio error" python3 "$top/bench/check-boot.py" "$tmp/b1"
expect_msg "1 large-block run\\(s\\) with errors" "check-boot names the large-block error"
sed -i 's/rc=1/rc=0/' "$tmp/b1/out/lbs-raw.txt"
mkdir -p "$tmp/b1/out/lbs" && printf '{"jobs": [{"error": 0, "write": {"io_bytes": 1048576, "bw_bytes": 1000000}, "read": {"io_bytes": 0, "bw_bytes": 0}}]}' >"$tmp/b1/out/lbs/x.json"
expect 0 "check-boot accepts a stage kernel's error-free large-block runs" python3 "$top/bench/check-boot.py" "$tmp/b1"

# INT/TERM stop everything a script started: a process group helper that
# a child with grandchildren cannot escape, and run.sh stopping QEMU (a
# stand-in that only sleeps, first in PATH).
gone() { # gone PID...: true when none of them is alive within 10 s
	local i p alive
	for i in $(seq 20); do
		alive=0
		for p in "$@"; do kill -0 "$p" 2>/dev/null && alive=1; done
		[ $alive = 0 ] && return 0
		sleep 0.5
	done
	return 1
}
# dfl CMD...: CMD with INT at its default action, as from a terminal (an
# asynchronous command of a script starts with INT ignored, and a shell
# cannot trap a signal ignored at its start). Only in 'dfl ... &': it
# execs, so that $! is the command's own pid.
dfl() { exec python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])' "$@"; }
for sig in TERM INT; do
	rm -f "$tmp/kids"
	dfl bash -c '. "$1/configs/common.sh"; vf_group_start bash -c "sleep 1000 & echo \$! >>$2; sleep 1000 & echo \$! >>$2; wait"; vf_group_wait' \
		_ "$top" "$tmp/kids" >/dev/null 2>&1 &
	w=$!
	for i in $(seq 20); do [ -f "$tmp/kids" ] && [ "$(wc -l <"$tmp/kids")" = 2 ] && break; sleep 0.5; done
	kill -"$sig" "$w"
	if gone "$w" $(cat "$tmp/kids" 2>/dev/null) && [ -s "$tmp/kids" ]; then
		ok "SIG$sig to a script stops the process group it started (grandchildren too)"
	else
		ko "SIG$sig to a script stops the process group it started (left: $(cat "$tmp/kids" | tr '\n' ' '))"
		kill $(cat "$tmp/kids") "$w" 2>/dev/null
	fi
done
# A driver (test.sh, bench/run.sh, deferred.sh) that runs a long child
# such as qemu/run.sh: with the child in the foreground bash defers the
# driver's TERM trap until the child returns (the control, which must
# still be running after 3 s); through vf_fg the trap runs at once and
# its kill -TERM 0 stops the child.
cat >"$tmp/child.sh" <<'CHILD'
#!/bin/bash
trap 'exit 143' TERM
echo $$ >"$1"
sleep 1000 &
wait
CHILD
for how in fg vf_fg; do
	rm -f "$tmp/child.pid"
	run=
	[ "$how" = vf_fg ] && run=vf_fg
	# setsid: the driver's kill -TERM 0 must not reach this script.
	setsid bash -c '. "$1/configs/common.sh"
		trap "trap - INT TERM; kill -TERM 0; exit 130" INT TERM
		$2 bash "$3/child.sh" "$3/child.pid"' _ "$top" "$run" "$tmp" >/dev/null 2>&1 &
	w=$!
	for i in $(seq 20); do [ -s "$tmp/child.pid" ] && break; sleep 0.5; done
	kill -TERM "$w"
	if [ "$how" = fg ]; then
		sleep 3
		if [ -s "$tmp/child.pid" ] && kill -0 "$(cat "$tmp/child.pid")" 2>/dev/null && kill -0 "$w" 2>/dev/null; then
			ok "control: TERM to a driver with a foreground child waits for the child (bash defers the trap)"
		else
			ko "control: TERM to a driver with a foreground child waits for the child (bash defers the trap)"
		fi
		kill "$(cat "$tmp/child.pid" 2>/dev/null)" 2>/dev/null
		wait "$w" 2>/dev/null
	elif [ -s "$tmp/child.pid" ] && gone "$w" "$(cat "$tmp/child.pid")"; then
		ok "TERM to a driver stops its child at once through vf_fg"
	else
		ko "TERM to a driver stops its child at once through vf_fg (child pid $(cat "$tmp/child.pid" 2>/dev/null || echo 'never started'))"
		kill "$(cat "$tmp/child.pid" 2>/dev/null)" "$w" 2>/dev/null
	fi
done
mkdir -p "$tmp/fakebin"
printf '#!/bin/sh\necho $$ >"%s/qemu.pid"\nexec sleep 1000\n' "$tmp" >"$tmp/fakebin/qemu-system-x86_64"
chmod +x "$tmp/fakebin/qemu-system-x86_64"
for sig in TERM INT; do
	rm -f "$tmp/qemu.pid"
	PATH="$tmp/fakebin:$PATH" dfl "$top/qemu/run.sh" --kernel "$tmp/.config" --name harness-interrupt \
		--scenario smoke --accel tcg --timeout 900 >"$tmp/run.out" 2>&1 &
	w=$!
	for i in $(seq 240); do [ -s "$tmp/qemu.pid" ] && break; sleep 0.5; done
	kill -"$sig" "$w"
	if [ -s "$tmp/qemu.pid" ] && gone "$w" "$(cat "$tmp/qemu.pid")"; then
		ok "SIG$sig to run.sh stops QEMU"
	else
		ko "SIG$sig to run.sh stops QEMU (QEMU pid $(cat "$tmp/qemu.pid" 2>/dev/null || echo 'never started'))"
		sed 's/^/    /' "$tmp/run.out" | tail -5
		kill "$(cat "$tmp/qemu.pid" 2>/dev/null)" "$w" 2>/dev/null
	fi
done
# The guest scenarios' vf_arg: whole tokens, the last one wins, defaults.
vfarg() { VF_CMDLINE=$1 sh -c '. "$0"; vf_arg "$1" "$2"' "$top/qemu/scenarios/common.lib" "$2" "${3:-}"; }
cl="root=/dev/vda vf.xexpect=no vf.expect=auto vf.orders=1,2,3 vf.iters= vf.expect=always"
for c in "expect||always" "orders||1,2,3" "iters|20000|20000" "seed|7|7" "pect||"; do
	IFS='|' read -r n d want <<<"$c"
	got=$(vfarg "$cl" "$n" "$d")
	if [ "$got" = "$want" ]; then ok "vf_arg $n (default '$d') = '$want'"; else ko "vf_arg $n (default '$d') = '$got', want '$want'"; fi
done

# The benchmarks' shared helpers.
printf 'cost round=1 progress=0 rw=randread iops=5 extra=x\nnoise round=9 iops=1\ncost round=2 iops=7\n  cost round=3 progress=1 rw=randwrite iops=8\ncost round=4 progress= iops=9\n' >"$tmp/kv.txt"
got=$(bash -c '. "$1/configs/common.sh"; vf_kv_rows cost round,progress,iops "$2"' _ "$top" "$tmp/kv.txt" | tr '\n' ' ')
if [ "$got" = "1,0,5 3,1,8 " ]; then ok "vf_kv_rows keeps complete tagged lines (no empty value), fields in order"; else ko "vf_kv_rows: got '$got'"; fi
got=$(bash -c '. "$1/configs/common.sh"; for i in 1 2 3; do vf_boot_order $i plain 3; done' _ "$top" | tr '\n' ' ')
if [ "$got" = "plain 3 3 plain plain 3 " ]; then ok "vf_boot_order alternates which kernel boots first"; else ko "vf_boot_order: got '$got'"; fi
got=$(bash -c '. "$1/configs/common.sh"; for i in 1 2 3 4; do vf_boot_order $i plain 3 plainaa; done' _ "$top" | tr '\n' '|')
if [ "$got" = "plain 3 plainaa|3 plainaa plain|plainaa plain 3|plain 3 plainaa|" ]; then ok "vf_boot_order rotates three kernels through every position"; else ko "vf_boot_order of three: got '$got'"; fi
for b in test-vmalloc workloads lbfault-cost fastpath window-scaling lb-fallback-io; do
	for v in 0 x 2x '' 08; do
		expect nonzero "bench/$b.sh refuses REPEAT='$v'" env REPEAT="$v" "$top/bench/$b.sh"
		expect_msg "REPEAT='$v': a whole number >= 1" "bench/$b.sh names REPEAT='$v'"
	done
	expect nonzero "bench/$b.sh refuses MAX_LOAD=high" env MAX_LOAD=high "$top/bench/$b.sh"
	expect_msg "MAX_LOAD='high' is not a number" "bench/$b.sh names MAX_LOAD=high"
done
expect nonzero "bench/fastpath.sh refuses PRESSURE=memory" env PRESSURE=memory "$top/bench/fastpath.sh"
expect_msg "PRESSURE='memory': none or reclaim" "bench/fastpath.sh names PRESSURE=memory"
expect nonzero "bench/fastpath.sh refuses HOLD_METHODS without plain first" env HOLD_METHODS=vfallback,plain "$top/bench/fastpath.sh"
expect_msg "HOLD_METHODS='vfallback,plain': plain first" "bench/fastpath.sh names HOLD_METHODS=vfallback,plain"
expect nonzero "bench/window-scaling.sh refuses THREADS=1,x" env THREADS=1,x "$top/bench/window-scaling.sh"
expect_msg "THREADS='1,x': comma-separated numbers" "bench/window-scaling.sh names THREADS=1,x"
for b in window-scaling lb-fallback-io; do
	expect nonzero "bench/$b.sh refuses a KERNELS entry without a label" env KERNELS=/nonexistent "$top/bench/$b.sh"
	expect_msg "KERNELS: '/nonexistent' is not LABEL=BZIMAGE" "bench/$b.sh names the KERNELS entry"
	expect nonzero "bench/$b.sh refuses a missing kernel" env KERNELS=before=/nonexistent "$top/bench/$b.sh"
	expect_msg "KERNELS: /nonexistent not found" "bench/$b.sh names the missing kernel"
	expect nonzero "bench/$b.sh refuses a label given twice" env KERNELS="a=$top/Makefile a=$top/Makefile" "$top/bench/$b.sh"
	expect_msg "KERNELS: label 'a' given twice" "bench/$b.sh names the label given twice"
	expect nonzero "bench/$b.sh refuses a label with a dot" env KERNELS="A.b=$top/Makefile" "$top/bench/$b.sh"
	expect_msg "KERNELS: label 'A.b': letters, digits, _ and - only" "bench/$b.sh names the bad label"
done
expect nonzero "bench/goals.sh refuses REPEAT=0" env REPEAT=0 "$top/bench/goals.sh"
expect_msg "REPEAT='0': a whole number >= 1" "bench/goals.sh names REPEAT=0"
expect nonzero "bench/perf.sh refuses VREPS=x" env VREPS=x "$top/bench/perf.sh"
expect_msg "VREPS='x': a whole number >= 1" "bench/perf.sh names VREPS=x"
expect nonzero "bench/perf.sh refuses LBS_BS=1000" env LBS_BS=1000 "$top/bench/perf.sh"
expect_msg "LBS_BS='1000': one of the workload's block sizes" "bench/perf.sh names LBS_BS=1000"
[ "$fails" = 0 ]
