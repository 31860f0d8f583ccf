#!/bin/bash
# mkkernel.sh STAGE VARIANT: configure and build a kernel.
# Config: x86_64 allnoconfig + configs/base.config + configs/stageN.config
# (for N <= STAGE) + configs/variant-VARIANT.config, merged with the
# kernel's merge_config.sh, then verified option by option.
set -euo pipefail
. "$(dirname "$0")/common.sh"

stage=${1:?usage: mkkernel.sh plain|1|2|3 default|always|debug}
variant=${2:?usage: mkkernel.sh plain|1|2|3 default|always|debug}
vf_check_stage "$stage"
vf_check_variant "$variant"
[ "$stage" = plain ] && [ "$variant" = always ] &&
	die "VARIANT=always needs a stage kernel (CONFIG_VFALLBACK_ALWAYS comes with stage 1)"

"$VF_TOP/configs/mktree.sh" "$stage"
src=$(vf_tree "$stage")
obj=$(vf_objdir "$stage" "$variant")
name=$stage-$variant
log=$VF_LOGS/build-$name.log

frags=("$VF_TOP/configs/base.config")
if [ "$stage" != plain ]; then
	for ((i = 1; i <= stage; i++)); do
		[ -f "$VF_TOP/configs/stage$i.config" ] && frags+=("$VF_TOP/configs/stage$i.config")
	done
fi
frags+=("$VF_TOP/configs/variant-$variant.config")

mkdir -p "$obj"
kmake() {
	make -C "$src" O="$obj" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" "$@"
}

# Reconfigure only when the fragments changed (keeps incremental builds).
fhash=$(cat "${frags[@]}" | sha256sum | cut -d' ' -f1)
if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/.vf-frags" 2>/dev/null)" != "$fhash" ]; then
	say "[$name] configuring: ${frags[*]##*/}"
	rm -f "$obj/.vf-frags"
	(cd "$src" && KCONFIG_CONFIG="$obj/.config" ARCH=x86_64 \
		scripts/kconfig/merge_config.sh -n -O "$obj" "${frags[@]}") >"$log.config" 2>&1 ||
		{ tail -20 "$log.config"; die "[$name] merge_config.sh failed (log: $log.config)"; }
	kmake olddefconfig >>"$log.config" 2>&1 || die "[$name] olddefconfig failed (log: $log.config)"
	"$VF_TOP/configs/check-config.sh" "$obj/.config" "${frags[@]}" ||
		die "[$name] config verification failed: fix the fragment or its dependencies"
	echo "$fhash" >"$obj/.vf-frags"
fi

say "[$name] building linux $(cat "$VF_SRC/pristine/.vf-version") in $obj (log: $log)"
vf_timer_start
rm -f "$obj/.vf-built"
# Its own process group: INT/TERM stop make and every compiler it runs; a
# rerun continues where this one stopped (make removes half-made targets).
vf_group_start make -C "$src" O="$obj" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" \
	-j"$(nproc)" all >"$log" 2>&1
while kill -0 "$VF_GROUP" 2>/dev/null; do
	vf_nap 30
	kill -0 "$VF_GROUP" 2>/dev/null &&
		echo "    [$name] $(( $(date +%s) - VF_T0 ))s: $(grep -E '^\s+(CC|LD|AR)' "$log" | tail -1 | sed 's/^ *//')"
done
if ! vf_group_wait; then
	grep -E 'error|Error' "$log" | head -20
	die "[$name] kernel build failed (log: $log)"
fi
vf_timer_end "[$name] build"
mkdir -p "$VF_BUILD/kernels"
cp "$obj/arch/x86/boot/bzImage" "$VF_BUILD/kernels/bzImage-$name"
cp "$obj/.config" "$VF_BUILD/kernels/config-$name"
# In-tree modules that benchmarks load (base.config builds them as modules).
for m in lib/test_vmalloc.ko; do
	[ ! -f "$obj/$m" ] || cp "$obj/$m" "$VF_BUILD/kernels/$(basename "$m" .ko)-$name.ko"
done
echo "$(cat "$VF_SRC/pristine/.vf-version")" >"$obj/.vf-built"
ccache -s 2>/dev/null | grep -iE 'hits|misses' | head -3 | sed 's/^/    ccache: /' || true
echo "kernel: $VF_BUILD/kernels/bzImage-$name"
