#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Benchmark (not a timed test): the model's iWARP data path against
# soft-iWARP, all measured in one VM run so the ratios mean something.
#
#   tools/bench.sh [--iters N] [--size BYTES]
#
# Pairs (server in netns b on vb, client in netns a on va):
#   siw-siw      siw on both ends (the reference)
#   irdma-siw    irdma_sim (irdma0) client, siw server
#   irdma-irdma  irdma_sim on both ends
# Tests: ib_write_bw, ib_read_bw, ib_send_bw (-R, N x SIZE bytes),
# ib_write_lat -R (8 bytes, typical latency) and rping (N iterations of
# 4 KiB: Send, Read, Send, Write, Send; wall time per iteration); rping
# gives a second reference for every pair.  For each run the VM's CPU
# use (both vCPUs, from /proc/stat) is shown too; the model's doorbell
# poller is part of it.  The table ends with each pair's ratio to
# siw-siw.  Numbers vary from run to run; TCG is slow: compare ratios.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
iters=1000
size=65536
guest=0
while [ $# -gt 0 ]; do
	case "$1" in
	--iters) iters=$2; shift 2 ;;
	--size) size=$2; shift 2 ;;
	--guest) guest=1; shift ;;
	*) echo "usage: $0 [--iters N] [--size BYTES]" >&2; exit 2 ;;
	esac
done

if [ "$guest" = 0 ]; then
	make -C "$here/.." modules >/dev/null || exit 1
	exec "$here/vm/run.sh" --timeout 1500 -- "$here/bench.sh" --guest \
		--iters "$iters" --size "$size"
fi

# ---------------------------------------------------------------- guest ---
# shellcheck source=tests/lib.sh
. "$here/../tests/lib.sh"
exec 3>&1 >/dev/null 2>&1
out() { echo "$@" >&3; }
t_hosts_up || { out "cannot set up netns a/b"; exit 1; }
modprobe siw
modprobe -a rdma_ucm ib_uverbs
work=$(mktemp -d /var/tmp/bench.XXXXXX)
t_defer rm -rf "$work"

# cpu_busy: jiffies spent busy by all CPUs so far
cpu_busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 }' /proc/stat; }
cpu_all() { awk '/^cpu / { print $2 + $3 + $4 + $5 + $6 + $7 + $8 }' /proc/stat; }

# rping_run: rping server in b, client in a: prints "us-per-ping cpu%"
rping_run() {
	local port=$((20000 + RANDOM % 1000)) b0 a0 b1 a1 t0 t1
	ip netns exec b timeout 200 rping -s -a "$T_IP_B" -p "$port" -C "$iters" -S 4096 >"$work/srv" 2>&1 &
	t_wait 10 t_rdma_listening "$port"
	b0=$(cpu_busy) a0=$(cpu_all) t0=$(date +%s%N)
	if ! ip netns exec a timeout 200 rping -c -a "$T_IP_B" -p "$port" -C "$iters" -S 4096 >"$work/cli" 2>&1; then
		t1=
	else
		t1=$(date +%s%N)
	fi
	b1=$(cpu_busy) a1=$(cpu_all)
	kill %% 2>/dev/null
	wait
	if [ -z "$t1" ]; then
		out "# rping failed:"
		tail -n 5 "$work/cli" | sed 's/^/#   /' >&3
	fi
	echo "$([ -n "$t1" ] && awk -v d=$((t1 - t0)) -v n="$iters" 'BEGIN { printf "%.0f", d / n / 1000 }' || echo fail) $(awk -v b=$((b1 - b0)) -v a=$((a1 - a0)) 'BEGIN { printf "%.0f", a ? 100 * b / a : 0 }')"
}

# run TOOL SDEV CDEV ARGS...: prints "value cpu%"
run() {
	local tool=$1 sdev=$2 cdev=$3 port=$((19000 + RANDOM % 1000)) b0 a0 b1 a1 v
	shift 3
	ip netns exec b timeout 200 "$tool" -R -F -d "$sdev" -p "$port" "$@" >"$work/srv" 2>&1 &
	t_wait 10 t_rdma_listening "$port"
	b0=$(cpu_busy) a0=$(cpu_all)
	ip netns exec a timeout 200 "$tool" -R -F -d "$cdev" -p "$port" "$@" "$T_IP_B" >"$work/cli" 2>&1
	b1=$(cpu_busy) a1=$(cpu_all)
	wait
	case "$tool" in
	*_lat) v=$(awk '$1 == 8 && NF >= 7 { print $5 }' "$work/cli" | tail -n1) ;;
	*) v=$(awk -v s="$size" '$1 == s && NF >= 5 { print $4 }' "$work/cli" | tail -n1) ;;
	esac
	if [ -z "$v" ]; then
		out "# $tool $sdev <- $cdev failed:"
		tail -n 5 "$work/cli" "$work/srv" | sed 's/^/#   /' >&3
	fi
	echo "${v:-fail} $(awk -v b=$((b1 - b0)) -v a=$((a1 - a0)) 'BEGIN { printf "%.0f", a ? 100 * b / a : 0 }')"
}

declare -A R
pairs="siw-siw irdma-siw irdma-irdma"
tests="ib_write_bw ib_read_bw ib_send_bw ib_write_lat rping"
for pair in $pairs; do
	case "$pair" in
	siw-siw) ca=(siw siw0) cb=(siw siw1) ;;
	irdma-siw) ca=(irdma_sim irdma0) cb=(siw siw1) ;;
	irdma-irdma) ca=(irdma_sim irdma0) cb=(irdma_sim irdma1) ;;
	esac
	t_in a rdma link add "${ca[1]}" type "${ca[0]}" netdev va
	t_in b rdma link add "${cb[1]}" type "${cb[0]}" netdev vb
	for t in $tests; do
		case "$t" in
		rping) R[$pair.$t]=$(rping_run) ;;
		*_lat) R[$pair.$t]=$(run "$t" "${cb[1]}" "${ca[1]}" -n "$iters" -s 8 -I 0) ;;
		*) R[$pair.$t]=$(run "$t" "${cb[1]}" "${ca[1]}" -n "$iters" -s "$size") ;;
		esac
	done
	rdma link delete "${ca[1]}"
	rdma link delete "${cb[1]}"
done

out "iWARP benchmark: $iters x $size B (latency: 8 B), one VM run ($(nproc) vCPUs)"
out "$(printf '%-13s %-13s %12s %6s %10s' pair test value cpu% vs-siw)"
for t in $tests; do
	unit="MB/s"
	case "$t" in *_lat) unit="us" ;; rping) unit="us/it" ;; esac
	ref=${R[siw-siw.$t]%% *}
	for pair in $pairs; do
		v=${R[$pair.$t]%% *}
		c=${R[$pair.$t]##* }
		ratio=$(awk -v v="$v" -v r="$ref" 'BEGIN { if (v + 0 > 0 && r + 0 > 0) printf "%.2f", v / r; else print "-" }')
		out "$(printf '%-13s %-13s %9s %-4s %5s%% %9s' "$pair" "$t" "$v" "$unit" "$c" "$ratio")"
	done
done
out "(bandwidth: higher is better; latency and us/it: lower is better, ratio > 1 is slower)"
