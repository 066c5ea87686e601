#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 240
#
# Tracepoints: with every event of the "irdma" system on, one rping
# between irdma0 (client, netns a) and irdma1 (server, netns b) must be
# followable in the trace buffer: the CM nodes' state changes with both
# addresses and ports and the QP number once bound; the MPA request and
# reply, sent and received, with revision, flags, private data length,
# IRD/ORD and RTR; the iw_cm events by name; the QP states asked of the
# adapter (IDLE, RTS, then ERROR or CLOSING); the control-QP commands
# with their latency; the asynchronous events by name.  The trace is
# printed in the log: it is the example Documentation/irdma.rst shows.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
P=trace
PORT=7490
TR=/sys/kernel/tracing

t_require "$P/tools" rdma rping || t_exit
t_need_ours "$P" irdma irdma_sim
[ -d "$TR/events" ] || mount -t tracefs nodev "$TR" 2>/dev/null
if [ ! -d "$TR/events" ]; then
	t_fail "$P/tracefs" "no tracefs at $TR (Debian's kernel has it)"
	t_exit
fi
t_iw_setup "$P"
if ! t_check "$P/link-add-irdma1" t_in "$T_NS_B" rdma link add irdma1 type irdma_sim netdev "$T_IF_B"; then
	t_exit
fi
t_defer rdma link delete irdma1
t_in "$T_NS_A" ping -c 1 -W 5 "$T_IP_B" >/dev/null 2>&1

if [ ! -d "$TR/events/irdma" ]; then
	t_fail "$P/events" "no events/irdma in tracefs"
	t_exit
fi
ev=
for e in "$TR"/events/irdma/*/; do
	e=${e%/}
	ev+=" ${e##*/}"
done
t_log "events:$ev"
echo 0 >"$TR/tracing_on"
echo >"$TR/trace"
echo 4096 >"$TR/buffer_size_kb"
echo 1 >"$TR/events/irdma/enable"
t_defer eval "echo 0 >$TR/events/irdma/enable; echo >$TR/trace"
echo 1 >"$TR/tracing_on"
t_rping "$P/rping" "$T_NS_B" "$T_NS_A" "$T_IP_B" "$PORT"
echo 0 >"$TR/tracing_on"
trace=$(grep -v '^#' "$TR/trace")
t_indent <<<"$trace"

A=${T_IP_A//./\\.} B=${T_IP_B//./\\.}
t_match "$P/cm_state" "$trace" \
	"irdma_cm_state: .* qp=[1-9][0-9]* $A:[0-9]+ -> $B:$PORT .* -> OFFLOADED" \
	"irdma_cm_state: .* qp=[1-9][0-9]* $B:$PORT -> $A:[0-9]+ .* -> OFFLOADED" \
	"irdma_cm_state: .* SYN_SENT" "irdma_cm_state: .* MPAREQ_RCVD"
t_match "$P/mpa" "$trace" \
	"irdma_mpa: .* tx request rev=2 flags=.*V2.* ird=[0-9]+ ord=[0-9]+" \
	"irdma_mpa: .* rx request rev=2" "irdma_mpa: .* tx reply rev=2" \
	"irdma_mpa: .* rx reply rev=2 .*rtr=[a-z0-9|]*(write|read)"
t_match "$P/cm_event" "$trace" "irdma_cm_event: .* CONNECT_REQUEST status=0" \
	"irdma_cm_event: .* CONNECT_REPLY status=0" \
	"irdma_cm_event: .* ESTABLISHED status=0" "irdma_cm_event: .* CLOSE"
t_match "$P/qp_state" "$trace" "irdma_qp_state: irdma0 qp=[0-9]+ INVALID -> IDLE" \
	"irdma_qp_state: irdma[01] qp=[0-9]+ IDLE -> RTS" \
	"irdma_qp_state: irdma[01] qp=[0-9]+ RTS -> (ERROR|CLOSING)"
t_match "$P/cqp_cmd" "$trace" "irdma_cqp_cmd: .* CREATE_QP slot=[0-9]+ ret=0 .* [0-9]+ us" \
	"irdma_cqp_cmd: .* MODIFY_QP slot=[0-9]+ ret=0"
t_match "$P/ae" "$trace" "irdma_ae: .* LLP_"

t_check "$P/link-delete-irdma1" rdma link delete irdma1
t_check "$P/link-delete" rdma link delete irdma0
t_check "$P/modprobe-r" modprobe -r irdma_sim irdma
t_dmesg_check "$P/dmesg"
t_exit
