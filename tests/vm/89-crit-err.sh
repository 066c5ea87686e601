#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 180
#
# Critical errors of the function, as ice reports them (interrupt cause
# bits of the LAN function; a PE critical error's cause in GLPE_CRITERR),
# raised by the model through its debugfs "crit_err":
#   - the benign "Q1 resource check" (PE_CRITERR, cause 0x0001024d) is
#     counted (critErrorsBenign) and logged, and asks for no reset;
#   - any other PE critical error, an HMC error and a push error are
#     counted (critErrors), logged by kind, and ask for a function reset,
#     once however many come (the model counts the requests);
#   - the driver reads the cause from GLPE_CRITERR, not from the event.
# Then the kernel log has no report beyond those messages.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
P=crit-err

t_need_ours "$P" irdma irdma_sim
t_iw_setup "$P"
dbg=$(t_sim_dbg)
if [ ! -w "$dbg/crit_err" ]; then
	t_fail "$P/knob" "the model has no crit_err in ${dbg:-debugfs}"
	t_exit
fi

# counter NAME: a port counter of irdma0
counter() {
	rdma statistic show link irdma0/1 2>/dev/null | grep -o " $1 [0-9]*" | awk '{ print $2 }'
}
resets() { sed -n 's/^reset_requests //p' "$dbg/stats"; }

# raise NAME "OICR [CRITERR]" MESSAGE BENIGN ERRORS RESETS: the counters
# grow by BENIGN and ERRORS, the model's reset requests by RESETS, and the
# kernel log has MESSAGE
raise() {
	local name=$1 val=$2 msg=$3 b0 e0 r0 b1 e1 r1
	b0=$(counter critErrorsBenign) e0=$(counter critErrors) r0=$(resets)
	t_dmesg_mark "$P/$name"
	if ! echo "$val" >"$dbg/crit_err"; then
		t_fail "$P/$name" "writing '$val' to crit_err failed"
		return
	fi
	t_wait 5 eval "t_dmesg_since | grep -q '$msg'"
	b1=$(counter critErrorsBenign) e1=$(counter critErrors) r1=$(resets)
	if [ "$((b1 - b0))" = "$4" ] && [ "$((e1 - e0))" = "$5" ] &&
		[ "$((r1 - r0))" = "$6" ] && t_dmesg_since | grep -q "$msg"; then
		t_pass "$P/$name"
	else
		t_dmesg_since | tail -n 5 | t_indent
		t_fail "$P/$name" "benign +$((b1 - b0)), errors +$((e1 - e0)), reset requests +$((r1 - r0)) (want +$4, +$5, +$6); '$msg' logged: $(t_dmesg_since | grep -c "$msg")"
	fi
}

raise q1-benign "0x10000000 0x0001024d" "Q1 resource check" 1 0 0
raise q1-benign-again "0x10000000 0x0001024d" "Q1 resource check" 1 0 0
raise pe-criterr "0x10000000 0x00010001" "critical error 0x00010001" 0 1 1
# one reset request however many errors follow
raise hmc "0x04000000" "HMC error" 0 1 0
raise push "0x08000000" "push error" 0 1 0
t_check "$P/link-delete" rdma link delete irdma0
t_check "$P/modprobe-r" modprobe -r irdma_sim irdma
t_dmesg_check "$P/dmesg"
t_exit
