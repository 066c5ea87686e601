#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 420
#
# Protocol errors between two iWARP stacks, on the wire: an offender
# (tests/progs/iw_term -c) makes one error against a victim
# (iw_term -s) — an RDMA Write to an STag with the wrong key, one past the
# region's end, one to a region of another PD, a Send with no receive
# posted — and then posts a Send that must not complete well.
# Pairs: irdma victim / siw offender, siw victim / irdma offender, and two
# model devices (irdma1 victim, irdma0 offender).
#   - both ends' consumers learn of the error (an async event, an error or
#     flushed completion, or the disconnect);
#   - the offender's stack logs the TERMINATE it got: irdma its layer,
#     type, code and header bits, siw its "got TERMINATE" warning;
#   - irdma sends aligned FPDUs: in a capture of ib_send_bw's 64 KiB Sends
#     from irdma1 (which follow short FPDUs), every TCP segment is exactly
#     one whole FPDU, those TCP sends again included;
#   - a capture, decoded by tshark's iWARP dissectors, shows the victim's
#     TERMINATE; an irdma victim's must carry the RFC 5040/5041 layer,
#     error type and code of the error, the M and D bits (R clear: no Read
#     Request was involved) and the offending FPDU's DDP segment length;
# siw is the reference for the other direction: what its TERMINATE says is
# shown, not judged (siw 6.1 lays the layer/type byte and the header-
# control bits out in the opposite bit order to RFC 5040).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
P=terminate

t_require "$P/tools" rdma ib_send_bw ethtool || t_exit
t_need_ours "$P" irdma irdma_sim
if [ ! -x "$T_PROGS/iw_term" ]; then
	t_fail "$P/progs" "$T_PROGS/iw_term is not built"
	t_exit
fi
t_iw_setup "$P"
work=$T_WORK
if ! t_check "$P/link-add-siw" t_in "$T_NS_B" rdma link add siw0 type siw netdev "$T_IF_B"; then
	t_exit
fi
t_in "$T_NS_A" ping -c 1 -W 5 "$T_IP_B" >/dev/null 2>&1
cap=$work/term.pcapng
wire=1
t_cap_start "$T_NS_B" "$T_IF_B" "$cap" || { t_cap_fail "$P/wire" "$cap" $?; wire=0; }

# the victim's expected TERMINATE per mode: layer, error type, code,
# DDP segment length of the offending FPDU (64 bytes of payload)
declare -A want=(
	[badstag]="1 1 0 78"	# DDP, tagged buffer, invalid STag
	[bounds]="1 1 1 78"	# DDP, tagged buffer, base or bounds violation
	[pd]="1 1 2 78"		# DDP, tagged buffer, STag not associated
	[norecv]="1 2 2 82"	# DDP, untagged buffer, no buffer available
)
declare -A victim_of	# port -> "irdma" or "siw" and the mode

# logged NAME OFFENDER(irdma|siw) MODE VICTIM LOGFILE: the offender's stack
# reported the TERMINATE it got.  irdma logs the RFC fields; a TERMINATE
# from irdma must show the code of MODE, one from siw only appear.  siw
# logs every TERMINATE, with the layer and type nibbles swapped (its bit
# order), so irdma's layer L, type T shows there as "layer T, type L".
logged() {
	local name=$1 off=$2 mode=$3 vic=$4 log=$5 layer etype code _ pat
	read -r layer etype code _ <<<"${want[$mode]}"
	if [ "$off" = siw ]; then
		pat="siw: got TERMINATE. layer $etype, type $layer, code $code\$"
	elif [ "$vic" = irdma ]; then
		pat=$(printf 'TERMINATE received: layer %u, error type %u, code 0x%02x, headers M D ' \
			"$layer" "$etype" "$code")
	else
		pat='TERMINATE received: layer'
	fi
	if grep -q "$pat" "$log"; then
		t_pass "$name"
	else
		t_indent <"$log"
		t_fail "$name" "the offender ($off) did not log the TERMINATE ('$pat')"
	fi
}

# run NAME VICTIM(irdma|siw) VNS VIP ONS MODE PORT [OFFENDER]
run() {
	local name=$1 vic=$2 vns=$3 vip=$4 ons=$5 mode=$6 port=$7 off=${8:-}
	local spid src=0 crc=0 before
	before=$(dmesg | wc -l)
	ip netns exec "$vns" "$T_PROGS/iw_term" -s -a "$vip" -p "$port" -m "$mode" -t 15 >"$work/srv.$port" 2>&1 &
	spid=$!
	if ! t_wait 10 grep -q listening "$work/srv.$port"; then
		kill "$spid" 2>/dev/null
		wait "$spid"
		t_indent <"$work/srv.$port"
		t_fail "$name" "the victim does not listen"
		return
	fi
	ip netns exec "$ons" "$T_PROGS/iw_term" -c -a "$vip" -p "$port" -m "$mode" -t 15 >"$work/cli.$port" 2>&1 || crc=$?
	wait "$spid" || src=$?
	victim_of[$port]="$vic $mode"
	if [ "$src" -eq 0 ] && [ "$crc" -eq 0 ] &&
	   ! grep -q 'wr_id 2 status success' "$work/cli.$port"; then
		t_pass "$name"
	else
		t_log "victim (exit $src):"
		t_indent <"$work/srv.$port"
		t_log "offender (exit $crc):"
		t_indent <"$work/cli.$port"
		t_iw_diag
		t_fail "$name" "both ends must learn of the error, and the offender's next Send must not succeed"
	fi
	dmesg | tail -n +"$((before + 1))" >"$work/dmesg.$port"
	logged "$name/logged" "$off" "$mode" "$vic" "$work/dmesg.$port"
}

port=7820
ALIGN_PORT=7840
aligned=0
for mode in badstag bounds pd norecv; do
	run "$P/irdma-victim/$mode" irdma "$T_NS_A" "$T_IP_A" "$T_NS_B" "$mode" $((port += 1)) siw
	run "$P/siw-victim/$mode" siw "$T_NS_B" "$T_IP_B" "$T_NS_A" "$mode" $((port += 1)) irdma
done
t_check "$P/link-delete-siw" rdma link delete siw0
if t_check "$P/link-add-irdma1" t_in "$T_NS_B" rdma link add irdma1 type irdma_sim netdev "$T_IF_B"; then
	t_in "$T_NS_A" ping -c 1 -W 5 "$T_IP_B" >/dev/null 2>&1
	for mode in badstag bounds pd norecv; do
		run "$P/irdma-irdma/$mode" irdma "$T_NS_B" "$T_IP_B" "$T_NS_A" "$mode" $((port += 1)) irdma
	done
	# a Send stream for the alignment check: irdma1 (netns b, where the
	# capture runs, so its segments are seen as they leave) sends 64 KiB
	# messages after perftest's short ones.  The model gives TCP runs of
	# full-segment FPDUs as one buffer; with segmentation offload the
	# capture would see that buffer, not the segments a wire carries, so
	# the stack cuts it before the capture sees it
	if t_check "$P/align/no-offload" t_in "$T_NS_B" ethtool -K "$T_IF_B" tso off gso off; then
		ip netns exec "$T_NS_A" timeout 90 ib_send_bw -F -d irdma0 -R -p "$ALIGN_PORT" -s 65536 -n 20 >"$work/align.srv" 2>&1 &
		spid=$!
		if t_wait 10 t_rdma_listening "$ALIGN_PORT" &&
		   t_in "$T_NS_B" timeout 90 ib_send_bw -F -d irdma1 -R -p "$ALIGN_PORT" -s 65536 -n 20 "$T_IP_A" >"$work/align.cli" 2>&1 &&
		   wait "$spid"; then
			aligned=1
		else
			kill "$spid" 2>/dev/null
			t_indent <"$work/align.cli"
			t_fail "$P/align/run" "ib_send_bw irdma1 -> irdma0 failed"
		fi
		t_in "$T_NS_B" ethtool -K "$T_IF_B" tso on gso on >/dev/null 2>&1
	fi
	t_check "$P/link-delete-irdma1" rdma link delete irdma1
fi
t_cap_stop

if [ "$wire" = 1 ]; then
	# one line per TERMINATE: source port, layer, types, codes, M D R, length
	tshark -r "$cap" -o tcp.try_heuristic_first:TRUE \
		-Y 'iwarp_rdma.opcode == 7' -T fields -E separator=, \
		-e tcp.srcport -e iwarp_rdma.term_layer \
		-e iwarp_rdma.term_etype_ddp -e iwarp_rdma.term_etype_rdma \
		-e iwarp_rdma.term_etype_llp \
		-e iwarp_rdma.term_errcode_ddp_tagged \
		-e iwarp_rdma.term_errcode_ddp_untagged \
		-e iwarp_rdma.term_errcode_rdma -e iwarp_rdma.term_errcode_llp \
		-e iwarp_rdma.term_hdrct_m -e iwarp_rdma.hdrct_d -e iwarp_rdma.hdrct_r \
		-e iwarp_rdma.term_ddp_seg_len >"$work/terms" 2>"$work/tshark.err"
	t_log "TERMINATEs on the wire (port,layer,etype-ddp,etype-rdma,etype-llp,code-tagged,code-untagged,code-rdma,code-llp,M,D,R,seglen):"
	t_indent <"$work/terms"
	for p in "${!victim_of[@]}"; do
		read -r vic mode <<<"${victim_of[$p]}"
		line=$(awk -F, -v p="$p" '$1 == p' "$work/terms" | head -n 1)
		name="$P/wire/$vic-victim-$p-$mode"
		if [ -z "$line" ]; then
			t_fail "$name" "no TERMINATE from port $p"
			continue
		fi
		if [ "$vic" = siw ]; then
			t_pass "$name"
			continue
		fi
		read -r layer etype code seglen <<<"${want[$mode]}"
		# fields: port layer etd etr etl ct cu cr cl m d r len; numbers
		# in hex (0x..), the length as two hex bytes, flags 0/1
		IFS=, read -r _ l etd _ _ ct cu _ _ m d r len <<<"$line"
		c=$ct
		[ "$etype" = 2 ] && c=$cu
		if [ -n "$l" ] && [ -n "$etd" ] && [ -n "$c" ] && [ -n "$len" ] &&
		   [ "$((l))" = "$layer" ] && [ "$((etd))" = "$etype" ] &&
		   [ "$((c))" = "$code" ] && [ "$m" = 1 ] && [ "$d" = 1 ] &&
		   [ "$r" = 0 ] && [ "$((16#$len))" = "$seglen" ]; then
			t_pass "$name"
		else
			t_fail "$name" "TERMINATE '$line', want layer $layer type $etype code $code, M D, not R, DDP length $seglen"
		fi
	done
fi

# alignment: every data segment irdma1 sent to the perftest server (after
# the MPA exchange) is whole FPDUs, tshark decoding each segment alone:
# one FPDU, and the segment is exactly its length (2 + ULPDU, padded to 4,
# + 4 of CRC when the connection has it).  Segments TCP sent again
# (retransmitted, or out of order after a loss) are decoded too
# (tshark skips their payload by default) and must be whole FPDUs as well.
if [ "$wire" = 1 ] && [ "$aligned" = 1 ]; then
	tshark -r "$cap" -o tcp.try_heuristic_first:TRUE -o tcp.desegment_tcp_streams:FALSE \
		-o tcp.no_subdissector_on_error:FALSE \
		--disable-heuristic rpcrdma_iwarp --disable-heuristic smb_direct_iwarp \
		-Y "tcp.dstport == $ALIGN_PORT && tcp.len > 0 && !iwarp_mpa.req && !iwarp_mpa.rep" \
		-T fields -E separator=, -E occurrence=a \
		-e tcp.len -e iwarp_mpa.ulpdulength -e frame.number -e tcp.seq \
		-e tcp.analysis.flags >"$work/align" 2>>"$work/tshark.err"
	# CRC is on when either end's MPA frame asked for it
	crc=0
	tshark -r "$cap" -o tcp.try_heuristic_first:TRUE \
		-Y "tcp.port == $ALIGN_PORT && (iwarp_mpa.req || iwarp_mpa.rep)" \
		-T fields -e iwarp_mpa.crc_flag 2>>"$work/tshark.err" | grep -qE '^(1|True)$' && crc=4
	total=$(wc -l <"$work/align")
	resent=$(tshark -r "$cap" \
		-Y "tcp.dstport == $ALIGN_PORT && tcp.len > 0 && (tcp.analysis.retransmission || tcp.analysis.fast_retransmission || tcp.analysis.spurious_retransmission || tcp.analysis.out_of_order)" \
		-T fields -e frame.number 2>>"$work/tshark.err" | wc -l)
	bad=$(awk -F, -v crc="$crc" '{
		u = $2
		if (u == "" || u ~ /[^0-9]/) { print; next }
		f = 2 + u; f += (4 - f % 4) % 4; f += crc
		if ($1 != f) print }' "$work/align")
	short=$(awk -F, '$2 != "" && $2 < 1000' "$work/align" | wc -l)
	t_log "$P/align: $total data segments, $short short FPDUs, $resent sent again by TCP"
	if [ "$total" -ge 800 ] && [ "$short" -gt 0 ] && [ -z "$bad" ]; then
		t_pass "$P/align"
	else
		# tcp.len,ulpdulength,frame,seq,analysis flags of each
		head -n 20 <<<"$bad" | t_indent
		t_fail "$P/align" "$total data segments (want >= 800, with $short short FPDUs > 0); not whole FPDUs (CRC $crc bytes): $(grep -c . <<<"$bad")"
	fi
fi

t_check "$P/link-delete" rdma link delete irdma0
t_check "$P/modprobe-r" modprobe -r irdma_sim irdma
t_dmesg_check "$P/dmesg"
t_exit
