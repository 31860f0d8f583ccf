# Kernel-suites boots (configs/kernel-suites.sh): the KUnit suites ran
# before userspace; this records what they ran on. On a stage kernel the
# mode must be "always" and the virtual path must have been taken (the
# suites' slab caches are plain, but seq_file buffers and the
# SLAB_VFALLBACK dentry cache go through vfallback during boot).
. /results/scenarios/common.lib
mode=/sys/kernel/mm/vfallback/mode
if [ -r $mode ]; then
	echo "vfallback mode: $(cat $mode)"
	grep '^vfallback' /proc/vmstat
	check "stage kernel booted in mode always" grep -q '\[always\]' $mode
	check "the virtual path was taken during the boot" test "$(vmstat vfallback_virtual)" -gt 0
else
	echo "pristine kernel: no vfallback"
fi
finish
