#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 300
#
# An offloaded connection leaves no TCP state in the host's stack: on
# silicon its TIME_WAIT is the connection manager's and the adapter's.
# The model continues each connection on a kernel socket; once the
# connection has closed, that socket must leave no TIME_WAIT entry behind.
#   - 200 serial connections with irdma0 (netns a) as the client of irdma1
#     (netns b), each closed by the client: afterwards neither namespace
#     holds a TIME_WAIT socket;
#   - 200 with siw0 (netns b, in place of irdma1) as the client of irdma0:
#     netns a, irdma's side, holds none either (siw's own are in b).
# (irdma as the client of a siw server is left out: siw 6.1 can BUG
# iw_cm on close in that pairing, see tests/vm/72-cm-loop.sh.)
# Then the kernel log is clean.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
P=host-tcp-state
N=${HOST_TCP_N:-200}
LOOP=$T_PROGS/cm_loop

t_need_ours "$P" irdma irdma_sim
t_need_progs "$P/progs" cm_loop
t_iw_setup "$P"
if ! t_check "$P/link-add-irdma1" t_in "$T_NS_B" rdma link add irdma1 type irdma_sim netdev "$T_IF_B"; then
	t_exit
fi
t_in "$T_NS_A" ping -c 1 -W 5 "$T_IP_B" >/dev/null 2>&1

# tw NS: TIME_WAIT sockets in netns NS
tw() { ip netns exec "$1" ss -Htan state time-wait | wc -l; }

# loop NAME SERVER_NS CLIENT_NS ADDR PORT: N serial connections
loop() {
	local name=$1 sns=$2 cns=$3 addr=$4 port=$5 spid out rc=0
	ip netns exec "$sns" timeout 200 "$LOOP" -s -a "$addr" -p "$port" -n 0 >"$T_WORK/srv.$port" 2>&1 &
	spid=$!
	if ! t_wait 10 t_rdma_listening "$port"; then
		kill "$spid" 2>/dev/null
		wait "$spid"
		t_fail "$name" "the server does not listen"
		return 1
	fi
	out=$(t_in "$cns" timeout 200 "$LOOP" -c -a "$addr" -p "$port" -n "$N" 2>&1) || rc=$?
	kill -TERM "$spid" 2>/dev/null
	wait "$spid"
	t_log "$name: $(grep -m1 'connections in' <<<"$out")"
	if [ "$rc" -eq 0 ]; then
		t_pass "$name"
	else
		t_indent <<<"$out"
		t_fail "$name" "cm_loop exited $rc"
	fi
}

# none NAME NS: no TIME_WAIT socket in NS (a closing one may take a moment)
none() {
	if t_wait 10 eval "[ \"\$(tw $2)\" = 0 ]"; then
		t_pass "$1"
	else
		t_fail "$1" "$(tw "$2") TIME_WAIT sockets in netns $2: $(ip netns exec "$2" ss -Htan state time-wait | head -n 3 | tr -s ' ' | tr '\n' ';')"
	fi
}

loop "$P/irdma-client-irdma" "$T_NS_B" "$T_NS_A" "$T_IP_B" 7501
none "$P/irdma-client-no-timewait" "$T_NS_A"
none "$P/irdma-server-no-timewait" "$T_NS_B"
t_check "$P/link-delete-irdma1" rdma link delete irdma1
if ! t_check "$P/link-add-siw" t_in "$T_NS_B" rdma link add siw0 type siw netdev "$T_IF_B"; then
	t_exit
fi
t_defer rdma link delete siw0
loop "$P/siw-client-irdma" "$T_NS_A" "$T_NS_B" "$T_IP_A" 7502
none "$P/irdma-server-of-siw-no-timewait" "$T_NS_A"

t_dmesg_check "$P/dmesg"
t_exit
