#!/bin/bash
# check-config.sh DOTCONFIG FRAGMENT...
# Every option a fragment asks for must have landed in DOTCONFIG after
# olddefconfig; names the ones that did not and exits 1.
set -euo pipefail
cfg=${1:?usage: check-config.sh .config fragment...}
shift
[ -f "$cfg" ] || { echo "ERROR: $cfg does not exist" >&2; exit 2; }
bad=0
for frag in "$@"; do
	[ -f "$frag" ] || { echo "ERROR: fragment $frag does not exist" >&2; exit 2; }
	while IFS= read -r line; do
		case "$line" in
		"# CONFIG_"*" is not set") opt=${line#\# }; opt=${opt%% *}; want=n ;;
		CONFIG_*=*) opt=${line%%=*}; want=${line#*=} ;;
		"" | \#*) continue ;;
		*) echo "ERROR: $frag: cannot parse line: $line" >&2; exit 2 ;;
		esac
		have=$(grep -E "^$opt=|^# $opt is not set" "$cfg" | head -1 || true)
		case "$have" in
		"$opt="*) have=${have#*=} ;;
		*) have=n ;;
		esac
		if [ "$have" != "$want" ]; then
			echo "config: $opt: fragment $(basename "$frag") asks for '$want', .config has '$have'"
			bad=1
		fi
	done <"$frag"
done
if [ "$bad" != 0 ]; then
	echo "ERROR: options above did not land in $cfg (missing dependency, or a typo in the fragment)" >&2
	exit 1
fi
