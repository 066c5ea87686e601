#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 240
#
# RDMA Write with immediate data through stock libirdma (the driver
# announces it in the QP's capabilities): tests/progs/write_imm's client
# on irdma0 (netns a) writes with immediate data into its server's buffer
# on irdma1, a second model instance (netns b): 64 KiB from one SGE, none,
# three SGEs, 32 bytes inline, and a solicited one; the server must get
# each as a Recv completion IBV_WC_RECV_RDMA_WITH_IMM with the value, in
# order, the Write's data in place, the solicited one raising a solicited
# event.  Against siw0, which does not implement immediate data (RFC
# 7306), the one Write with immediate data must end the connection on
# both sides (siw's TERMINATE), with the server's Recv flushed and
# nothing hanging.  The kernel's IB_WR_RDMA_WRITE_WITH_IMM is in vm/85.
# Then the modules unload with a clean kernel log.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
P=write-imm

t_require "$P/tools" rdma || t_exit
t_need_ours "$P" irdma irdma_sim
t_need_progs "$P/progs" write_imm
t_iw_setup "$P"
work=$T_WORK

# run NAME PORT [-x]: the server in b, the client in a
run() {
	local name=$1 port=$2 x=${3:-} spid rc=0
	# shellcheck disable=SC2086 # $x: no word or one
	ip netns exec "$T_NS_B" "$T_PROGS/write_imm" $x -s -a "$T_IP_B" -p "$port" \
		>"$work/s.$port" 2>&1 &
	spid=$!
	if ! t_wait 10 t_rdma_listening "$port"; then
		t_fail "$name" "the server does not listen"
		kill "$spid" 2>/dev/null
		return
	fi
	# shellcheck disable=SC2086
	t_in "$T_NS_A" timeout 60 "$T_PROGS/write_imm" $x -c -a "$T_IP_B" -p "$port" \
		>"$work/c.$port" 2>&1 || rc=$?
	t_wait_pid "$spid" 40 || rc=$((rc ? rc : 1))
	if [ "$rc" -eq 0 ]; then
		t_pass "$name"
	else
		t_indent <"$work/s.$port"
		t_iw_diag
		t_fail "$name" "client or server failed"
	fi
	t_indent <"$work/c.$port"
	t_indent <"$work/s.$port"
}

if t_check "$P/link-add-irdma1" t_in "$T_NS_B" rdma link add irdma1 type irdma_sim netdev "$T_IF_B"; then
	t_defer rdma link delete irdma1
	run "$P/irdma-irdma" 7600
	t_check "$P/link-delete-irdma1" rdma link delete irdma1
fi
if t_check "$P/link-add-siw" t_in "$T_NS_B" rdma link add siw0 type siw netdev "$T_IF_B"; then
	run "$P/irdma-siw-refused" 7601 -x
	t_check "$P/link-delete-siw" rdma link delete siw0
fi
t_check "$P/link-delete" rdma link delete irdma0
t_check "$P/modprobe-r" modprobe -r irdma_sim irdma
t_dmesg_check "$P/dmesg"
t_exit
