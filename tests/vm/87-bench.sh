#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 600
# host-setup: tools/siw.sh --crc
#
# The benchmark (tools/bench.sh, "make bench") at a tiny size, so that it
# cannot rot: one run per cell (not repeated when perftest cannot time
# it), 20 messages, 5 serial connections and 10 held.  Its numbers mean nothing at this size and are only shown; what is
# checked is that the CRC siw is the one loaded and that every run of
# every cell of every pair (siw/siw, irdma/irdma, irdma/siw, siw/irdma)
# completed, client and server, but the one cell the table marks n/a.  A
# run that completed but that perftest could not time ("no time": its TSC
# calibration fails now and then under TCG) still counts as completed.
# Then the modules unload with a clean kernel log.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
B=bench

t_require "$B/tools" rdma ib_write_bw ib_read_bw ib_send_bw ib_write_lat ib_send_lat ib_read_lat || t_exit
t_need_ours "$B" irdma irdma_sim
[ -x "$T_PROGS/cm_loop" ] || { t_fail "$B/progs" "$T_PROGS/cm_loop is not built"; t_exit; }
crc_ko=$("$T_REPO/tools/siw.sh" --crc --path)
if [ ! -f "$crc_ko" ]; then
	t_fail "$B/siw-crc" "no siw built with MPA CRC required at $crc_ko (host setup: tools/siw.sh --crc)"
	t_exit
fi
t_dmesg_mark "$B"
table=$(mktemp /var/tmp/bench.XXXXXX)
t_defer rm -f "$table"
rc=0
"$T_REPO/tools/bench.sh" --guest --runs 1 --tries 1 --iters 20 --conns 5 --hold 10 >"$table" 2>&1 || rc=$?
t_indent <"$table"
if [ "$rc" -ne 0 ] || ! grep -q '^| test |' "$table"; then
	t_fail "$B/table" "bench.sh exited $rc without its table"
	t_exit
fi
t_pass "$B/table"

# every pair's column: a number in each row, "n/a" only where noted
for pair in siw/siw irdma/irdma irdma/siw siw/irdma; do
	bad=$(awk -F'|' -v p="$pair" '
		$2 == " test " { for (i = 3; i < NF; i++) if ($i == " " p " ") col = i; next }
		col && /^\| (ib_|connect)/ {
			c = $col
			if (c ~ /^ n\/a $/ && $2 ~ /write_lat/ && p == "siw/irdma") next
			if (c ~ /fail/ || c !~ /^ ([0-9.]+ \(1\/1\)|no time \(0\/1\))/)
				printf "%s:%s; ", $2, c
		}
		END { if (!col) print "no column" }' "$table")
	if [ -z "$bad" ]; then
		t_pass "$B/$pair"
	else
		t_fail "$B/$pair" "cells without a number: $bad"
	fi
done

t_check "$B/modprobe-r" modprobe -r siw irdma_sim irdma
t_dmesg_check "$B/dmesg"
t_exit
