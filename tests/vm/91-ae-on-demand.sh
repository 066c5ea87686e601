#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 240
#
# Asynchronous events of the whole function, raised by the model on
# demand (debugfs "raise_ae": CODE [COUNT]):
#   - resource exhaustion (0x0520) is logged and asks for no reset;
#   - a catastrophic function error (0x0701) is logged and asks for one
#     function reset (the model counts the requests);
#   - more AEs than the AEQ holds, at once: the adapter marks the last
#     free slot with the overflow bit and drops the rest; the driver logs
#     the loss and asks for one reset, since the lost events may be any
#     connection's.
# Each on a function of its own, and rping runs on the first before and
# after the harmless AE.  Then the kernel log has no report beyond those
# messages.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
P=ae-on-demand

t_need_ours "$P" irdma irdma_sim
t_iw_setup "$P"
dbg=$(t_sim_dbg)
if [ ! -w "$dbg/raise_ae" ]; then
	t_fail "$P/knob" "the model has no raise_ae in ${dbg:-debugfs}"
	t_exit
fi
resets() { sed -n 's/^reset_requests //p' "$dbg/stats"; }

# raise NAME "CODE [COUNT]" MESSAGE RESETS: the kernel log has MESSAGE and
# the model's reset requests grew by RESETS
raise() {
	local name=$1 val=$2 msg=$3 r0 r1
	r0=$(resets)
	t_dmesg_mark "$P/$name"
	if ! echo "$val" >"$dbg/raise_ae"; then
		t_fail "$P/$name" "writing '$val' to raise_ae failed"
		return
	fi
	t_wait 10 eval "t_dmesg_since | grep -q '$msg'"
	sleep 1
	r1=$(resets)
	if [ "$((r1 - r0))" = "$4" ] && t_dmesg_since | grep -q "$msg"; then
		t_pass "$P/$name"
	else
		t_dmesg_since | tail -n 5 | t_indent
		t_fail "$P/$name" "reset requests +$((r1 - r0)) (want +$4); '$msg' logged: $(t_dmesg_since | grep -c "$msg")"
	fi
}

# the function works before and after an AE that costs it nothing: rping
# to a siw server in netns b
t_check "$P/link-add-siw" t_in "$T_NS_B" rdma link add siw0 type siw netdev "$T_IF_B"
t_defer rdma link delete siw0
t_rping "$P/rping-before" "$T_NS_B" "$T_NS_A" "$T_IP_B" 7911
raise exhaustion "0x0520" "adapter out of resources" 0
t_rping "$P/rping-after" "$T_NS_B" "$T_NS_A" "$T_IP_B" 7912
raise catastrophic "0x0701" "catastrophic function error" 1

# a function of its own for the overflow: the reset is asked for once
t_check "$P/link-delete" rdma link delete irdma0
t_check "$P/link-add" t_in "$T_NS_A" rdma link add irdma0 type irdma_sim netdev "$T_IF_A"
dbg=$(t_sim_dbg)
raise aeq-overflow "0x0520 1000000" "AEQ full: the adapter lost asynchronous events" 1
if grep -q "^aeqe_drops [1-9]" "$dbg/stats"; then
	t_pass "$P/aeq-overflow-dropped"
else
	t_fail "$P/aeq-overflow-dropped" "the model dropped no AE: $(grep aeqe "$dbg/stats" | tr '\n' ' ')"
fi

t_check "$P/link-delete-again" rdma link delete irdma0
t_check "$P/link-delete-siw" rdma link delete siw0
t_check "$P/modprobe-r" modprobe -r irdma_sim irdma
t_dmesg_check "$P/dmesg"
t_exit
