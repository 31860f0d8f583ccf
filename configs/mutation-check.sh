#!/bin/bash
# mutation-check.sh: show that the KUnit suite fails when a behaviour is
# removed. Each mutant edits one line of mm/vfallback.c in a copy of the
# stage-1 tree, is built (ccache makes that a few minutes) and booted;
# the mutant is "killed" when at least one KUnit case fails.
# Writes results/mutation-check.txt.
set -euo pipefail
. "$(dirname "$0")/common.sh"

mutants=(
	"path-selection|ignore the mode: always try physical first|s/if (!vfallback_always() || !gfpflags_allow_blocking(gfp)) {/if (true) {/"
	"leak|pages of a virtual compound are never freed|s/^\t\tfree_unref_page(area->pages\[i\], 0);/\t\tif (0) free_unref_page(area->pages[i], 0);/"
	"zeroing|__GFP_ZERO dropped on the virtual path|s/gfp \&= ~(__GFP_VFALLBACK | __GFP_COMP | __GFP_HIGH | __GFP_MEMALLOC);/gfp \&= ~(__GFP_VFALLBACK | __GFP_COMP | __GFP_HIGH | __GFP_MEMALLOC | __GFP_ZERO);/"
	"held|a released compound stays counted as held|s/^\tvfallback_account(-(long)area->nr_pages);/\tvfallback_account(0);/"
)
"$VF_TOP/configs/mkkernel.sh" 1 default >/dev/null
src=$(vf_tree 1)
out=$VF_TOP/results/mutation-check.txt
{
	echo "# mutation-check: KUnit suite vfallback against mutants of mm/vfallback.c"
	echo "# linux $(cat "$VF_SRC/pristine/.vf-version") + stage 1, variant default, $(date -u +%FT%TZ)"
} >"$out"
rc=0
for m in "${mutants[@]}"; do
	IFS='|' read -r name what expr <<<"$m"
	tree=$VF_SRC/mutant-$name
	rm -rf "$tree"
	mkdir -p "$tree"
	(cd "$src" && find . -mindepth 1 -maxdepth 1 ! -name 'o-*' ! -name '.vf-*' ! -name patches ! -name .pc \
		-exec cp -al {} "$tree/" \;)
	sed -i "$expr" "$tree/mm/vfallback.c"   # sed -i replaces the file: the hard link breaks
	if cmp -s "$tree/mm/vfallback.c" "$src/mm/vfallback.c"; then
		echo "FAIL: mutant $name: the edit did not apply (mm/vfallback.c changed?)" | tee -a "$out"; rc=1; continue
	fi
	mkdir -p "$tree/o-default"
	cp "$(vf_objdir 1 default)/.config" "$tree/o-default/.config"
	say "mutant $name: $what"
	make -C "$tree" O="$tree/o-default" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" -j"$(nproc)" \
		bzImage >"$VF_LOGS/mutant-$name.build.log" 2>&1 || { echo "FAIL: mutant $name does not build" | tee -a "$out"; rc=1; continue; }
	"$VF_TOP/qemu/run.sh" --kernel "$tree/o-default/arch/x86/boot/bzImage" --name "mutant-$name" \
		--scenario probe --timeout 900 --append "numa=fake=2" >/dev/null 2>&1 || true
	python3 "$src/tools/testing/kunit/kunit.py" parse --json="$VF_BUILD/runs/mutant-$name/kunit.json" \
		"$VF_LOGS/mutant-$name.console.log" >/dev/null 2>&1 || true
	# kunit-summary.py exits non-zero when cases fail, which is the point here.
	failed=$({ python3 "$VF_TOP/qemu/kunit-summary.py" "$VF_BUILD/runs/mutant-$name/kunit.json" m vfallback || true; } |
		sed -n 's/^FAIL: m kunit vfallback\/\([a-z0-9_]*\).*/\1/p' | tr '\n' ' ')
	if [ -n "$failed" ]; then
		echo "PASS: mutant $name ($what) killed by: $failed" | tee -a "$out"
	else
		echo "FAIL: mutant $name ($what) survived: no KUnit case failed" | tee -a "$out"; rc=1
	fi
	rm -rf "$tree"
done
exit $rc
