#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 300
#
# The model's ILQ under load, beside 60-ilq-wire.sh's one connection at a
# time: irdma0 (irdma_sim on va, netns a) listens through rdma_cm
# (tests/progs/cm_reject -s, which refuses each request with private data)
# and the kernel's TCP in netns b sends hand-made MPA v2 requests
# (tests/progs/mpa_peer -c):
#   - bursts of 8 requests at once, over IPv4 and IPv6: each one is steered
#     to the ILQ, reaches the listener and gets its MPA reject back, and
#     the model counts no error;
#   - "rdma link delete irdma0" while requests keep coming: the device
#     goes, va still carries IP traffic, the kernel log stays clean.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
P=ilq-load

t_require "$P/tools" rdma || t_exit
t_need_ours "$P" irdma irdma_sim
t_need_progs "$P/progs" cm_reject mpa_peer
if ! t_hosts_up; then
	t_fail "$P/hosts" "cannot create netns a/b joined by va/vb"
	t_exit
fi
modprobe -r irdma_sim irdma 2>/dev/null
if ! modprobe -a rdma_ucm ib_uverbs; then
	t_fail "$P/modprobe" "cannot load rdma_ucm, ib_uverbs"
	t_exit
fi
t_dmesg_mark "$P"
work=$(mktemp -d /var/tmp/ilq-load.XXXXXX)
t_defer rm -rf "$work"

if ! t_check "$P/link-add" t_in "$T_NS_A" rdma link add irdma0 type irdma_sim netdev "$T_IF_A"; then
	t_dmesg_since | tail -n 30 | t_indent
	t_exit
fi
t_defer rdma link delete irdma0
dbg=$(t_sim_dbg)
if [ -z "$dbg" ] || [ "$(t_sim_net "$dbg" attached)" != 1 ]; then
	t_fail "$P/attached" "no irdma_sim debugfs 'net' file saying attached 1 (${dbg:-none})"
	t_exit
fi
t_wait 10 t_in "$T_NS_B" ping -c 1 -W 1 "$T_IP_A" || t_log "$T_IP_A does not answer ping yet"

# burst NAME ADDR PORT N: N MPA v2 requests at once, each refused with
# private data by a listener that serves N requests
burst() {
	local name=$1 addr=$2 port=$3 n=$4 i spid ok pids=()
	ip netns exec "$T_NS_A" "$T_PROGS/cm_reject" -s -a "$addr" -p "$port" -n "$n" -t 60 \
		>"$work/srv.$port" 2>&1 &
	spid=$!
	if ! t_wait 30 t_rdma_listening "$port"; then
		kill "$spid" 2>/dev/null
		wait "$spid"
		t_indent <"$work/srv.$port"
		t_fail "$name" "the irdma0 listener on $addr port $port does not listen"
		return
	fi
	for ((i = 0; i < n; i++)); do
		ip netns exec "$T_NS_B" "$T_PROGS/mpa_peer" -c -a "$addr" -p "$port" -t 40 \
			>"$work/cli.$port.$i" 2>&1 &
		pids+=("$!")
	done
	wait "${pids[@]}"
	wait "$spid"
	ok=$(grep -l "R=1 .*'irdma says no'" "$work/cli.$port".* | wc -l)
	if [ "$ok" = "$n" ]; then
		t_pass "$name"
	else
		cat "$work/cli.$port".* "$work/srv.$port" | t_indent
		t_fail "$name" "$ok of $n MPA clients to $addr port $port got the reject"
	fi
}
burst "$P/burst-ipv4" "$T_IP_A" 7201 8
burst "$P/burst-ipv6" "$T_IP6_A" 7202 8

bad=$(t_sim_net_errors "$dbg")
if [ -z "$bad" ]; then
	t_pass "$P/counters"
	t_log "$(t_sim_net "$dbg" rx_steered) frames steered, $(t_sim_net "$dbg" tx_sent) sent"
else
	t_indent <"$dbg/net"
	t_fail "$P/counters" "error counters:$bad"
fi

# --- the device goes while requests come and go -----------------------------
ip netns exec "$T_NS_A" "$T_PROGS/cm_reject" -s -a "$T_IP_A" -p 7203 -n 1000 -t 60 \
	>/dev/null 2>&1 &
spid=$!
t_defer kill "$spid"
if t_wait 30 t_rdma_listening 7203; then
	(for _ in $(seq 200); do
		ip netns exec "$T_NS_B" "$T_PROGS/mpa_peer" -c -a "$T_IP_A" -p 7203 -t 2 >/dev/null 2>&1
	done) &
	cpid=$!
	sleep 2
	t_check "$P/delete-under-load" rdma link delete irdma0
	if t_wait 10 eval '! t_rdma_dev_exists irdma0'; then
		t_pass "$P/delete-under-load-gone"
	else
		t_fail "$P/delete-under-load-gone" "irdma0 still exists 10 s after rdma link delete"
	fi
	kill "$cpid" 2>/dev/null
	wait "$cpid" 2>/dev/null
else
	t_fail "$P/delete-under-load" "the irdma0 listener on port 7203 does not listen"
fi
kill "$spid" 2>/dev/null
wait "$spid" 2>/dev/null
t_check "$P/ping-after" t_in "$T_NS_B" ping -c 1 -W 2 "$T_IP_A"
t_dmesg_check "$P/dmesg"
t_exit
