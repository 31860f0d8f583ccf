#!/bin/bash
# check-patches.sh [STACKDIR...]: every patch of every series has From:,
# Subject:, a description and Signed-off-by:, and checkpatch.pl (from the
# pristine tree) reports no errors. One PASS/FAIL line per patch.
set -euo pipefail
. "$(dirname "$0")/common.sh"

stacks=("$@")
[ ${#stacks[@]} -gt 0 ] || stacks=("${VF_STACKS[@]/#/$VF_TOP/}")
cp=$VF_SRC/pristine/scripts/checkpatch.pl
[ -f "$cp" ] || die "$cp missing: run configs/mktree.sh plain first"
rc=0
for s in "${stacks[@]}"; do
	[ -f "$s/series" ] || { echo "FAIL: $s/series missing"; rc=1; continue; }
	while read -r p _; do
		case "$p" in "" | \#*) continue ;; esac
		f=$s/$p name=$(basename "$s")/$p why=()
		if [ ! -f "$f" ]; then echo "FAIL: patch $name: listed in series but missing"; rc=1; continue; fi
		grep -q '^From: .*<.*@.*>' "$f" || why+=("no From: with an address")
		grep -q '^Subject: \[PATCH' "$f" || why+=("no Subject: [PATCH ...]")
		grep -q '^Signed-off-by: .*<.*@.*>' "$f" || why+=("no Signed-off-by:")
		# a description: at least 3 non-empty lines between Subject: and ---
		desc=$(awk '/^Subject:/ { s = 1; next } s && /^---/ { exit } s && NF { n++ } END { print n + 0 }' "$f")
		[ "$desc" -ge 3 ] || why+=("description too short ($desc lines)")
		out=$(cd "$VF_SRC/pristine" && perl "$cp" --terse --no-summary --show-types "$f" 2>&1 || true)
		# Also as run from the repository: checkpatch then checks a git-tracked
		# patch as a plain file, so whitespace-only context lines would count.
		# The path must be relative: checkpatch asks git about it, and git
		# does not recognise an absolute path as a tracked file.
		out+=$'\n'$(cd "$VF_TOP" && perl "$cp" --no-tree --terse --no-summary --show-types "${f#"$VF_TOP"/}" 2>&1 || true)
		errs=$(grep -c ': ERROR:' <<<"$out" || true)
		warns=$(grep -c ': WARNING:' <<<"$out" || true)
		[ "$errs" = 0 ] || { why+=("checkpatch: $errs error(s)"); grep ': ERROR:' <<<"$out" | head -5 | sed 's/^/    /'; }
		if [ ${#why[@]} -eq 0 ]; then
			echo "PASS: patch $name (checkpatch: 0 errors, $warns warnings)"
		else
			echo "FAIL: patch $name: $(IFS=';'; echo "${why[*]}")"; rc=1
		fi
	done <"$s/series"
done
exit $rc
