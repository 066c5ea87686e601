#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A user names a QP to rdma_connect() while its creation is still running
# (tests/progs/qp_race): the creation is held in its last step, the copy of
# the driver's response, by a response buffer under userfaultfd, and made
# to fail there.  The connect must not find the QP (EINVAL); the failed
# creation must leave nothing behind (the modules unload) and the kernel
# log clean (a use after free shows as poison or a refcount report).
# timeout: 180
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
P=hostile-qp-race

t_need_ours "$P" irdma irdma_sim
t_need_progs "$P/progs" qp_race
t_iw_setup "$P"

for i in 1 2 3; do
	if out=$(t_in "$T_NS_A" timeout 60 "$T_PROGS/qp_race" -a "$T_IP_B" -p $((7170 + i)) 2>&1); then
		t_pass "$P/connect-during-create-$i"
	else
		t_fail "$P/connect-during-create-$i" "qp_race: $(grep FAIL <<<"$out" | head -n 1)"
	fi
	t_indent <<<"$out"
done
t_check "$P/link-delete" rdma link delete irdma0
t_check "$P/modprobe-r" modprobe -r irdma_sim irdma
t_dmesg_check "$P/dmesg"
t_exit
