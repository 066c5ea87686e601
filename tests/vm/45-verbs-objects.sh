#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The verbs objects of the stock libirdma provider through the model:
# PD, MR (REG_MR with a page list in the HMC), CQ with a completion channel
# and a user ring, RC QP with a user SQ/RQ, the iWARP pre-connection state
# steps (INIT and RTR accepted, RTS refused without the CM), ERR with
# flush, UD refused; 20 rounds, with sizes that need page lists; then the
# device goes away and nothing is left (module references, slab, dmesg).
# In between, progs/ring_reg.c sends the ring registrations libirdma makes
# before CREATE_QP/CREATE_CQ as raw uverbs commands: QP and CQ rings in a
# read-only mapping are refused with EFAULT whatever access they name (the
# adapter writes them), writable ones with no access flag are accepted;
# then for RACE_SECONDS (default 10) one thread deregisters a QP ring while
# another creates a QP on it, and every round must have exactly one winner
# (DEREG_MR, or CREATE_QP with DEREG_MR refused EBUSY).  The VM poisons
# freed slab and pages (tools/vm/tests.sh), so a QP left on a freed ring
# also shows in dmesg.
# timeout: 300
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
P=verbs
PROG=$T_PROGS/verbs_objects
RING=$T_PROGS/ring_reg

t_require "$P/tools" rdma || t_exit
t_need_ours "$P" irdma_sim irdma
if [ ! -x "$PROG" ] || [ ! -x "$RING" ]; then
	t_fail "$P/prog" "$PROG or $RING not built"
	t_exit
fi
if ! t_hosts_up; then
	t_fail "$P/hosts" "cannot create netns a/b joined by va/vb"
	t_exit
fi
modprobe -r irdma_sim irdma 2>/dev/null
modprobe -a rdma_ucm ib_uverbs
t_dmesg_mark "$P"
modprobe -a irdma_sim irdma
base=$(t_modref irdma)
t_slab_snap /tmp/verbs.slab.before
if ! t_in "$T_NS_A" timeout 30 rdma link add irdma0 type irdma_sim netdev "$T_IF_A"; then
	t_fail "$P/add" "rdma link add failed"
	t_exit
fi

out=$(timeout 120 "$PROG" -d irdma0 -n 1 2>&1)
rc=$?
t_indent <<<"$out"
if [ "$rc" -eq 0 ] && grep -q '^ALL OK' <<<"$out"; then
	t_pass "$P/objects"
else
	t_fail "$P/objects" "verbs_objects exited $rc"
fi
# 3 MB regions span many pages: page lists in the HMC, 20 rounds
out=$(timeout 200 "$PROG" -d irdma0 -n 20 -s 3000000 2>&1)
rc=$?
grep -v '^ok:' <<<"$out" | t_indent
if [ "$rc" -eq 0 ] && grep -q '^ALL OK' <<<"$out"; then
	t_pass "$P/objects-20-rounds"
else
	t_fail "$P/objects-20-rounds" "verbs_objects exited $rc"
fi
out=$(timeout 120 "$RING" -d irdma0 -t "${RACE_SECONDS:-10}" 2>&1)
rc=$?
t_indent <<<"$out"
if [ "$rc" -eq 0 ] && grep -q '^ALL OK' <<<"$out"; then
	t_pass "$P/ring-read-only-and-race"
else
	t_fail "$P/ring-read-only-and-race" "ring_reg exited $rc: $(grep -m1 '^FAIL' <<<"$out")"
fi

t_in "$T_NS_A" timeout 30 rdma link delete irdma0
if t_modref_wait irdma "$base" 10; then
	t_pass "$P/refcnt"
else
	t_fail "$P/refcnt" "irdma refcnt $(t_modref irdma), baseline $base"
fi
modprobe -r irdma_sim irdma
t_slab_snap /tmp/verbs.slab.after
t_slab_cmp "$P/slab" /tmp/verbs.slab.before /tmp/verbs.slab.after
t_dmesg_check "$P/dmesg"
t_exit
