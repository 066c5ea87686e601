#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 600
#
# Bulk iWARP traffic through the model's QP engine: perftest's
# ib_write_bw, ib_read_bw and ib_send_bw with rdma_cm (-R), 64 KiB
# messages, irdma0 (irdma_sim on va, netns a) as client of siw0 (vb,
# netns b), then of a second model instance irdma1 on vb; ucmatose (two
# connections, 100 Sends of 4 KiB each way) the same two ways.  (perftest
# fails as an rdma_cm client on siw in this VM: its rdma_connect fails,
# then it crashes in librdmacm; siw as the client of irdma0 is covered by
# 70-rping.)  Each run
# must complete and report a bandwidth; the numbers are logged (the
# benchmark is tools/bench.sh).  Then the modules unload with a clean
# kernel log.
# shellcheck source=tools/tests/lib.sh
. "$(dirname "$0")/../lib.sh"
P=perftest

t_require "$P/tools" rdma ib_write_bw ib_read_bw ib_send_bw ucmatose || t_exit
t_need_ours "$P" irdma irdma_sim
t_iw_setup "$P"
work=$T_WORK
t_check "$P/link-add-siw" t_in "$T_NS_B" rdma link add siw0 type siw netdev "$T_IF_B"
t_defer rdma link delete siw0


# bw NAME TOOL SERVER_DEV CLIENT_DEV ITERS [rev]: server in b, client in a
# (rev: server in a, client in b)
bw() {
	local name=$1 tool=$2 sdev=$3 cdev=$4 n=$5 spid rc=0 src=0 port=$((18515 + RANDOM % 1000))
	local sns=$T_NS_B cns=$T_NS_A dst=$T_IP_B
	[ "${6:-}" = rev ] && sns=$T_NS_A cns=$T_NS_B dst=$T_IP_A
	ip netns exec "$sns" timeout 120 "$tool" -R -F -d "$sdev" -p "$port" -n "$n" -s 65536 >"$work/srv" 2>&1 &
	spid=$!
	if ! t_wait 10 t_rdma_listening "$port"; then
		kill "$spid" 2>/dev/null
		wait "$spid"
		t_indent <"$work/srv"
		t_fail "$name" "the $tool server does not listen"
		return
	fi
	t_in "$cns" timeout 100 "$tool" -R -F -d "$cdev" -p "$port" -n "$n" -s 65536 "$dst" >"$work/cli" 2>&1 || rc=$?
	wait "$spid" || src=$?
	# "#bytes #iterations BW peak BW average MsgRate" result line
	res=$(awk '$1 == 65536 && NF >= 5 { print $4 }' "$work/cli" | tail -n1)
	# 0.00 is what perftest prints when its clock calibration fails on
	# a loaded host ("Correlation coefficient r^2 < 0.9"): still a run
	if [ "$rc" -eq 0 ] && [ "$src" -eq 0 ] && [ -n "$res" ]; then
		t_pass "$name"
		t_log "$name: $res MB/s average"
	else
		t_log "result: ${res:-none}"
		t_indent <"$work/cli"
		t_indent <"$work/srv"
		t_iw_diag
		t_fail "$name" "$tool client exited $rc, server $src"
	fi
}

# ucm NAME [rev]: ucmatose server in b, client in a (rev: the other way)
ucm() {
	local name=$1 spid rc=0 src=0 sns=$T_NS_B cns=$T_NS_A dst=$T_IP_B
	[ "${2:-}" = rev ] && sns=$T_NS_A cns=$T_NS_B dst=$T_IP_A
	ip netns exec "$sns" timeout 60 stdbuf -oL ucmatose -b "$dst" -c 2 -C 100 -S 4096 >"$work/ucm-s" 2>&1 &
	spid=$!
	if ! t_wait 10 t_rdma_listening 7471; then
		kill "$spid" 2>/dev/null
		wait "$spid"
		t_indent <"$work/ucm-s"
		t_fail "$name" "the ucmatose server does not listen"
		return
	fi
	t_in "$cns" timeout 60 ucmatose -s "$dst" -c 2 -C 100 -S 4096 >"$work/ucm-c" 2>&1 || rc=$?
	wait "$spid" || src=$?
	if [ "$rc" -eq 0 ] && [ "$src" -eq 0 ] && grep -q 'test complete' "$work/ucm-c"; then
		t_pass "$name"
	else
		t_indent <"$work/ucm-c"
		t_indent <"$work/ucm-s"
		t_iw_diag
		t_fail "$name" "ucmatose client exited $rc, server $src"
	fi
}

bw "$P/write-siw" ib_write_bw siw0 irdma0 1000
bw "$P/read-siw" ib_read_bw siw0 irdma0 300
bw "$P/send-siw" ib_send_bw siw0 irdma0 1000
ucm "$P/ucmatose-siw"

t_check "$P/link-delete-siw" rdma link delete siw0
if t_check "$P/link-add-irdma1" t_in "$T_NS_B" rdma link add irdma1 type irdma_sim netdev "$T_IF_B"; then
	t_defer rdma link delete irdma1
	bw "$P/write-irdma" ib_write_bw irdma1 irdma0 1000
	bw "$P/read-irdma" ib_read_bw irdma1 irdma0 300
	bw "$P/send-irdma" ib_send_bw irdma1 irdma0 1000
	ucm "$P/ucmatose-irdma"
	t_check "$P/link-delete-irdma1" rdma link delete irdma1
fi

t_check "$P/link-delete" rdma link delete irdma0
t_check "$P/modprobe-r" modprobe -r irdma_sim irdma
t_dmesg_check "$P/dmesg"
t_exit
