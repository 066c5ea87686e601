#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 420
#
# The adapter has one ARP-cache entry per neighbour address, shared by the
# connections to it; its MAC must come from the kernel's neighbour table,
# never from a received frame, and follow that table's updates.
#   spoofed SYN: netns b takes another MAC for a moment and sends one SYN
#     to an irdma0 listener (a station claiming 192.0.2.2; b's neighbour
#     entry for a is permanent, so no ARP tells netns a's kernel of the
#     other MAC; b drops the answers, so the connection stays half-open).
#     vb gets its own MAC back, and irdma0 connects to siw0 at
#     192.0.2.2 while the spoofed half-open connection still lives.  The
#     connect must reach vb's real MAC (before: the SYN's MAC was
#     programmed and pinned by the half-open node, and the connect went to
#     the spoofer and timed out).
#   neighbour update: netns a's neighbour entry for 192.0.2.2 names a
#     wrong MAC while an irdma0 connect to a closed port keeps
#     retransmitting its SYN there (the entry in use); the entry is then
#     corrected, as a neighbour update would, and a new connect must use
#     the corrected MAC (before: an entry in use kept its old MAC).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
P=neigh-mac
SPOOF_MAC=02:00:00:5e:00:99
WRONG_MAC=02:00:00:5e:00:42

t_require "$P/tools" rdma rping || t_exit
t_need_ours "$P" irdma irdma_sim
t_iw_setup "$P"
t_check "$P/link-add-siw" t_in "$T_NS_B" rdma link add siw0 type siw netdev "$T_IF_B"
t_defer rdma link delete siw0
t_in "$T_NS_A" ping -c 1 -W 5 "$T_IP_B" >/dev/null 2>&1
t_in "$T_NS_B" ping -c 1 -W 5 "$T_IP_A" >/dev/null 2>&1
real_mac=$(t_in "$T_NS_B" cat "/sys/class/net/$T_IF_B/address")
t_defer ip -n "$T_NS_B" link set "$T_IF_B" address "$real_mac"
t_defer ip -n "$T_NS_A" neigh replace "$T_IP_B" lladdr "$real_mac" dev "$T_IF_A" nud reachable

cnt() { cat "/sys/class/infiniband/irdma0/ports/1/hw_counters/$1" 2>/dev/null || echo -1; }

# syn_from_b PORT: one SYN from netns b to irdma0's listener on PORT; the
# client is gone before any answer could complete the handshake
syn_from_b() {
	t_in "$T_NS_B" timeout 0.5 bash -c "exec 3<>/dev/tcp/$T_IP_A/$1" 2>/dev/null
	return 0
}

# an irdma0 listener for the SYNs (a server that never sees a request)
ip netns exec "$T_NS_A" timeout 120 rping -s -a "$T_IP_A" -p 7501 >/dev/null 2>&1 &
lpid=$!
t_defer kill "$lpid"
if ! t_wait 10 t_rdma_listening 7501; then
	t_fail "$P/listener" "no irdma0 listener on 7501"
	t_exit
fi

# --- a spoofed SYN -----------------------------------------------------------
# netns b drops what irdma0's listener answers, so the spoofed connection
# stays half-open (its SYN-ACKs retransmitted) while irdma0 connects
if ! t_check "$P/drop-synack" t_in "$T_NS_B" sh -c "
	tc qdisc add dev $T_IF_B clsact &&
	tc filter add dev $T_IF_B ingress protocol ip flower ip_proto tcp src_port 7501 action drop"; then
	t_exit
fi
va_mac=$(t_in "$T_NS_A" cat "/sys/class/net/$T_IF_A/address")
n0=$(cnt cmNodesCreated)
t_in "$T_NS_B" ip link set "$T_IF_B" address "$SPOOF_MAC"
# after the change (which flushes b's neighbours): no ARP from b, whose
# sender MAC would reach netns a's own neighbour table
t_in "$T_NS_B" ip neigh replace "$T_IP_A" lladdr "$va_mac" dev "$T_IF_B" nud permanent
syn_from_b 7501
t_in "$T_NS_B" ip link set "$T_IF_B" address "$real_mac"
n1=$(cnt cmNodesCreated)
neigh_a=$(t_in "$T_NS_A" ip neigh show "$T_IP_B")
t_log "spoofed SYN: irdma0 made $((n1 - n0)) node(s); netns a: $neigh_a"
if [ "$n1" -le "$n0" ]; then
	t_fail "$P/spoofed-syn-seen" "the SYN from $SPOOF_MAC made no node: the case did not run"
elif grep -qi "$SPOOF_MAC" <<<"$neigh_a"; then
	t_fail "$P/spoofed-syn-seen" "netns a's own neighbour table learnt $SPOOF_MAC: the case cannot tell"
else
	t_pass "$P/spoofed-syn-seen"
fi
t_rping "$P/connect-after-spoofed-syn" "$T_NS_B" "$T_NS_A" "$T_IP_B" 7502
t_in "$T_NS_B" tc qdisc del dev "$T_IF_B" clsact

# --- a neighbour update ------------------------------------------------------
t_in "$T_NS_A" ip neigh replace "$T_IP_B" lladdr "$WRONG_MAC" dev "$T_IF_A" nud permanent
n0=$(cnt cmConnects)
# a connect to a port nobody listens on: its SYNs go to the wrong MAC
ip netns exec "$T_NS_A" timeout 40 rping -c -a "$T_IP_B" -p 7509 -C 1 >/dev/null 2>&1 &
bpid=$!
# the case needs that connect in flight, holding the entry, when the
# entry is corrected
# shellcheck disable=SC2016 # t_wait evaluates it at each try
if ! t_wait 10 eval '[ "$(cnt cmConnects)" -gt "$n0" ]'; then
	t_fail "$P/neigh-update-entry-in-use" "no irdma0 connect started within 10 s (cmConnects $(cnt cmConnects)): the case did not run"
elif ! kill -0 "$bpid" 2>/dev/null; then
	t_fail "$P/neigh-update-entry-in-use" "the connect to the wrong MAC ended before the update: the case did not run"
else
	t_pass "$P/neigh-update-entry-in-use"
fi
t_in "$T_NS_A" ip neigh replace "$T_IP_B" lladdr "$real_mac" dev "$T_IF_A" nud reachable
t_log "neighbour update: $(($(cnt cmConnects) - n0)) connect(s) holding the old entry; netns a: $(t_in "$T_NS_A" ip neigh show "$T_IP_B")"
t_rping "$P/connect-after-neigh-update" "$T_NS_B" "$T_NS_A" "$T_IP_B" 7503
kill "$bpid" 2>/dev/null
wait "$bpid"

t_log "cmSynUnresolved $(cnt cmSynUnresolved)"
t_dmesg_check "$P/dmesg"
t_exit
