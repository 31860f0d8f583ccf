# vfallback: virtual compound pages for Linux 6.12, and their measurements.
# The one driver: every target calls a script in configs/, qemu/ or bench/.

STAGE   ?= plain
VARIANT ?= default
SCENARIO ?= smoke
ACCEL   ?= auto
MEM     ?= 2G
CPUS    ?= 2

.PHONY: help deps tree kernel initramfs boot shell run test test-debug test-kernel-suites test-stress test-lbfault test-fstests test-harness check-patches \
	bisect-check mutation-check bench bench-deferred bench-lbfault-cost bench-fastpath bench-test-vmalloc bench-workloads bench-perf bench-goals bench-window-scaling bench-lb-fallback-io clean distclean

help:
	@echo "make test [SUITE=full|debug|stress|lbfault|kernel-suites]  the test suite (CI runs the full one)"
	@echo "make bench [BENCH=quick|full]  benchmarks -> results/"
	@echo "make bench-deferred       experiment: queued releases and vfallback's tail"
	@echo "make bench-lbfault-cost   large-block faults unfragmented: lb_progress off vs on within each boot, 3 boots"
	@echo "make bench-fastpath [BEFORE=DIR]  GFP_VFALLBACK vs plain side by side; auto vs always fragmented"
	@echo "                          (PAIRS=A:B,.. FRAG_PAIRS=1: other methods; PRESSURE=reclaim HOLD_METHODS=plain,..: under page-cache pressure)"
	@echo "make bench-test-vmalloc   the kernel's lib/test_vmalloc.c, plain vs top stage, 3 boots each (AA=1: the stage kernel against itself; ICOUNT=1: instruction-count clock)"
	@echo "make bench-workloads      slab and large-block workloads, plain vs top stage, 5 boots each"
	@echo "make bench-perf           profiles of the physical and virtual paths; results/perf.md (the five performance goals)"
	@echo "make bench-goals          the five performance goals and their profiles from one run (fastpath, deferred, test-vmalloc, workloads, perf)"
	@echo "make bench-window-scaling  the virtual path from 1 and 2 CPUs at once (KERNELS=\"before=BZIMAGE stage=...\" to compare)"
	@echo "make bench-lb-fallback-io  large-block fallback throughput vs the page cache (KERNELS=\"before=BZIMAGE stage=...\" to compare)"
	@echo "make deps                 install the Debian packages the project needs"
	@echo "make tree STAGE=plain|1|2|3            unpack / patch a kernel tree"
	@echo "make kernel STAGE=.. VARIANT=default|always|debug   build a kernel"
	@echo "make boot STAGE=.. VARIANT=.. SCENARIO=.. [ACCEL=auto|tcg|kvm MEM=2G CPUS=2]"
	@echo "make shell K=3-always     a shell on a guest console (K: plain, 1, 2, 3, 3-always, 3-debug; built kernels only)"
	@echo "make run K=3 CMD='...'    one command in a guest: its output; make fails when the command does"
	@echo "make test-debug           KASAN/lockdep/DEBUG_VM/kmemleak variant + KUnit"
	@echo "make test-kernel-suites   slub/kfence/usercopy/KASAN KUnit: pristine vs top stage (always)"
	@echo "make test-stress          large-block stress: mixed I/O, crash, punch, stress-ng at 10/30 % injection"
	@echo "make test-lbfault         large-block faults under forced failure: plain (recorded) vs stage 3"
	@echo "make test-fstests FSTESTS=DIR [SETTINGS=\"plain 3 3-inject20 3-always\"] [TESTS=\"generic/001 ...\"]"
	@echo "                          fstests (configs/fstests-lbs.list) on 64 KiB-block XFS; resumable; results/fstests-lbs.txt"
	@echo "make bisect-check         build every patch of every stack in turn"
	@echo "make check-patches        headers, Signed-off-by, checkpatch"

deps:
	@configs/deps.sh

tree: deps
	@configs/mktree.sh $(STAGE)

kernel: deps
	@configs/mkkernel.sh $(STAGE) $(VARIANT)

initramfs: deps
	@qemu/mkinitramfs.sh

boot: kernel initramfs
	@qemu/run.sh --kernel build/kernels/bzImage-$(STAGE)-$(VARIANT) \
		--name boot-$(STAGE)-$(VARIANT)-$(SCENARIO) --scenario $(SCENARIO) \
		--accel $(ACCEL) --mem $(MEM) --cpus $(CPUS) $(if $(APPEND),--append "$(APPEND)")

# K names a built kernel: plain, 3 (= 3-default), 3-always, 3-debug, ...
K ?= 3
kpath = build/kernels/bzImage-$(if $(findstring -,$(K)),$(K),$(K)-default)

shell: deps
	@test -f $(kpath) || { echo "no $(kpath): build it with make kernel STAGE=... VARIANT=..."; exit 1; }
	@qemu/run.sh --kernel $(kpath) --name shell-$(K) --scenario shell --interactive \
		--accel $(ACCEL) --mem $(MEM) --cpus $(CPUS) $(if $(APPEND),--append "$(APPEND)")

run: deps
	@test -f $(kpath) || { echo "no $(kpath): build it with make kernel STAGE=... VARIANT=..."; exit 1; }
	@test -n "$$CMD" || { echo "make run: give the command, e.g. make run K=3 CMD='cat /proc/vmstat'"; exit 2; }
	@mkdir -p build/run-cmd && printf '%s\n' "$$CMD" >build/run-cmd/cmd.sh
	@rc=0; qemu/run.sh --kernel $(kpath) --name run-$(K) --scenario shell --in build/run-cmd/cmd.sh \
		--timeout $${TIMEOUT:-600} --accel $(ACCEL) --mem $(MEM) --cpus $(CPUS) \
		$(if $(APPEND),--append "$(APPEND)") >build/run-cmd/boot.log 2>&1 || rc=$$?; \
	sed '/^vf-run: exit status/d' build/runs/run-$(K)/out/scenario.log 2>/dev/null; \
	[ $$rc = 0 ] || { tail -3 build/run-cmd/boot.log; exit 1; }

# SUITE picks a variant of the tests: full (the default, what CI runs),
# debug, stress, lbfault, kernel-suites (each also has its own target).
test: deps
	@case "$(SUITE)" in \
	'' | full) qemu/test.sh full ;; \
	debug | stress | lbfault) qemu/test.sh $(SUITE) ;; \
	kernel-suites) configs/kernel-suites.sh ;; \
	*) echo "make test: SUITE='$(SUITE)' is not a suite: full (default), debug, stress, lbfault or kernel-suites" >&2; exit 2 ;; \
	esac

test-debug: deps
	@qemu/test.sh debug

test-stress: deps
	@qemu/test.sh stress

test-lbfault: deps
	@qemu/test.sh lbfault

# Boots the kernels that exist (never builds one: a missing kernel stops it
# with the make kernel command to run).
test-fstests: deps
	@FSTESTS="$(FSTESTS)" SETTINGS="$(SETTINGS)" TESTS="$(TESTS)" ACCEL="$(ACCEL)" MEM="$(MEM)" CPUS="$(CPUS)" \
		qemu/fstests.sh

test-kernel-suites: deps
	@configs/kernel-suites.sh

test-harness:
	@qemu/tests/test-harness.sh

check-patches: deps
	@configs/mktree.sh plain >/dev/null && configs/check-patches.sh

mutation-check: deps
	@configs/mutation-check.sh

bisect-check: deps
	@configs/bisect-check.sh

# The matrix needs the plain kernel and the highest stage in both variants.
bench: deps
	@configs/mkkernel.sh plain default
	@top=$$(bash -c '. configs/common.sh; vf_top_stage'); \
	if [ "$$top" -ge 1 ]; then \
		configs/mkkernel.sh $$top default && configs/mkkernel.sh $$top always; \
	fi
	@bench/run.sh $(or $(BENCH),quick)

bench-lbfault-cost: deps
	@top=$$(bash -c '. configs/common.sh; vf_top_stage'); \
	configs/mkkernel.sh $$top default && bench/lbfault-cost.sh

bench-fastpath: deps
	@top=$$(bash -c '. configs/common.sh; vf_top_stage'); \
	configs/mkkernel.sh $$top default && bench/fastpath.sh

bench-test-vmalloc: deps
	@top=$$(bash -c '. configs/common.sh; vf_top_stage'); \
	configs/mkkernel.sh plain default && configs/mkkernel.sh $$top default && \
	bench/test-vmalloc.sh

bench-workloads: deps
	@top=$$(bash -c '. configs/common.sh; vf_top_stage'); \
	configs/mkkernel.sh plain default && configs/mkkernel.sh $$top default && \
	bench/workloads.sh

bench-perf: deps
	@top=$$(bash -c '. configs/common.sh; vf_top_stage'); \
	configs/mkkernel.sh plain default && configs/mkkernel.sh $$top default && \
	configs/mkkernel.sh $$top always && bench/perf.sh

bench-goals: deps
	@top=$$(bash -c '. configs/common.sh; vf_top_stage'); \
	configs/mkkernel.sh plain default && configs/mkkernel.sh $$top default && \
	configs/mkkernel.sh $$top always && bench/goals.sh

bench-window-scaling: deps
	@top=$$(bash -c '. configs/common.sh; vf_top_stage'); \
	configs/mkkernel.sh $$top always && bench/window-scaling.sh

bench-lb-fallback-io: deps
	@top=$$(bash -c '. configs/common.sh; vf_top_stage'); \
	configs/mkkernel.sh $$top default && bench/lb-fallback-io.sh

bench-deferred: deps
	@top=$$(bash -c '. configs/common.sh; vf_top_stage'); \
	configs/mkkernel.sh $$top always && bench/deferred.sh

clean:
	rm -rf build/runs build/logs build/initramfs*

distclean:
	rm -rf build
