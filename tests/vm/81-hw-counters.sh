#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 300
#
# The adapter's counters (GATHER_STATS through the control QP), as
# "rdma statistic" and sysfs hw_counters show them, move by what a known
# perftest run did: irdma0 (client, netns a) and irdma1 (server, netns b)
# run ib_write_bw, ib_send_bw and ib_read_bw (-R, N messages of 64 KiB
# each).  For each tool:
#   - the client counts at least N messages out of its kind
#     (iwOutRdmaWrites / iwOutRdmaSends / iwOutRdmaReads) and the server
#     exactly as many in (iwIn*): each side counts whole messages;
#   - the other two kinds of RDMA messages move by less than N / 4 (perftest
#     exchanges its parameters and synchronises with some 16 Sends each
#     way, and a couple of Writes);
#   - the data moved shows in IP octets: the sender of the data (the
#     server for reads) counts at least N * 64 KiB out and the receiver
#     as many in; IPv4 packets equal TCP segments (every packet is one);
#     nothing is counted as IPv6.
# Wrap: the model's counters are moved close to their width (debugfs
# gstat_advance) and ib_write_bw runs again: the totals must move by what
# it did across the wrap.  Also: a second read gives the same values
# while nothing runs (the totals do not drift), and the kernel log stays
# clean.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
P=hw-counters
PORT=7481
N=200
SIZE=65536

t_require "$P/tools" rdma ib_write_bw ib_send_bw ib_read_bw || t_exit
t_need_ours "$P" irdma irdma_sim
t_iw_setup "$P"
work=$T_WORK
if ! t_check "$P/link-add-irdma1" t_in "$T_NS_B" rdma link add irdma1 type irdma_sim netdev "$T_IF_B"; then
	t_exit
fi
t_defer rdma link delete irdma1
t_in "$T_NS_A" ping -c 1 -W 5 "$T_IP_B" >/dev/null 2>&1

names='iwOutRdmaWrites iwOutRdmaSends iwOutRdmaReads iwInRdmaWrites iwInRdmaSends iwInRdmaReads
ip4OutOctets ip4InOctets ip4OutPkts ip4InPkts tcpOutSegs tcpInSegs ip6OutPkts ip6InPkts
tcpRetransSegs'

# cnt DEV NAME: a port counter of DEV
cnt() {
	cat "/sys/class/infiniband/$1/ports/1/hw_counters/$2" 2>/dev/null || echo -1
}
declare -A c0
snap() {
	local d n
	for d in irdma0 irdma1; do
		for n in $names; do
			c0[$d.$n]=$(cnt "$d" "$n")
		done
	done
}
# delta DEV NAME: how far a counter moved since snap
delta() {
	echo $(($(cnt "$1" "$2") - ${c0[$1.$2]}))
}

if [ "$(cnt irdma0 iwOutRdmaWrites)" != -1 ] &&
	rdma statistic show link irdma0/1 2>/dev/null | grep -q 'ip4OutOctets [0-9]'; then
	t_pass "$P/names"
else
	t_log "$(ls "/sys/class/infiniband/irdma0/ports/1/hw_counters" 2>&1 | tr '\n' ' ')"
	t_fail "$P/names" "no adapter counters in sysfs or rdma statistic"
	t_exit
fi

# run TOOL KIND: one perftest run; KIND is the RDMA message the client
# sends (RdmaWrites, RdmaSends, RdmaReads)
run() {
	local tool=$1 out=$2 spid cpid crc src moved= n k
	local name=$P/${tool#ib_}
	snap
	ip netns exec "$T_NS_B" timeout 90 "$tool" -F -d irdma1 -R -p "$PORT" -s "$SIZE" -n "$N" >"$work/srv.$tool" 2>&1 &
	spid=$!
	if ! t_wait 10 t_rdma_listening "$PORT"; then
		kill "$spid" 2>/dev/null
		t_indent <"$work/srv.$tool"
		t_fail "$name" "the $tool server does not listen"
		return
	fi
	t_in "$T_NS_A" timeout 90 "$tool" -F -d irdma0 -R -p "$PORT" -s "$SIZE" -n "$N" "$T_IP_B" >"$work/cli.$tool" 2>&1 &
	cpid=$!
	wait "$cpid"
	crc=$?
	wait "$spid"
	src=$?
	if [ "$crc" != 0 ] || [ "$src" != 0 ]; then
		t_indent <"$work/cli.$tool"
		t_indent <"$work/srv.$tool"
		t_fail "$name" "client exited $crc, server $src"
		return
	fi
	# the last segments of the connection are counted when its QP goes
	t_wait 10 eval '! rdma res show qp 2>/dev/null | grep -q "comm $tool"'
	for d in irdma0 irdma1; do
		for n in $names; do
			moved+=" $d.$n+$(delta "$d" "$n")"
		done
	done
	t_log "$tool:$moved"

	local bad=
	[ "$(delta irdma0 "iwOut$out")" -ge "$N" ] || bad+=" client iwOut$out < $N"
	[ "$(delta irdma1 "iwIn$out")" = "$(delta irdma0 "iwOut$out")" ] ||
		bad+=" server iwIn$out != client iwOut$out"
	for k in RdmaWrites RdmaSends RdmaReads; do
		[ "$k" = "$out" ] && continue
		[ "$(delta irdma0 "iwOut$k")" -lt $((N / 4)) ] || bad+=" client iwOut$k moved"
		[ "$(delta irdma1 "iwOut$k")" -lt $((N / 4)) ] || bad+=" server iwOut$k moved"
	done
	# who sends the data: the client, except for reads
	local tx=irdma0 rx=irdma1
	[ "$out" != RdmaReads ] || { tx=irdma1; rx=irdma0; }
	[ "$(delta "$tx" ip4OutOctets)" -ge $((N * SIZE)) ] || bad+=" $tx ip4OutOctets < N*SIZE"
	[ "$(delta "$rx" ip4InOctets)" -ge $((N * SIZE)) ] || bad+=" $rx ip4InOctets < N*SIZE"
	for d in irdma0 irdma1; do
		[ "$(delta "$d" ip4OutPkts)" = "$(delta "$d" tcpOutSegs)" ] || bad+=" $d ip4OutPkts != tcpOutSegs"
		[ "$(delta "$d" ip4InPkts)" = "$(delta "$d" tcpInSegs)" ] || bad+=" $d ip4InPkts != tcpInSegs"
		[ "$(delta "$d" tcpOutSegs)" -gt 0 ] || bad+=" $d tcpOutSegs 0"
		[ "$(delta "$d" ip6OutPkts)" = 0 ] && [ "$(delta "$d" ip6InPkts)" = 0 ] ||
			bad+=" $d counted IPv6"
	done
	if [ -z "$bad" ]; then
		t_pass "$name"
	else
		t_fail "$name" "$bad"
	fi
}

run ib_write_bw RdmaWrites
run ib_send_bw RdmaSends
run ib_read_bw RdmaReads

# wrap: the counters of irdma0's model are moved to within 1 MiB of 2^48
# (and so of 2^32): the next ib_write_bw wraps every 48-bit octet counter
# and the 32-bit ones; the totals must still move by what the run did,
# not jump by 2^48 or go back.
sim0=
for d in /sys/kernel/debug/irdma_sim/irdma_sim*; do
	grep -q '^ibdev: irdma0$' "$d/info" 2>/dev/null && sim0=$d
done
if [ -z "$sim0" ] || ! echo $(((1 << 48) - (1 << 20))) >"$sim0/gstat_advance"; then
	t_fail "$P/wrap" "no gstat_advance for irdma0's model"
else
	# the jump itself is gathered here, before the snapshot
	cnt irdma0 ip4OutOctets >/dev/null
	run ib_write_bw RdmaWrites
	w=$(delta irdma0 ip4OutOctets)
	if [ "$w" -ge $((N * SIZE)) ] && [ "$w" -lt $((4 * N * SIZE)) ]; then
		t_pass "$P/wrap"
	else
		t_fail "$P/wrap" "ip4OutOctets moved by $w across the wrap"
	fi
fi

snap
sleep 1
still=
for d in irdma0 irdma1; do
	for n in $names; do
		[ "$(delta "$d" "$n")" = 0 ] || still+=" $d.$n+$(delta "$d" "$n")"
	done
done
if [ -z "$still" ]; then
	t_pass "$P/idle"
else
	t_fail "$P/idle" "moved with nothing running:$still"
fi
t_log "$(rdma statistic show link irdma1/1 2>&1)"

t_check "$P/link-delete-irdma1" rdma link delete irdma1
t_check "$P/link-delete" rdma link delete irdma0
t_check "$P/modprobe-r" modprobe -r irdma_sim irdma
t_dmesg_check "$P/dmesg"
t_exit
