# An interactive shell in the guest (make shell K=...): the results share
# is /results (build/runs/shell-K on the host), the project's tools and
# fio, xfs_io, stress-ng are on PATH. 'exit' or Ctrl-D ends the
# guest (Ctrl-A X stops QEMU at once). With a command file in
# /results/in/cmd.sh (make run K=... CMD="..."), runs it instead and
# exits with its status.
. /results/scenarios/common.lib
if [ -f "$VF_IN/cmd.sh" ]; then
	sh "$VF_IN/cmd.sh"
	rc=$?
	echo "vf-run: exit status $rc"
	exit $rc
fi
echo "vf-shell: $(uname -r), results share on /results; 'exit' or Ctrl-D leaves (the console is checked for splats then)"
setsid cttyhack sh -i
exit 0
