#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 240
#
# ibv_resize_cq on irdma's user CQs, through stock libirdma (which asks
# for it once the driver announces the CQ_RESIZE feature): the client of
# tests/progs/resize_cq, irdma0 in netns a, resizes its CQ of 64 entries
# to 8 and then to 256 with Send completions queued in it and more
# arriving after, and every completion must come out, in order; resizes
# to 2^24 entries is refused with EINVAL.  Its server is siw0, then
# irdma1 (a second model instance), in netns b.  The kernel's CQs are
# resized in vm/85 (tests/kmod/irdma_kverbs_test.c).  Then the modules
# unload with a clean kernel log.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
P=resize-cq

t_require "$P/tools" rdma || t_exit
t_need_ours "$P" irdma irdma_sim
t_need_progs "$P/progs" resize_cq
t_iw_setup "$P"
work=$T_WORK

# run NAME PORT: the server in b, the client in a
run() {
	local name=$1 port=$2 spid rc=0
	ip netns exec "$T_NS_B" "$T_PROGS/resize_cq" -s -a "$T_IP_B" -p "$port" \
		>"$work/s.$port" 2>&1 &
	spid=$!
	if ! t_wait 10 t_rdma_listening "$port"; then
		t_fail "$name" "the server does not listen"
		kill "$spid" 2>/dev/null
		return
	fi
	t_in "$T_NS_A" timeout 60 "$T_PROGS/resize_cq" -c -a "$T_IP_B" -p "$port" \
		>"$work/c.$port" 2>&1 || rc=$?
	t_wait_pid "$spid" 30 || rc=$((rc ? rc : 1))
	if [ "$rc" -eq 0 ]; then
		t_pass "$name"
	else
		t_indent <"$work/c.$port"
		t_indent <"$work/s.$port"
		t_iw_diag
		t_fail "$name" "client or server failed"
	fi
	t_indent <"$work/c.$port"
}

if t_check "$P/link-add-siw" t_in "$T_NS_B" rdma link add siw0 type siw netdev "$T_IF_B"; then
	run "$P/irdma-client-siw" 7500
	t_check "$P/link-delete-siw" rdma link delete siw0
fi
if t_check "$P/link-add-irdma1" t_in "$T_NS_B" rdma link add irdma1 type irdma_sim netdev "$T_IF_B"; then
	t_defer rdma link delete irdma1
	run "$P/irdma-client-irdma" 7501
	t_check "$P/link-delete-irdma1" rdma link delete irdma1
fi
t_check "$P/link-delete" rdma link delete irdma0
t_check "$P/modprobe-r" modprobe -r irdma_sim irdma
t_dmesg_check "$P/dmesg"
t_exit
