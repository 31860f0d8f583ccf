#!/bin/bash
# check-snapshot.sh OUTDIR TAG: host-side check that a guest snapshot
# (buddyinfo and vmstat) came back through the share and is well formed.
set -euo pipefail
out=${1:?usage: check-snapshot.sh OUTDIR TAG}
tag=${2:?usage: check-snapshot.sh OUTDIR TAG}
b=$out/buddyinfo-$tag v=$out/vmstat-$tag
ok=1
if ! awk 'NF != 15 || $1 != "Node" { bad = 1 } END { exit bad || NR == 0 }' "$b" 2>/dev/null; then
	echo "FAIL: $b missing or not 11 orders per zone"; ok=0
fi
for k in nr_free_pages pgalloc_normal compact_stall pgmigrate_success; do
	if ! grep -qE "^$k [0-9]+$" "$v" 2>/dev/null; then
		echo "FAIL: $v has no counter $k"; ok=0
	fi
done
free=$(awk '$1 == "nr_free_pages" { print $2 }' "$v" 2>/dev/null || echo 0)
if [ "${free:-0}" -le 0 ]; then echo "FAIL: $v: nr_free_pages is not positive"; ok=0; fi
[ "$ok" = 1 ] && echo "PASS: snapshot $tag well formed ($(basename "$out"): nr_free_pages=$free)"
[ "$ok" = 1 ]
