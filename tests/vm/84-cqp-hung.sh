#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 240
#
# A control QP that stops answering (the model's stall_cqp: a hung
# adapter).  irdma is loaded with cqp_timeout_ms=1000; a process holds
# 400 QPs and 400 CQs of irdma0 (tests/progs/hold_objs), then the control
# QP stalls and the device is deleted under them:
#   - the first command to time out marks the control QP hung, and asks
#     for one reset; every later command fails at once, so the deletion
#     (800 objects destroyed through the control QP) ends within 20 s
#     instead of a timeout per object;
#   - the kernel log says so once, and has no other report;
#   - the process is disassociated, releases what it holds and exits,
#     and the modules unload.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
P=cqp-hung
N=400

t_need_ours "$P" irdma irdma_sim
t_need_progs "$P/progs" hold_objs
if ! t_hosts_up; then
	t_fail "$P/hosts" "cannot create netns a/b joined by va/vb"
	t_exit
fi
modprobe -r irdma_sim irdma 2>/dev/null
modprobe -a rdma_ucm ib_uverbs
if ! t_check "$P/modprobe" modprobe irdma cqp_timeout_ms=1000; then
	t_exit
fi
t_dmesg_mark "$P"
work=$(mktemp -d /var/tmp/$P.XXXXXX)
t_defer rm -rf "$work"
if ! t_check "$P/link-add" t_in "$T_NS_A" rdma link add irdma0 type irdma_sim netdev "$T_IF_A"; then
	t_exit
fi
dbg=$(t_sim_dbg)

mkfifo "$work/in"
"$T_PROGS/hold_objs" -d irdma0 -n "$N" <"$work/in" >"$work/out" 2>&1 &
hpid=$!
exec 7>"$work/in"
t_defer kill "$hpid"
if ! t_wait 120 grep -q '^READY' "$work/out" || ! grep -q "^READY $N\$" "$work/out"; then
	t_indent <"$work/out"
	t_fail "$P/hold" "hold_objs did not make $N QPs and CQs"
	t_exit
fi
t_pass "$P/hold"

echo 1 >"$dbg/stall_cqp"
start=$(date +%s)
if timeout 120 rdma link delete irdma0; then
	took=$(($(date +%s) - start))
	if [ "$took" -le 20 ]; then
		t_pass "$P/delete-in-seconds"
	else
		t_fail "$P/delete-in-seconds" "the deletion took $took s"
	fi
	t_log "deletion of irdma0 with $N QPs and CQs and a stalled control QP: $took s"
else
	t_fail "$P/delete-in-seconds" "rdma link delete did not end within 120 s"
fi
n=$(t_dmesg_since | grep -c 'the control QP stopped answering')
if [ "$n" = 1 ]; then
	t_pass "$P/said-once"
else
	t_dmesg_since | grep -i 'cqp\|control QP' | tail -n 5 | t_indent
	t_fail "$P/said-once" "'stopped answering' logged $n times"
fi
n=$(t_dmesg_since | grep -c 'asks for a function reset')
if [ "$n" = 1 ]; then
	t_pass "$P/one-reset-request"
else
	t_fail "$P/one-reset-request" "$n reset requests"
fi

exec 7>&-
if t_wait 30 eval "! kill -0 $hpid"; then
	wait "$hpid"
	t_pass "$P/process-exits"
	t_indent <"$work/out"
else
	t_fail "$P/process-exits" "hold_objs still runs 30 s after its device went"
fi
t_check "$P/modprobe-r" modprobe -r irdma_sim irdma
t_dmesg_check "$P/dmesg"
t_exit
