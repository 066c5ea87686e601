#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 240
#
# Resource tracking: "rdma resource show qp|cq|mr -dd" prints the driver's
# details of the objects of a live connection.  ib_write_bw (-R -F, 2000
# Writes of 64 KiB) runs between irdma0 (client, netns a) and irdma1 (server, netns b);
# while it runs, each side's RC QP must show hw_state RTS, offloaded 1,
# its ring sizes, cm_state OFFLOADED, its side (active/passive), the TCP
# ports of the connection (the client's rport and the server's lport are
# perftest's port), MPA revision 2, IRD/ORD and the RTR type; its CQs
# their id, size and kind; its MRs their kind (the user region with STag,
# page size and placement; the QP and CQ rings).  After the run no QP is
# left, and the kernel log is clean.
#
# Counters: the port counters ("rdma statistic", hw_counters in sysfs)
# move by what the connections did (perftest over rdma_cm makes two): as
# many cmConnects on the client as cmAccepts on the server, none the other
# way, segments in and out on both, no reset, reject or timeout.  (A
# segment that reaches the CM after its connection moved into the QP is
# counted in cmSegsDropped: one per connection on the client here.)
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
P=restrack
PORT=7480

t_require "$P/tools" rdma ib_write_bw || t_exit
t_need_ours "$P" irdma irdma_sim
t_iw_setup "$P"
work=$T_WORK
if ! t_check "$P/link-add-irdma1" t_in "$T_NS_B" rdma link add irdma1 type irdma_sim netdev "$T_IF_B"; then
	t_exit
fi
t_defer rdma link delete irdma1
t_in "$T_NS_A" ping -c 1 -W 5 "$T_IP_B" >/dev/null 2>&1

# cnt DEV NAME: a port counter of DEV
cnt() {
	cat "/sys/class/infiniband/$1/ports/1/hw_counters/$2" 2>/dev/null || echo -1
}
names='cmConnects cmAccepts cmRejects cmResetsSent cmResetsRcvd cmSegsIn cmSegsOut cmSegsDropped cmConnectTimeouts'
declare -A c0
for d in irdma0 irdma1; do
	for n in $names; do
		c0[$d.$n]=$(cnt "$d" "$n")
	done
done

ip netns exec "$T_NS_B" timeout 60 ib_write_bw -F -d irdma1 -R -p "$PORT" -s 65536 -n 2000 >"$work/srv" 2>&1 &
spid=$!
if ! t_wait 10 t_rdma_listening "$PORT"; then
	kill "$spid" 2>/dev/null
	t_indent <"$work/srv"
	t_fail "$P/listen" "the ib_write_bw server does not listen"
	t_exit
fi
t_in "$T_NS_A" timeout 60 ib_write_bw -F -d irdma0 -R -p "$PORT" -s 65536 -n 2000 "$T_IP_B" >"$work/cli" 2>&1 &
cpid=$!

# both RC QPs of the test in RTS (the CM's own QPs are not RC)
# shellcheck disable=SC2317 # called through t_wait
rc_rts() {
	[ "$(rdma res show qp -dd 2>/dev/null | grep -c 'type RC state RTS.*comm ib_write_bw')" -ge 2 ]
}
if t_wait 20 rc_rts; then
	qp=$(rdma res show qp -dd 2>&1)
	cq=$(rdma res show cq -dd 2>&1)
	mr=$(rdma res show mr -dd 2>&1)
else
	qp=$(rdma res show qp -dd 2>&1)
	cq='' mr=''
fi
wait "$cpid"
crc=$?
wait "$spid"
src=$?
{
	echo "qp:"
	echo "$qp"
	echo "cq:"
	echo "$cq"
	echo "mr:"
	echo "$mr"
} >"$work/res"
t_indent <"$work/res"


# the rdma tool prints the driver's attributes with a "drv_" prefix
qp=${qp//drv_/}
cq=${cq//drv_/}
mr=${mr//drv_/}
cli=$(grep '^link irdma0/' <<<"$qp" | grep 'type RC')
srv=$(grep '^link irdma1/' <<<"$qp" | grep 'type RC')
t_match "$P/qp-client" "$cli" 'hw_state RTS' 'offloaded 1' 'sq_quanta [1-9]' 'rq_wqes [1-9]' \
	'cm_state OFFLOADED' 'side active' "rport $PORT" 'mpa_rev 2' 'ird [0-9]' 'ord [0-9]' \
	'rtr (write|read|none)' 'loopback 0'
t_match "$P/qp-server" "$srv" 'hw_state RTS' 'offloaded 1' 'cm_state OFFLOADED' 'side passive' \
	"lport $PORT" 'mpa_rev 2'
t_match "$P/cq" "$(grep '^dev irdma[01] ' <<<"$cq")" 'cq_id [0-9]+ size [1-9][0-9]* ceq [0-9]+ kind user'
t_match "$P/mr" "$(grep '^dev irdma[01] ' <<<"$mr")" 'kind user page_size [0-9]+ placement (contiguous|pbl) pbles [0-9]+' \
	'kind qp_ring' 'kind cq_ring'
if [ "$crc" -eq 0 ] && [ "$src" -eq 0 ]; then
	t_pass "$P/ib_write_bw"
else
	t_indent <"$work/cli"
	t_indent <"$work/srv"
	t_fail "$P/ib_write_bw" "client exited $crc, server $src"
fi
# delta DEV NAME: how far a counter moved since the start
delta() {
	echo $(($(cnt "$1" "$2") - ${c0[$1.$2]}))
}
moved=
for d in irdma0 irdma1; do
	for n in $names; do
		moved+=" $d.$n+$(delta "$d" "$n")"
	done
done
t_log "counters:$moved"
t_log "$(rdma statistic show link irdma0/1 2>&1)"
if [ "$(delta irdma0 cmConnects)" -ge 1 ] &&
	[ "$(delta irdma0 cmConnects)" = "$(delta irdma1 cmAccepts)" ] &&
	[ "$(delta irdma0 cmAccepts)" = 0 ] && [ "$(delta irdma1 cmConnects)" = 0 ] &&
	[ "$(delta irdma0 cmSegsOut)" -gt 1 ] && [ "$(delta irdma1 cmSegsOut)" -gt 1 ] &&
	[ "$(delta irdma0 cmSegsIn)" -gt 1 ] && [ "$(delta irdma1 cmSegsIn)" -gt 1 ]; then
	t_pass "$P/counters"
else
	t_fail "$P/counters" "counters moved:$moved"
fi
bad=
for d in irdma0 irdma1; do
	for n in cmRejects cmResetsSent cmResetsRcvd cmConnectTimeouts; do
		[ "$(delta "$d" "$n")" = 0 ] || bad+=" $d.$n"
	done
done
if [ -z "$bad" ]; then
	t_pass "$P/counters-clean"
else
	t_fail "$P/counters-clean" "moved on a clean connection:$bad"
fi
if rdma statistic show link irdma0/1 2>/dev/null | grep -q 'cmConnects [1-9]'; then
	t_pass "$P/rdma-statistic"
else
	t_fail "$P/rdma-statistic" "rdma statistic shows no cmConnects"
fi

if t_wait 10 eval '! rdma res show qp 2>/dev/null | grep -q "comm ib_write_bw"'; then
	t_pass "$P/qps-gone"
else
	t_fail "$P/qps-gone" "$(rdma res show qp | grep -m1 'comm ib_write_bw')"
fi

t_check "$P/link-delete-irdma1" rdma link delete irdma1
t_check "$P/link-delete" rdma link delete irdma0
t_check "$P/modprobe-r" modprobe -r irdma_sim irdma
t_dmesg_check "$P/dmesg"
t_exit
